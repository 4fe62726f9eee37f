# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A season of recordings: find them, audit each in a process of its own, one row per recording.

Each recording is audited as `frame-audit audit REC` audits it; a worker holds one recording
at a time, so memory stays that of one audit per job. A recording that cannot be read is a
row with its reason, never the end of the run.
"""
import os
from concurrent.futures import as_completed, ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence

from . import BagError
from ..engine.config import AuditConfig
from ..reports.report import Report

SUFFIXES = ('.mcap', '.db3', '.bag')


@dataclass(frozen=True)
class Row:
    """One recording's outcome: its report, or why it could not be read."""

    source: str
    report: Optional[Report] = None
    error: Optional[str] = None

    def failed(self) -> Dict[str, Optional[float]]:
        """Return each check that reached WARN or ERROR, with the first time it did."""
        firsts: Dict[str, Optional[float]] = {}
        for finding in self.report.findings if self.report else []:
            if finding.level in ('WARN', 'ERROR'):
                seen = firsts.get(finding.check, finding.first_seen_s)
                firsts[finding.check] = min(
                    (t for t in (seen, finding.first_seen_s) if t is not None), default=None)
        return firsts

    @property
    def worst(self) -> str:
        """Return the row's level: the report's worst, or UNREADABLE."""
        return 'UNREADABLE' if self.report is None else self.report.worst().name


def _is_bag_folder(path: Path) -> bool:
    return (path / 'metadata.yaml').is_file()


def _under(folder: Path) -> Iterator[Path]:
    """Yield the recordings under a folder: bag folders whole, recording files, sorted."""
    for current, folders, files in os.walk(folder):
        here = Path(current)
        if _is_bag_folder(here):
            folders[:] = []
            yield here
            continue
        folders.sort()
        yield from (here / name for name in sorted(files) if Path(name).suffix in SUFFIXES)


def find_recordings(paths: Sequence[str], recursive: bool) -> List[Path]:
    """
    Return the recordings the paths name, in the order given; BagError for a path that is none.

    A rosbag2 folder (metadata.yaml) is one recording; another folder is searched with
    --recursive only, so a typo never audits a whole disk.
    """
    found: List[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir() and not _is_bag_folder(path):
            if not recursive:
                raise BagError('{}: a folder, not a recording: add --recursive to audit the '
                               'recordings under it'.format(path))
            found.extend(sorted(_under(path)))
        else:
            found.append(path)
    return list(dict.fromkeys(found))


def audit_one(path: Path, config: AuditConfig) -> Row:
    """Audit one recording; its row holds the report, or the reason it could not be read."""
    from .offline import audit_recording

    try:
        return Row(str(path), report=audit_recording(path, config).report())
    except BagError as error:
        return Row(str(path), error=str(error))
    except MemoryError:
        return Row(str(path), error='{}: ran out of memory'.format(path))
    except Exception as error:  # a bug met on one recording must not lose the season's rows
        return _failed(path, error)


def _failed(path: Path, error: BaseException) -> Row:
    return Row(str(path), error='{}: the audit stopped ({}: {})'.format(
        path, type(error).__name__, str(error).splitlines()[0] if str(error) else ''))


def audit_many(paths: Sequence[Path], config: AuditConfig, jobs: int,
               done: Optional[Callable[[Row], None]] = None) -> List[Row]:
    """Audit recordings, jobs at a time in processes of their own; rows in the paths' order."""
    rows: Dict[Path, Row] = {}
    if jobs <= 1 or len(paths) <= 1:
        for path in paths:
            rows[path] = audit_one(path, config)
            if done:
                done(rows[path])
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context('spawn')) as pool:
            futures = {pool.submit(audit_one, path, config): path for path in paths}
            for future in as_completed(futures):
                try:
                    rows[futures[future]] = future.result()
                except Exception as error:  # a worker that died (BrokenProcessPool)
                    rows[futures[future]] = _failed(futures[future], error)
                if done:
                    done(rows[futures[future]])
    return [rows[path] for path in paths]
