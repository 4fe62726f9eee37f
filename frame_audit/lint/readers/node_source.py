# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
What a workspace's own node sends on /tf, read from its source: transforms of literal frames.

A team's odometry node (`t.header.frame_id = 'odom'; t.child_frame_id = 'base_link';
br.sendTransform(t)`, or ROS 1's `br.sendTransform(xyz, q, now, 'base_link', 'odom')`) says
its edges in its code. The executable's files are found as `ros2 run`/rosrun find them: a
setup.py console script's module, a CMake add_executable's sources, a script of that name.
Only files whose every sendTransform sends frames written as string literals speak; a frame
from a parameter, a variable or an f-string, or /tf published by hand, leaves the node one
the lint cannot read. A package whose code never touches /tf sends nothing.
"""
import ast
from dataclasses import dataclass
import os
from pathlib import Path
import re
import stat
from typing import Dict, List, Optional, Tuple

from .install import build_file, CMAKE_CALL, cmake_words, console_scripts
from .launch_values import parse_python
from ..model import Where

TF_MARKS = re.compile(r'sendTransform|TFMessage|tfMessage|tf2_msgs')
BY_HAND = re.compile(r'TFMessage|tfMessage')  # /tf published without a broadcaster
CPP_SUFFIXES = ('.cpp', '.cc', '.cxx', '.c')
MAX_FILES = 20
MAX_SOURCE_BYTES = 1 << 20  # a node's source file is tens of KB
PLAIN_NAME = re.compile(r'[\w.+-]+')  # an executable's name, never a path or a pattern
Sent = Optional[List['SourceEdge']]  # None: the lint cannot tell what the node sends


@dataclass(frozen=True)
class SourceEdge:
    """One transform a node's code sends with both frames written out, and where."""

    parent: str
    child: str
    where: Where
    static: bool


def executable_files(folder: Path, package: str, executable: str) -> Optional[List[Path]]:
    """Return the source files of a package's executable, as it is built; None if unknown."""
    modules = console_scripts(folder)
    if modules is not None and executable in modules:
        module = modules[executable].split(':', 1)[0].strip().replace('.', '/')
        found = [path for path in (folder / (module + '.py'), folder / module / '__init__.py')
                 if readable(path)]
        return found[:1] or None
    if not PLAIN_NAME.fullmatch(executable):
        return None
    named = [Path(top) / executable for top, _, names in os.walk(folder)  # links not followed
             if executable in names and Path(top, executable).suffix in ('', '.py')]
    if len(named) == 1:  # a ROS 1 script, or a program CMake installs as it is
        return named if readable(named[0]) else None
    return _cmake_sources(folder, package, executable)


def readable(path: Path) -> bool:
    """Return whether a source file is a regular file of sane size (never /dev/zero)."""
    try:
        status = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(status.st_mode) and status.st_size <= MAX_SOURCE_BYTES


def _cmake_sources(folder: Path, package: str, executable: str) -> Optional[List[Path]]:
    """Return an add_executable's source files, where CMakeLists.txt names them plainly."""
    text = build_file(folder / 'CMakeLists.txt')
    if text is None:
        return None
    variables = {'PROJECT_NAME': package, 'CMAKE_PROJECT_NAME': package}
    for match in CMAKE_CALL.finditer(re.sub(r'#[^\n]*', '', text)):
        if match.group(1).lower() != 'add_executable':
            continue
        words = cmake_words(match.group(2), variables)
        if words[:1] != [executable]:
            continue
        files = [folder / word for word in words[1:] if word.endswith(CPP_SUFFIXES)]
        if not files or len(files) > MAX_FILES or any('${' in w for w in words) \
                or not all(readable(path) for path in files):
            return None
        return files
    return None


def sent_by_source(root: Path, folder: str, package: str, executable: str,
                   package_text: str) -> Sent:
    """
    Return the transforms a workspace node sends by its code: [] for none; None if unknown.

    package_text is all of the package's code: where the node's own files are found and none
    of the package's code touches /tf, the node sends nothing.
    """
    files = executable_files(root / folder, package, executable)
    if files is None:  # its code is not here, or not found as it is built
        return None
    if not TF_MARKS.search(package_text):
        return []
    try:
        texts = [(path, path.read_text(encoding='utf-8', errors='replace')) for path in files]
    except OSError:
        return None
    if not any(TF_MARKS.search(text) for _, text in texts):
        return None  # the package's library may send for it
    edges: List[SourceEdge] = []
    for path, text in texts:
        file = path.relative_to(root).as_posix()
        found = _cpp_edges(text, file) if path.suffix in CPP_SUFFIXES else \
            _python_edges(text, file)
        if found is None:
            return None
        edges += found
    return list({(e.parent, e.child): e for e in reversed(edges)}.values())[::-1]  # one node


def _static(text: str) -> bool:
    """Return whether the file's only broadcaster is a static one (/tf_static)."""
    return 'StaticTransformBroadcaster' in text and not re.search(
        r'(?<!Static)TransformBroadcaster', text)


def _python_edges(text: str, file: str) -> Sent:
    """Return the edges a Python file's sendTransform calls send, all literal; else None."""
    if BY_HAND.search(text):
        return None
    try:
        try:
            tree = parse_python(text)
        except TabError:  # a ROS 1 script of Python 2, where a tab runs to the next 8th column
            tree = parse_python(text.expandtabs(8))
    except (SyntaxError, ValueError, RecursionError):
        return None
    assigned: Dict[str, List[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                assigned.setdefault(ast.unparse(target), []).append(node.value)
    edges = []
    sent: List[Optional[Tuple[str, str]]]
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == 'sendTransform'):
            continue
        if len(call.args) == 5:  # ROS 1 tf: (translation, rotation, time, child, parent)
            parent, child = _literal(call.args[4]), _literal(call.args[3])
            sent = [(parent, child)] if parent is not None and child is not None else [None]
        elif len(call.args) == 1:
            items = call.args[0].elts if isinstance(call.args[0], (ast.List, ast.Tuple)) \
                else [call.args[0]]
            sent = [_python_frames(ast.unparse(item), assigned) for item in items]
        else:
            return None
        for pair in sent:
            if pair is None:
                return None
            edges.append(SourceEdge(pair[0], pair[1], Where(file, call.lineno), _static(text)))
    return edges


def _literal(expr: ast.expr) -> Optional[str]:
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, str) else None


def _python_frames(name: str,
                   assigned: Dict[str, List[ast.expr]]) -> Optional[Tuple[str, str]]:
    """Return (parent, child) of a transform whose frames are each set to one literal."""
    frames = []
    for field in ('.header.frame_id', '.child_frame_id'):
        values = {_literal(value) for value in assigned.get(name + field, [])}
        literal = values.pop() if len(values) == 1 else None
        if literal is None:
            return None
        frames.append(literal)
    return frames[0], frames[1]


def _balanced(text: str, opened: int) -> Optional[str]:
    """Return what lies between the '(' at opened and its match, else None."""
    depth = 0
    for at in range(opened, len(text)):
        depth += {'(': 1, ')': -1}.get(text[at], 0)
        if depth == 0:
            return text[opened + 1:at]
    return None


def _top_level(arguments: str) -> List[str]:
    """Return a call's arguments split at the commas outside any parentheses."""
    parts, depth, last = [], 0, 0
    for at, char in enumerate(arguments):
        depth += {'(': 1, ')': -1}.get(char, 0)
        if char == ',' and depth == 0:
            parts.append(arguments[last:at].strip())
            last = at + 1
    return parts + [arguments[last:].strip()]


def _quoted(word: str) -> Optional[str]:
    return word[1:-1] if re.fullmatch(r'"[^"\\]*"', word) else None


def _cpp_edges(text: str, file: str) -> Sent:
    """Return the edges a C++ file's sendTransform calls send, all literal; else None."""
    if BY_HAND.search(text):
        return None
    text = re.sub(r'//[^\n]*|/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text,
                  flags=re.DOTALL)
    edges = []
    for send in re.finditer(r'sendTransform\s*\(', text):
        line = text.count('\n', 0, send.start()) + 1
        argument = _balanced(text, send.end() - 1)
        if argument is None:
            return None
        argument = argument.strip()
        stamped = re.search(r'StampedTransform\s*\(', argument)
        if stamped:  # ROS 1 tf: (transform, time, parent, child)
            inner = _balanced(argument, stamped.end() - 1)
            words = _top_level(inner) if inner is not None else []
            parent, child = (_quoted(words[2]), _quoted(words[3])) if len(words) == 4 \
                else (None, None)
            if parent is None or child is None:
                return None
            edges.append(SourceEdge(parent, child, Where(file, line), _static(text)))
            continue
        name = re.sub(r'^(std::move\s*\(|\*|&)|\)$', '', argument).strip()
        if not re.fullmatch(r'[\w.\->\[\]]+', name):
            return None
        frames = []
        for field in (r'(?:\.|->)header(?:\.|->)frame_id', r'(?:\.|->)child_frame_id'):
            values = set(re.findall(r'(?<![\w.>]){}{}\s*=\s*([^;]*);'.format(
                re.escape(name), field), text))
            literal = _quoted(values.pop().strip()) if len(values) == 1 else None
            if literal is None:
                return None
            frames.append(literal)
        edges.append(SourceEdge(frames[0], frames[1], Where(file, line), _static(text)))
    return edges
