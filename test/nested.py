# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The nested runs (the node's tests on Jazzy, the engine's on Humble's Python), run beside the rest.

Each waits mostly on DDS and the real time of a drive, so it starts as soon as collection
ends (conftest.py) and its test only collects the result: on two cores the suite takes the
time of the longer part, not of both. A nested run uses its own band of DDS domains
(ros_domain), so its nodes never meet the main run's.
"""
from dataclasses import dataclass
import os
from pathlib import Path
import shutil
import subprocess
import tempfile
import time
from typing import Dict, Iterable, List, Mapping, Optional

DOMAIN_BAND = 'FRAME_AUDIT_DOMAIN_BAND'  # 0: the main run; 1: a nested run
BAND_WIDTH = 110  # band 0: domains 1 to 100, band 1: 111 to 210
IN_PROCESS_DOMAIN = 219  # a test's node in its own process: 219 + band


def ros_domain(offset: int = 0) -> int:
    """Return a DDS domain of this run's band, from this process's id (offset: another one)."""
    band = int(os.environ.get(DOMAIN_BAND, '0'))
    return 1 + band * BAND_WIDTH + (os.getpid() + offset) % 100


def in_process_domain() -> int:
    """Return the domain of a node run inside the test process, apart from every other."""
    return IN_PROCESS_DOMAIN + int(os.environ.get(DOMAIN_BAND, '0'))


@dataclass
class Nested:
    """One nested pytest run: its command, started once, and where it writes."""

    command: List[str]
    env: Mapping[str, str]
    cwd: Path
    timeout_s: float
    folder: Path = Path()  # made when the run starts
    process: Optional['subprocess.Popen[bytes]'] = None
    started: float = 0.0

    @property
    def report(self) -> Path:
        """Return the run's JUnit report: the names of what failed there."""
        return self.folder / 'report.xml'

    def start(self) -> None:
        """Start the run, unless it runs already."""
        if self.process is not None:
            return
        self.folder = Path(tempfile.mkdtemp(prefix='nested_'))
        self.started = time.monotonic()
        with open(self.folder / 'out', 'wb') as out, open(self.folder / 'err', 'wb') as err:
            self.process = subprocess.Popen(
                self.command + ['--junitxml', str(self.report)], cwd=self.cwd,
                env=dict(self.env, **{DOMAIN_BAND: '1'}), stdout=out, stderr=err)

    def finish(self) -> 'subprocess.CompletedProcess[str]':
        """Wait for the run (started now if it was not), within its timeout; return it."""
        self.start()
        assert self.process is not None
        left = self.timeout_s - (time.monotonic() - self.started)
        try:
            code = self.process.wait(timeout=max(left, 1.0))
        except subprocess.TimeoutExpired:
            self.stop()
            raise
        return subprocess.CompletedProcess(
            self.command, code, (self.folder / 'out').read_text(errors='replace'),
            (self.folder / 'err').read_text(errors='replace'))

    def stop(self) -> None:
        """Stop the run if it still runs, and remove its folder."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


RUNS: Dict[str, Nested] = {}  # the test that judges a run (its node id's end) -> the run


def start_selected(node_ids: Iterable[str]) -> None:
    """Start the nested runs whose test was selected."""
    for node_id in node_ids:
        for test, run in RUNS.items():
            if node_id.endswith(test):
                run.start()


def stop_all() -> None:
    """Stop every nested run still running (the session ends, or was interrupted)."""
    for run in RUNS.values():
        run.stop()
