# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The workspace as its install space would hold it, so share paths lead back to source files.

A launch file finds its parameter files, included launch files and robot descriptions under
get_package_share_directory(pkg), where the package's setup.py `data_files` or CMake
`install()` put them, not where they lie in the source tree. The lint builds that share folder
as symbolic links to the source files: a package's files where they lie (most packages install
their folders as they are), then where its install rules put them. A path found there leads,
through its link, to the file a finding must name; xacro opens the same links.
"""
import ast
from dataclasses import dataclass
import glob
import os
from pathlib import Path
import re
import stat
from typing import Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Set, Tuple

from .launch_evaluator import Evaluator
from .launch_values import parse_python
from ..model import Unresolved

SHARE = 'share'
MAX_BUILD_BYTES = 1 << 20  # a setup.py or CMakeLists.txt is a few KB
TEXT_SUFFIXES = ('.py', '.xml', '.launch', '.yaml', '.yml', '.urdf', '.xacro', '.lua', '.gazebo',
                 '.trans', '.transmission', '.sdf')
CMAKE_INSTALL = re.compile(r'\binstall\s*\(([^()]*)\)', re.IGNORECASE)
CMAKE_KEYWORDS = ('FILES', 'PROGRAMS', 'DIRECTORY', 'DESTINATION', 'PATTERN', 'FILES_MATCHING',
                  'USE_SOURCE_PERMISSIONS', 'EXCLUDE', 'PERMISSIONS', 'COMPONENT', 'OPTIONAL',
                  'RENAME', 'TARGETS', 'REGEX')
CMAKE_CALL = re.compile(r'\b(\w+)\s*\(([^()]*)\)')
CMAKE_VARIABLE = re.compile(r'\$\{(\w+)\}')
CMAKE_EXECUTABLES = ('set', 'project', 'add_executable', 'install',
                     'rclcpp_components_register_node')
CMAKE_UNKNOWN = ('ament_auto_add_executable', 'ament_auto_package', 'foreach', 'function',
                 'macro', 'include', 'add_subdirectory', 'catkin_package')
Rule = Tuple[str, List[str]]  # a destination under share/<package>, and source paths
INSTALL = 'install'  # the key of a problem an install rule makes: a share path to nothing


def _under_share(destination: str, package: str) -> Optional[str]:
    """Return the destination below share/<package>, or None for other destinations."""
    parts = Path(os.path.normpath(destination)).parts
    if len(parts) >= 2 and parts[0] == SHARE and parts[1] == package:
        return '/'.join(parts[2:])
    return None


def build_file(path: Path) -> Optional[str]:
    """
    Return a setup.py or CMakeLists.txt's text; None if it is not a regular file of sane size.

    A link to /dev/zero or a named pipe under that name would be read forever or never.
    """
    try:
        status = os.stat(path)
        if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_BUILD_BYTES:
            return None
        return path.read_text(encoding='utf-8')
    except (OSError, UnicodeDecodeError):
        return None


def unreadable_build_files(folder: Path) -> List[str]:
    """Return the package's setup.py and CMakeLists.txt that are there but cannot be read."""
    return [name for name in ('setup.py', 'CMakeLists.txt')
            if os.path.lexists(folder / name) and build_file(folder / name) is None]


def _setup_rules(folder: Path, package: str) -> Tuple[List[Rule], bool]:
    """Return setup.py's data_files under share/<package>, and whether every one was read."""
    text = build_file(folder / 'setup.py')
    try:
        tree = parse_python(text) if text is not None else None
    except (SyntaxError, ValueError):
        tree = None
    if tree is None:
        return [], False
    try:
        return _data_files(tree, folder, package)
    except (RecursionError, ValueError):  # nested past the evaluator: the source tree stands in
        return [], False


def _data_files(tree: ast.Module, folder: Path, package: str) -> Tuple[List[Rule], bool]:
    """Return the data_files rules of a parsed setup.py, and whether every one was read."""

    def in_package(call: ast.Call) -> object:
        pattern = evaluator.value(call.args[0]) if call.args else None
        if not isinstance(pattern, str):
            return Unresolved(ast.unparse(call))
        return sorted(glob.glob(pattern, root_dir=folder, recursive=True))

    evaluator = Evaluator(tree, {}, calls={'glob': in_package})
    rules: List[Rule] = []
    complete = False
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and getattr(call.func, 'id', '') == 'setup'):
            continue
        for keyword in call.keywords:
            if keyword.arg != 'data_files':
                continue
            complete = True
            for item in evaluator.items(keyword.value):
                value = evaluator.value(item)
                if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
                        and isinstance(value[1], list)
                        and all(isinstance(s, str) for s in value[1])):
                    complete = False  # computed at build time: the source tree stands in
                    continue
                under = _under_share(value[0], package)
                if under is not None:
                    rules.append((under, list(value[1])))
    return rules, complete


def _cmake_rules(folder: Path, package: str) -> Tuple[List[Rule], bool]:
    """Return CMakeLists.txt's install(... DESTINATION share/...) rules, and if all were read."""
    text = build_file(folder / 'CMakeLists.txt')
    if text is None:
        return [], False
    text = re.sub(r'#[^\n]*', '', text).replace('${PROJECT_NAME}', package)
    rules: List[Rule] = []
    complete = True
    for match in CMAKE_INSTALL.finditer(text):
        words = [w.strip('"') for w in match.group(1).split()]
        if not words or words[0] not in ('DIRECTORY', 'FILES', 'PROGRAMS') \
                or 'DESTINATION' not in words:
            continue
        at = words.index('DESTINATION')
        sources = [w for w in words[1:at] if w not in CMAKE_KEYWORDS]
        destination = words[at + 1] if at + 1 < len(words) else ''
        if '${' in ' '.join(sources + [destination]):
            complete = False  # a variable: the source tree stands in
            continue
        under = _under_share(destination, package)
        if under is None:
            continue
        if words[0] == 'DIRECTORY':  # `dir` installs as dest/dir, `dir/` its contents
            for source in sources:
                name = '' if source.endswith('/') else Path(source).name
                rules.append(('/'.join(filter(None, (under, name))),
                              [source.rstrip('/') + '/**']))
        else:
            rules.append((under, sources))
    return rules, complete


def cmake_words(arguments: str, variables: Mapping[str, str]) -> List[str]:
    """Return a CMake call's arguments with the variables known set (the others left as ${})."""
    for _ in range(8):  # ${A} may hold ${B}
        arguments = CMAKE_VARIABLE.sub(lambda m: variables.get(m.group(1), m.group(0)), arguments)
    return [w.strip('"') for w in arguments.split()]


def _program_names(folder: Path, words: List[str]) -> Optional[List[str]]:
    """Return the file names an install(PROGRAMS|FILES|DIRECTORY) puts in lib/<package>."""
    end = words.index('DESTINATION')
    sources, rest = words[1:end], words[end:]
    if any('${' in s or '*' in s for s in sources):
        return None
    if words[0] != 'DIRECTORY':
        if 'RENAME' in rest[:-1]:
            return [rest[rest.index('RENAME') + 1]]
        return [Path(s).name for s in sources if s not in CMAKE_KEYWORDS]
    return [path.name for source in sources if source not in CMAKE_KEYWORDS
            for path in sorted((folder / source).rglob('*'))]


def _named(command: str, words: List[str], package: str) -> Optional[List[str]]:
    """Return what a call names (a target, an executable); None when a name is a variable."""
    if command in ('project', 'add_executable'):
        names = words[:1]
    elif command == 'rclcpp_components_register_node':
        names = words[words.index('EXECUTABLE') + 1:][:1] if 'EXECUTABLE' in words else []
    elif 'lib/' + package not in words or 'DESTINATION' not in words:
        names = []  # an install elsewhere (share/, include/, lib, bin)
    else:
        names = [w for w in words[1:words.index('DESTINATION')] if w not in CMAKE_KEYWORDS]
    return None if any('${' in n for n in names) else names


@dataclass(frozen=True)
class InstalledExecutables:
    """The executables a package installs where `ros2 run` looks, and the file that says so."""

    names: FrozenSet[str]
    said_by: str  # 'CMakeLists.txt', 'setup.py (console_scripts)'


def installed_executables(folder: Path, package: str) -> Optional[InstalledExecutables]:
    """Return the executables a package installs where `ros2 run` looks; None if unknown."""
    if os.path.lexists(folder / 'setup.py'):
        scripts = console_scripts(folder)
        return None if scripts is None \
            else InstalledExecutables(frozenset(scripts), 'setup.py (console_scripts)')
    names = _cmake_executables(folder, package)
    return None if names is None else InstalledExecutables(names, 'CMakeLists.txt')


def console_scripts(folder: Path) -> Optional[Dict[str, str]]:
    """
    Return each console script an ament_python setup.py installs, and its `module:function`.

    None if it may install more: a CMakeLists.txt beside it, entry points in setup.cfg,
    `scripts=`, a `**` argument, or data_files that may put programs in lib/. Then the lint
    cannot know, and says nothing.
    """
    text = build_file(folder / 'setup.py')
    if text is None or os.path.lexists(folder / 'CMakeLists.txt') \
            or 'entry_points' in (build_file(folder / 'setup.cfg') or ''):
        return None
    try:
        tree = parse_python(text)
        (call,) = [c for c in ast.walk(tree) if isinstance(c, ast.Call)
                   and getattr(c.func, 'id', '') == 'setup']
        keywords = {keyword.arg: keyword.value for keyword in call.keywords}
        if None in keywords or 'scripts' in keywords or 'lib' in ast.unparse(
                keywords.get('data_files', ast.List([]))):
            return None
        points = Evaluator(tree, {}).value(keywords['entry_points']) \
            if 'entry_points' in keywords else {}
    except (SyntaxError, ValueError, RecursionError):  # also no setup() call, or two
        return None
    scripts = points.get('console_scripts', []) if isinstance(points, dict) else None
    if not isinstance(scripts, list) or not all(isinstance(s, str) and '=' in s
                                                for s in scripts):
        return None
    return {script.split('=', 1)[0].strip(): script.split('=', 1)[1].strip()
            for script in scripts}


def _cmake_executables(folder: Path, package: str) -> Optional[FrozenSet[str]]:
    """
    Return the executables an ament_cmake package installs where `ros2 run` looks; None if unknown.

    add_executable targets installed to lib/<package>, programs and files installed there, and
    a component's EXECUTABLE. A macro, a loop, an included file or a target named by a variable
    the file does not set may install others: then the lint cannot know, and says nothing.
    """
    text = build_file(folder / 'CMakeLists.txt')
    if text is None:
        return None
    variables = {'PROJECT_NAME': package, 'CMAKE_PROJECT_NAME': package}
    targets, installed, built = set(), set(), set()
    for match in CMAKE_CALL.finditer(re.sub(r'#[^\n]*', '', text)):
        command = match.group(1).lower()
        if command in CMAKE_UNKNOWN:
            return None
        words = cmake_words(match.group(2), variables) if command in CMAKE_EXECUTABLES else []
        if not words:
            continue
        if command == 'set':  # one built on an unknown (CMAKE_CXX_FLAGS) stays unknown
            variables.pop(words[0], None)
            if '${' not in ' '.join(words):
                variables[words[0]] = ' '.join(words[1:])
            continue
        named = _named(command, words, package)
        if named is None:
            return None
        if command == 'project':
            variables.update(PROJECT_NAME=words[0], CMAKE_PROJECT_NAME=words[0])
        elif command == 'add_executable':
            targets.update(named)
        elif command == 'install' and words[0] == 'TARGETS':
            installed.update(named)
        elif command == 'install' and named and words[0] in ('PROGRAMS', 'FILES', 'DIRECTORY'):
            programs = _program_names(folder, words)
            if programs is None:
                return None
            built.update(programs)
        elif command == 'rclcpp_components_register_node':
            built.update(named)
    return frozenset(built | (installed & targets))


def _expand(folder: Path, destination: str, sources: List[str]) -> Iterator[Tuple[str, Path]]:
    """
    Yield (path under the package's share, source file) for one install rule.

    os.path's tests, not pathlib's: a name past 255 bytes is no file, never an OSError.
    """
    for source in sources:
        if source.endswith('/**'):
            top = folder / source[:-3]
            for path in sorted(top.rglob('*')) if os.path.isdir(top) else []:
                if path.is_file():
                    yield '/'.join(filter(None, (destination, path.relative_to(top)
                                                 .as_posix()))), path
        elif os.path.isfile(folder / source):
            yield '/'.join(filter(None, (destination, Path(source).name))), folder / source


def _link(target: Path, source: Path) -> None:
    """Link one installed file; a destination no file system holds (past 255 bytes) is none."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():
            target.unlink()
        if not target.exists():
            target.symlink_to(source)
    except OSError:  # the install fails there too: what names the file finds it missing
        return


def build_share(into: Path, packages: Mapping[str, Path], files: List[Path]) -> Dict[str, str]:
    """
    Link each package's installed files into into/<package>; return package → its share.

    A package whose setup.py or CMakeLists.txt install rules were all read gets what they
    install, and nothing else (a launch file that names a file it does not install fails to
    run, and the lint says so); any other package is linked as its source tree lies.
    """
    by_folder = {folder: name for name, folder in packages.items()}
    owned: Dict[str, List[Path]] = {}
    for path in files:  # each file belongs to the nearest package above it
        name = next((by_folder[p] for p in path.parents if p in by_folder), None)
        if name is not None and path.suffix in TEXT_SUFFIXES:
            owned.setdefault(name, []).append(path)
    installed: Dict[str, List[Rule]] = {}
    for name, folder in packages.items():
        setup, setup_read = _setup_rules(folder, name)
        cmake, cmake_read = _cmake_rules(folder, name)
        read = (setup_read or not (folder / 'setup.py').exists()) and \
            (cmake_read or not (folder / 'CMakeLists.txt').exists())
        installed[name] = setup + cmake
        if not (read and installed[name]):
            for path in owned.get(name, []):
                _link(into / name / path.relative_to(folder), path)
    for name, folder in packages.items():
        for destination, sources in installed[name]:
            for under, source in _expand(folder, destination, sources):
                if source.suffix in TEXT_SUFFIXES and folder in source.resolve().parents:
                    _link(into / name / under, source.resolve())
    return {name: str(into / name) for name in packages}


def uninstalled_launch(launch_files: Iterable[str], shares: Mapping[str, str],
                       folders: Mapping[str, str], root: Path) -> FrozenSet[str]:
    """
    Return the launch files of workspace packages that their packages' shares do not hold.

    `ros2 launch PKG FILE` finds a launch file in the share alone: one its install rules leave
    out (a deprecated folder, a ROS 1 file kept from a port) runs only by its path, so what
    it names in the install space is no claim about a launch anyone runs.
    """
    held: Set[Optional[str]] = set()
    for share in shares.values():
        for folder, _, names in os.walk(share):
            held.update(source_file(Path(folder) / name, root) for name in names)
    return frozenset(file for file in launch_files if file not in held and any(
        file.startswith(folder + '/') for folder in folders.values()))


def source_file(path: object, root: Path, base: Optional[Path] = None) -> Optional[str]:
    """
    Return the workspace file a path leads to (through the share links), or None.

    A relative path is taken from base (default: the workspace), never the current folder.
    """
    path = Path(str(path))
    real = os.path.realpath(path if path.is_absolute() else (base or root) / path)
    file = os.path.relpath(real, root).replace(os.sep, '/')
    return None if file.startswith('..') or not os.path.isfile(real) else file


def missing_from_package(path: object, shares: Mapping[str, str], folders: Mapping[str, str],
                         root: Path, held_only: bool = False) -> str:
    """
    Say why a path into a workspace package's share leads to no file ('' for other paths).

    The package is the user's: either its source holds the file and its install rules leave it
    out (a setup.py that installs config/*.yaml and not the .lua), or it has no such file. Either
    way the running launch gets a path to nothing; a path into a package outside the workspace
    is only unknown. held_only: say only the first (a file missing from a copy of a workspace,
    or made on the robot, such as a saved map, is not proof).
    """
    text = str(path)
    for name, share in shares.items():
        if text.startswith(share + os.sep) and name in folders:
            held = Path(folders[name]) / text[len(share) + 1:]
            if os.path.isfile(root / held) and held.suffix not in TEXT_SUFFIXES:
                return ''  # only text files are linked into the share: installed or not, unknown
            if os.path.isfile(root / held):  # a name past 255 bytes is no file, no OSError
                return ('its package holds {} but does not install it (setup.py data_files or '
                        'CMake install rules): the launch gets a path to nothing'.format(
                            held.as_posix()))
            return '' if held_only else \
                'its package {} has no such file: the launch gets a path to nothing'.format(name)
    return ''
