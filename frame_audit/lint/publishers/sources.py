# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Whether a package the workspace holds is the node the table knows, or only shares its name.

A team's own `particle_filter` (a fork in C++, another algorithm) sends what its own code
says. When the workspace holds a package's source, the table speaks for its node only if that
source writes what the known node's does (its parameters and frame names, quoted): the files
its executable is built from and those beside them, where they are found, else the package's
code; else what it sends is unknown.
"""
import os
from pathlib import Path
import re
from typing import Dict, Mapping

from .table import Publisher
from ..model import LaunchedNode
from ..readers.node_source import executable_files, readable

SOURCE_SUFFIXES = ('.py', '.cpp', '.cc', '.cxx', '.hpp', '.h', '.c')
NOT_CODE = ('launch', 'config', 'params', 'test', 'tests')  # they name parameters, not code
MAX_SOURCE_FILES = 400


class PackageSources:
    """The source text of the workspace's packages, read once each, as far as the bounds go."""

    def __init__(self, root: Path, folders: Mapping[str, str]):
        """Hold the workspace and each package's source folder (relative to it)."""
        self.root, self.folders = root, folders
        self.texts: Dict[str, str] = {}

    def behaves_as(self, node: LaunchedNode, publisher: Publisher) -> bool:
        """Return whether the table may speak for the node: its code is not here, or is it."""
        package = node.package
        if publisher.description or not isinstance(package, str) or package not in self.folders:
            return True
        text = self._own_text(node) or self.text(package)
        found = [bool(re.search(r'["\']{}["\']'.format(re.escape(mark)), text))
                 for mark in publisher.signature()]
        # its own marks all; else one of the parameters it reads (a table entry covers drivers
        # that each read one of laser_frame_id, frame_id...)
        return not text or not found or (all(found) if publisher.marks else any(found))

    def _own_text(self, node: LaunchedNode) -> str:
        """
        Return the code of the node's own files, with the files beside them; '' if not found.

        A fork keeps the original it came from in a deprecated/ folder: the node that runs is
        the one its executable is built from.
        """
        if not isinstance(node.executable, str):
            return ''
        files = executable_files(self.root / self.folders[node.package], node.package,
                                 node.executable)
        folders = sorted({path.parent for path in files or []})
        return '\n'.join(path.read_text(encoding='utf-8', errors='replace')
                         for folder in folders for path in sorted(folder.iterdir())
                         if path.suffix in SOURCE_SUFFIXES and readable(path))

    def text(self, package: str) -> str:
        """Return a package's code, its files joined (launch and config folders left out)."""
        if package not in self.texts:
            parts = []
            for folder, subfolders, names in os.walk(self.root / self.folders[package]):
                subfolders[:] = sorted(d for d in subfolders
                                       if not d.startswith('.') and d not in NOT_CODE)
                for name in sorted(names):
                    path = Path(folder) / name
                    if path.suffix in SOURCE_SUFFIXES and readable(path):
                        try:
                            parts.append(path.read_text(encoding='utf-8', errors='replace'))
                        except OSError:
                            continue
                if len(parts) >= MAX_SOURCE_FILES:
                    break
            self.texts[package] = '\n'.join(parts)
        return self.texts[package]
