# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Finding recordings on disk: the paths a season's command line names, folders searched.

A rosbag2 folder (metadata.yaml) is one recording, never searched inside; other folders are
searched only when asked, so a typo never audits a whole disk.
"""
import os
from pathlib import Path
from typing import Iterator, List, Sequence

from . import BagError

SUFFIXES = ('.mcap', '.db3', '.bag')


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


def recordings_below(folder: Path, depth: int = 2) -> List[Path]:
    """Return the recordings at most depth folders below folder: a hint, never a search."""
    found = []
    for current, folders, files in os.walk(folder):
        here = Path(current)
        if here != folder and _is_bag_folder(here):
            folders[:] = []
            found.append(here)
            continue
        if len(here.relative_to(folder).parts) >= depth:
            folders[:] = []
        folders.sort()
        found += [here / name for name in sorted(files)
                  if Path(name).suffix in SUFFIXES and here != folder]
    return found


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
