# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Reading a workspace: which files are launch, parameter and robot description files.

Files are read, never run. Launch files are parsed once here and started per bringup
(bringups/planner.py); parameter files are split into their node blocks; robot descriptions
wait for a launch to hand them to robot_state_publisher. A file that cannot be parsed becomes a
WARN of the lint's own check (lint_files) that names it; the rest of the workspace is still
checked.
"""
import ast
from dataclasses import dataclass, field
import fnmatch
import os
from pathlib import Path
import re
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple
from xml.parsers import expat

import yaml

from .install import build_share, installed_executables, InstalledExecutables, MAX_BUILD_BYTES, \
    uninstalled_launch, unreadable_build_files
from .launch_markup import read_launch, yaml_launch_root
from .launch_python import read_python_launch
from .launch_values import parse_python
from .markup import Element, LinedDict, load_xml, load_yaml
from .params import flat_params, param_blocks
from .scripts import Together, together
from ..model import LaunchRead, Param, ParamBlock, problem, Where
from ...engine.findings import Finding

SKIP_FOLDERS = ('build', 'install', 'log', '__pycache__')
COLCON_IGNORE = 'COLCON_IGNORE'  # colcon builds nothing below a folder holding it
MAX_FILE_BYTES = 2 << 20  # files past this are skipped with a WARN, never parsed
PACKAGE_NAME = re.compile(r'[A-Za-z0-9][A-Za-z0-9_-]{0,254}')  # REP 144, and a folder's name
JINJA = re.compile(r'\{\{[^{}]*\}\}|\{%[^{}]*%\}')
PARSE_ERRORS = (SyntaxError, ValueError, yaml.YAMLError, expat.ExpatError, UnicodeDecodeError,
                OSError, RecursionError)


@dataclass
class LaunchSource:
    """A launch file, parsed once: a Python tree, or the elements of an XML or YAML launch."""

    file: str
    path: str  # where it lies, for __file__, ThisLaunchFileDir() and $(dirname)
    python: Optional[ast.Module] = None
    elements: Optional[Element] = None

    def read(self, packages: Mapping[str, str], given: Mapping[str, Any],
             folders: Optional[Mapping[str, str]] = None) -> LaunchRead:
        """Return what the file starts with these launch arguments (folders: ROS 1's find)."""
        if self.python is not None:
            return read_python_launch(self.python, self.file, packages, given, self.path)
        assert self.elements is not None  # every source is made with a tree or elements
        return read_launch(self.elements, self.file, packages, given, self.path, folders)


@dataclass(frozen=True)
class Collected:
    """
    Everything the lint read: launch files, parameter blocks, descriptions, problems.

    The collect stage's result. collect fills its lists and maps while it reads the files;
    once collect returns, no stage changes it (later stages return problems of their own).
    """

    root: Path
    counts: Dict[str, int] = field(default_factory=dict)
    sources: Dict[str, LaunchSource] = field(default_factory=dict)
    blocks: Dict[str, List[ParamBlock]] = field(default_factory=dict)
    rosparams: Dict[str, Dict[str, Param]] = field(default_factory=dict)  # ROS 1's, by file
    descriptions: List[str] = field(default_factory=list)
    packages: Dict[str, str] = field(default_factory=dict)  # name → its share folder (links)
    folders: Dict[str, str] = field(default_factory=dict)  # name → its source folder
    problems: List[Finding] = field(default_factory=list)
    unreadable_launch: List[Where] = field(default_factory=list)
    unreadable: Set[str] = field(default_factory=set)  # files already reported as such
    templates: Set[str] = field(default_factory=set)  # Jinja YAML a launch renders first
    executables: Dict[str, InstalledExecutables] = field(default_factory=dict)  # where known
    share: str = ''  # the share folder's links live here, for the time of one lint
    links: Dict[str, Where] = field(default_factory=dict)  # every description's links
    scripts: Dict[str, List[Together]] = field(default_factory=dict)  # launches run at once
    uninstalled: Set[str] = field(default_factory=set)  # launch files no share holds
    ignored: List[str] = field(default_factory=list)  # folders holding COLCON_IGNORE, unread

    def shown(self, text: str) -> str:
        """Return text with share paths as <package>/path, as messages show them."""
        return re.sub(re.escape(self.share) + r'/([^/\s]+)', r'<\1>', text) if self.share \
            else text

    def warn(self, where: Where, message: str, key: str) -> None:
        """Record a problem with the input itself: the lint could not check something."""
        self.problems.append(problem(where, self.shown(message), key))

    def count(self, kind: str) -> None:
        """Count a file read as this kind (launch, parameters, URDF)."""
        self.counts[kind] = self.counts.get(kind, 0) + 1


def excluded(file: str, patterns: Sequence[str]) -> bool:
    """Return whether a workspace path matches one of lint.exclude's globs (or lies under one)."""
    parts = file.split('/')
    return any(fnmatch.fnmatch(file, pattern) or any(
        fnmatch.fnmatch('/'.join(parts[:i]), pattern.rstrip('/')) for i in range(1, len(parts)))
        for pattern in patterns)


def _files(root: Path, unreadable: List[str], exclude: Sequence[str],
           ignored: List[str]) -> Iterator[Path]:
    """
    Yield the regular files under root; folders that cannot be listed go to unreadable.

    A folder holding COLCON_IGNORE is one colcon never builds: nothing in it can be launched,
    so it goes to ignored, unread.
    """
    for folder, subfolders, names in os.walk(root, onerror=lambda e: unreadable.append(
            '{} ({})'.format(e.filename, e.strerror))):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith('.')
                               and d not in SKIP_FOLDERS and not excluded(
                                   (Path(folder) / d).relative_to(root).as_posix(), exclude))
        for name in [d for d in subfolders if os.path.lexists(Path(folder) / d / COLCON_IGNORE)]:
            subfolders.remove(name)
            ignored.append((Path(folder) / name).relative_to(root).as_posix())
        for name in sorted(names):
            path = Path(folder) / name
            if path.is_file() and not excluded(path.relative_to(root).as_posix(), exclude):
                yield path  # never a pipe or a device: reading one would wait forever


def _packages(files: List[Path], refused: List[Tuple[Path, int, str]]) -> Dict[str, Path]:
    """
    Return package name → its source folder, from each package.xml.

    The name becomes a folder of the share (share/<name>): one that no package can have (a
    slash, `..`, past 255 bytes) goes to refused, and the folder's own name stands in.
    """
    packages = {}
    for path in files:
        if path.name != 'package.xml' or path.stat().st_size > MAX_FILE_BYTES:
            continue
        name = path.parent.name
        try:
            element = load_xml(path.read_text(encoding='utf-8')).find('name')
        except PARSE_ERRORS:
            element = None
        if element is not None and PACKAGE_NAME.fullmatch(element.text.strip()):
            name = element.text.strip()
        elif element is not None and element.text.strip():
            refused.append((path, element.line, element.text.strip()))
        packages[name] = path.parent
    return packages


def _error_line(error: Exception) -> int:
    """Return the line a parse error points at (Python, expat and YAML say it differently)."""
    mark = getattr(error, 'problem_mark', None)
    return mark.line + 1 if mark is not None else getattr(error, 'lineno', None) or 1


def _is_launch(path: Path) -> bool:
    return path.parent.name == 'launch' or '.launch' in path.name or path.stem.endswith('launch')


def _read_python(collected: Collected, path: Path, file: str) -> None:
    if _is_launch(path) and path.name != '__init__.py':  # a package marker, never a bringup
        tree = parse_python(path.read_text(encoding='utf-8'), file)
        collected.sources[file] = LaunchSource(file, str(path), python=tree)
        collected.count('launch')


def _is_description(root_tag: str, path: Path) -> bool:
    return root_tag == 'robot' and path.suffix in ('.urdf', '.xacro', '.xml')


def _read_xml(collected: Collected, path: Path, file: str) -> None:
    root = load_xml(path.read_text(encoding='utf-8'))
    if _is_description(root.tag, path):
        collected.descriptions.append(file)
        collected.count('robot description')
        for link in root.iter('link'):  # as written: a macro's ${prefix}link is not a name
            collected.links.setdefault(link.attrib.get('name', ''), Where(file, link.line))
    elif root.tag == 'launch':
        collected.sources[file] = LaunchSource(file, str(path), elements=root)
        collected.count('launch')


def _read_yaml(collected: Collected, path: Path, file: str) -> None:
    document = load_yaml(path.read_text(encoding='utf-8'))
    if isinstance(document, LinedDict) and isinstance(document.get('launch'), list):
        collected.sources[file] = LaunchSource(file, str(path), elements=yaml_launch_root(
            document))
        collected.count('launch')
        return
    blocks = param_blocks(document, file)
    if blocks:
        collected.blocks[file] = blocks
        collected.count('parameters')
    elif isinstance(document, LinedDict) and document:
        collected.rosparams[file] = flat_params(document, file)  # only a rosparam load reads it


def _read_script(collected: Collected, path: Path, file: str) -> None:
    """Keep the launch files a shell script starts together (it is no file the lint checks)."""
    groups = together(path.read_text(encoding='utf-8'))
    if groups:
        collected.scripts[file] = groups


READERS: Dict[str, Callable[[Collected, Path, str], None]] = {
    '.py': _read_python, '.xml': _read_xml, '.launch': _read_xml, '.urdf': _read_xml,
    '.xacro': _read_xml, '.yaml': _read_yaml, '.yml': _read_yaml, '.sh': _read_script,
}


def _is_template(path: Path) -> bool:
    """
    Return whether a YAML file is a Jinja template ({{ namespace }}/amcl, {% for %}).

    A multi-robot launch file renders it in Python, one file per robot, before any node reads
    it: unparsable as it lies, and no parameter file until then.
    """
    return path.suffix in ('.yaml', '.yml') and bool(JINJA.search(
        path.read_text(encoding='utf-8', errors='replace')))


def _read(collected: Collected, path: Path) -> None:
    """Read one file into collected; a file too large or unparsable is a problem, not a stop."""
    file = path.relative_to(collected.root).as_posix()
    if path.stat().st_size > MAX_FILE_BYTES:
        collected.warn(Where(file, 0), 'larger than {} MB: skipped (a launch, parameter or '
                       'URDF file is far smaller)'.format(MAX_FILE_BYTES >> 20), 'too_big')
        return
    try:
        READERS[path.suffix](collected, path, file)
    except PARSE_ERRORS as error:
        collected.unreadable.add(file)
        if _is_template(path):
            collected.templates.add(file)  # rendered by a launch file's Python: said if passed
            return
        if _is_launch(path):
            collected.unreadable_launch.append(Where(file, _error_line(error)))
        collected.warn(Where(file, _error_line(error)),
                       'cannot be read ({}: {}); skipped'.format(
                           type(error).__name__, str(error).splitlines()[0] if str(error)
                           else 'no detail'), 'unreadable')


def collect(root: Path, share: Path, exclude: Sequence[str] = ()) -> Collected:
    """Read every launch, parameter and robot description file under root; link its share."""
    root = root.resolve()
    unlisted: List[str] = []
    ignored: List[str] = []
    files = list(_files(root, unlisted, exclude, ignored))
    refused: List[Tuple[Path, int, str]] = []
    folders = _packages(files, refused)
    collected = Collected(root, packages=build_share(share, folders, files), share=str(share),
                          folders={name: folder.relative_to(root).as_posix()
                                   for name, folder in folders.items()}, ignored=ignored)
    for path, line, name in refused:
        collected.warn(Where(path.relative_to(root).as_posix(), line),
                       'names its package {!r}, which no package can be named (letters, digits, '
                       '_ and -, at most 255): the folder name {} stands in'.format(
                           name if len(name) <= 60 else name[:57] + '...', path.parent.name),
                       'package_name')
    for folder in folders.values():
        for name in unreadable_build_files(folder):
            collected.warn(Where((folder / name).relative_to(root).as_posix(), 0),
                           'not a regular file of at most {} MB (a link to a device, a named '
                           'pipe?): its install rules are not read, the package is linked as '
                           'its source tree lies'.format(MAX_BUILD_BYTES >> 20), 'build_file')
    for listing in unlisted:
        collected.problems.append(problem(
            Where(os.path.relpath(listing.split(' (')[0], root), 0),
            'a folder that cannot be listed {}: its files were not read'.format(
                listing[listing.find(' ('):] if ' (' in listing else ''), 'unlisted'))
    for path in files:
        if path.suffix in READERS and path.name != 'package.xml':
            _read(collected, path)
    collected.uninstalled.update(uninstalled_launch(collected.sources, collected.packages,
                                                    collected.folders, root))
    for name, folder in folders.items():
        built = installed_executables(folder, name)
        if built is not None:
            collected.executables[name] = built
    return collected


def tally(collected: Collected) -> Tuple[int, str]:
    """Return how many files were read, and a phrase saying of which kinds."""
    total = sum(collected.counts.values())
    kinds = ', '.join('{} {}'.format(n, kind) for kind, n in sorted(collected.counts.items()))
    return total, kinds or 'no launch, parameter or robot description files'
