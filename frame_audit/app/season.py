# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A season of recordings: find them, audit each in a process of its own, one row per recording.

Each recording is audited as `frame-audit audit REC` audits it; a worker holds one recording
at a time, so memory stays that of one audit per job. A recording that cannot be read is a
row with its reason, never the end of the run.
"""
from concurrent.futures import as_completed, ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from .audit import audit_recording, progress_shown, ProgressFactory
from .config import command_config
from ..engine.config import AuditConfig
from ..errors import BagError, UsageError
from ..recordings.find import find_recordings
from ..reports.season import Row


def audit_one(path: Path, config: AuditConfig) -> Row:
    """Audit one recording; its row holds the report, or the reason it could not be read."""
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
               done: Optional[Callable[[Row], object]] = None) -> List[Row]:
    """Audit recordings, jobs at a time in processes of their own; rows in the paths' order."""
    rows: Dict[Path, Row] = {}
    jobs = min(jobs, len(paths))  # never a process with nothing to audit
    if jobs <= 1:
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


def audit_season(paths: Sequence[str], recursive: bool, config_path: Optional[str], jobs: int,
                 progress: Optional[ProgressFactory] = None) -> List[Row]:
    """
    Audit every recording the paths name (folders searched with recursive); a row each.

    UsageError when they name none; the bar, if any, counts recordings as they finish.
    """
    found = find_recordings(paths, recursive)
    if not found:
        raise UsageError('no recordings (.mcap, .db3, .bag or rosbag2 folders) under {}'.format(
            ', '.join(paths)))
    config = command_config(config_path)
    with progress_shown(progress, len(found), 'recording') as advance:
        return audit_many(found, config, jobs,
                          done=(lambda row: advance(1)) if advance else None)
