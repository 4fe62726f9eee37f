# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Reading a workspace: which files are launch, parameter and URDF files, and what each declares.

Files are read, never run. A file that cannot be parsed, and a value that only a running launch
knows, become WARN findings of the lint's own check (lint_files) that name them; the rest of
the workspace is still checked.
"""
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Tuple
from xml.parsers import expat

import yaml

from .launch_markup import read_xml_launch, read_yaml_launch
from .launch_python import read_python_launch
from .markup import LinedDict, load_xml, load_yaml
from .model import DeclaredEdge, LaunchedNode, ParamBlock, Unresolved, Where
from .params import param_blocks
from .static_tf import is_static_publisher, static_edge
from .urdf import urdf_edges
from ..engine.findings import Finding, Level

FILES = 'lint_files'
SKIP_FOLDERS = ('build', 'install', 'log', '__pycache__')
MAX_FILE_BYTES = 2 << 20  # files past this are skipped with a WARN, never parsed
PARSE_ERRORS = (SyntaxError, ValueError, yaml.YAMLError, expat.ExpatError, UnicodeDecodeError,
                OSError, RecursionError)


@dataclass
class Collected:
    """Everything the lint read: declared edges, launched nodes, parameter blocks, problems."""

    root: Path
    counts: Dict[str, int] = field(default_factory=dict)
    edges: List[DeclaredEdge] = field(default_factory=list)
    launched: List[LaunchedNode] = field(default_factory=list)
    blocks: Dict[str, List[ParamBlock]] = field(default_factory=dict)
    problems: List[Finding] = field(default_factory=list)

    def warn(self, where: Where, message: str, key: str) -> None:
        """Record a problem with the input itself: the lint could not check something."""
        self.problems.append(Finding(FILES, Level.WARN, '{}: {}'.format(where, message),
                                     '{}:{}'.format(key, where), values=where.values()))

    def count(self, kind: str) -> None:
        """Count a file read as this kind (launch, parameters, URDF)."""
        self.counts[kind] = self.counts.get(kind, 0) + 1


def _files(root: Path, unreadable: List[str]) -> Iterator[Path]:
    """Yield the regular files under root; folders that cannot be listed go to unreadable."""
    for folder, subfolders, names in os.walk(root, onerror=lambda e: unreadable.append(
            '{} ({})'.format(e.filename, e.strerror))):
        subfolders[:] = sorted(d for d in subfolders
                               if not d.startswith('.') and d not in SKIP_FOLDERS)
        for name in sorted(names):
            path = Path(folder) / name
            if path.is_file():  # never a pipe or a device: reading one would wait forever
                yield path


def _packages(files: List[Path]) -> Dict[str, str]:
    """Return package name → its folder, from each package.xml (a package's share, unbuilt)."""
    packages = {}
    for path in files:
        if path.name != 'package.xml':
            continue
        name = path.parent.name
        try:
            element = load_xml(path.read_text(encoding='utf-8')).find('name')
        except PARSE_ERRORS:
            element = None
        if element is not None and element.text.strip():
            name = element.text.strip()
        packages[name] = str(path.parent)
    return packages


def _error_line(error: Exception) -> int:
    """Return the line a parse error points at (Python, expat and YAML say it differently)."""
    mark = getattr(error, 'problem_mark', None)
    return mark.line + 1 if mark is not None else getattr(error, 'lineno', None) or 1


def _is_launch(path: Path) -> bool:
    return path.parent.name == 'launch' or '.launch' in path.name or path.stem.endswith('launch')


def _read_python(collected: Collected, path: Path, file: str, packages: Dict[str, str]) -> None:
    if _is_launch(path):
        collected.launched += read_python_launch(path.read_text(encoding='utf-8'), file, packages)
        collected.count('launch')


def _read_xml(collected: Collected, path: Path, file: str, packages: Dict[str, str]) -> None:
    text = path.read_text(encoding='utf-8')
    if path.suffix == '.urdf':
        edges = urdf_edges(load_xml(text), file)
        if isinstance(edges, str):
            raise ValueError(edges)
        collected.edges += edges
        collected.count('URDF')
    elif _is_launch(path):
        nodes = read_xml_launch(text, file, packages)
        collected.launched += nodes
        collected.count('launch')


def _read_yaml(collected: Collected, path: Path, file: str, packages: Dict[str, str]) -> None:
    document = load_yaml(path.read_text(encoding='utf-8'))
    if isinstance(document, LinedDict) and isinstance(document.get('launch'), list):
        collected.launched += read_yaml_launch(document, file, packages)
        collected.count('launch')
        return
    blocks = param_blocks(document, file)
    if blocks:
        collected.blocks[file] = blocks
        collected.count('parameters')


READERS: Dict[str, Callable[[Collected, Path, str, Dict[str, str]], None]] = {
    '.py': _read_python, '.xml': _read_xml, '.launch': _read_xml, '.urdf': _read_xml,
    '.yaml': _read_yaml, '.yml': _read_yaml,
}


def _workspace_path(collected: Collected, value: object, where: Where) -> object:
    """Return a parameter file as a workspace path; warn about those the lint cannot read."""
    if isinstance(value, Unresolved):
        collected.warn(where, 'a parameter file is {}, known only when the launch runs: its '
                       'parameters are not checked'.format(value), 'unresolved')
        return None
    path = Path(str(value))
    path = path if path.is_absolute() else collected.root / path
    file = os.path.relpath(path, collected.root).replace(os.sep, '/')
    if not path.is_file() or file.startswith('..'):
        collected.warn(where, 'the parameter file {} is not in the workspace: its parameters '
                       'are not checked'.format(value), 'missing')
        return None
    return file


def _static_edges(collected: Collected) -> None:
    for node in collected.launched:
        if not is_static_publisher(node.package, node.executable):
            continue
        edge = static_edge(node.arguments, node.where)
        if isinstance(edge, str):
            collected.warn(node.where, 'static_transform_publisher: {}; this transform is not '
                           'checked'.format(edge), 'static')
        else:
            collected.edges.append(edge)


def collect(root: Path) -> Collected:
    """Read every launch, parameter and URDF file under root (build, install, log skipped)."""
    root = root.resolve()
    collected = Collected(root)
    unlisted: List[str] = []
    files = list(_files(root, unlisted))
    for folder in unlisted:
        collected.warn(Where(os.path.relpath(folder.split(' (')[0], root), 0),
                       'a folder that cannot be listed {}: its files were not read'.format(
                           folder[folder.find(' ('):] if ' (' in folder else ''), 'unlisted')
    packages = _packages(files)
    for path in files:
        reader = READERS.get(path.suffix)
        if reader is None or path.name == 'package.xml':
            continue
        file = path.relative_to(root).as_posix()
        if path.stat().st_size > MAX_FILE_BYTES:
            collected.warn(Where(file, 0), 'larger than {} MB: skipped (a launch, parameter or '
                           'URDF file is far smaller)'.format(MAX_FILE_BYTES >> 20), 'too_big')
            continue
        try:
            reader(collected, path, file, packages)
        except PARSE_ERRORS as error:
            collected.warn(Where(file, _error_line(error)),
                           'cannot be read ({}: {}); skipped'.format(
                               type(error).__name__, str(error).splitlines()[0] if str(error)
                               else 'no detail'), 'unreadable')
    for node in collected.launched:
        node.param_files = [(_workspace_path(collected, value, where), where)
                            for value, where in node.param_files]
    _static_edges(collected)
    return collected


def tally(collected: Collected) -> Tuple[int, str]:
    """Return how many files were read, and a phrase saying of which kinds."""
    total = sum(collected.counts.values())
    kinds = ', '.join('{} {}'.format(n, kind) for kind, n in sorted(collected.counts.items()))
    return total, kinds or 'no launch, parameter or URDF files'
