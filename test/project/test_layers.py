# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The rooms of the package and what each may import, held by test (docs/architecture.md).

Every import of a frame_audit module, relative or absolute, at any depth of a function, is
read with ast and checked against ALLOWED; an upward import fails with its file and line.
"""
import ast
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / 'frame_audit'

# room -> the rooms it may import (besides itself). The engine is pure; the adapters
# (recordings, ros, sim) sit on it; app holds the use cases; cli only parses and prints.
ALLOWED: Dict[str, Set[str]] = {
    'errors': set(),
    'installed': {'errors'},
    'engine': {'errors'},
    'message_types': {'engine'},
    'plain_cdr': {'engine', 'message_types'},
    'reports': {'engine', 'errors'},
    'recordings': {'engine', 'errors', 'message_types', 'plain_cdr'},
    'lint': {'engine', 'reports', 'errors'},
    'sim': {'engine', 'errors', 'message_types'},
    'ros': {'engine', 'reports', 'sim', 'errors', 'message_types', 'plain_cdr', 'installed'},
    'app': {'engine', 'reports', 'recordings', 'lint', 'sim', 'ros', 'errors',
            'message_types', 'plain_cdr', 'installed'},
    'cli': {'app', 'engine', 'reports', 'errors'},
    '__main__': {'cli'},
    '__init__': set(),
}


def room_of(module: str) -> Optional[str]:
    """Return the room of a dotted frame_audit module name, None outside the package."""
    parts = module.split('.')
    if parts[0] != 'frame_audit':
        return None
    return parts[1] if len(parts) > 1 else '__init__'


def module_of(path: Path, root: Path = ROOT) -> str:
    """Return a file's dotted module name, root being the folder that holds frame_audit/."""
    parts = list(path.relative_to(root).with_suffix('').parts)
    return '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)


def imported(path: Path, root: Path = ROOT) -> Iterator[Tuple[str, int]]:
    """Yield each frame_audit module a file imports, with its line."""
    tree = ast.parse(path.read_text(encoding='utf-8'))
    package = module_of(path, root).split('.')
    if path.name != '__init__.py':
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                base = '.'.join(package[:len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:  # `from . import x` may name a module
                yield (base if node.module else '{}.{}'.format(base, alias.name)), node.lineno


def violations(root: Path = ROOT) -> List[str]:
    """Return every import that leaves its room's allowed set, as file:line messages."""
    found = []
    for path in sorted((root / 'frame_audit').rglob('*.py')):
        room = room_of(module_of(path, root))
        for module, line in imported(path, root):
            target = room_of(module)
            if target is None or target == room:
                continue
            if target not in ALLOWED.get(room, set()):
                found.append('{}:{}: {} imports {} ({} may import only {})'.format(
                    path.relative_to(root), line, room, module, room,
                    ', '.join(sorted(ALLOWED.get(room, set()))) or 'nothing of the package'))
    return found


def test_every_room_of_the_package_is_in_the_table():
    rooms = {room_of(module_of(path)) for path in PACKAGE.rglob('*.py')}
    assert rooms <= set(ALLOWED), 'rooms missing from ALLOWED: {}'.format(
        sorted(rooms - set(ALLOWED)))


def test_no_room_imports_one_above_it():
    assert violations() == []


def test_the_table_has_no_cycle():
    done: Set[str] = set()

    def visit(room: str, path: Tuple[str, ...]) -> None:
        assert room not in path, 'cycle: {}'.format(' → '.join(path + (room,)))
        if room not in done:
            for below in ALLOWED[room]:
                visit(below, path + (room,))
            done.add(room)
    for room in ALLOWED:
        visit(room, ())


def test_nothing_outside_the_engine_reads_the_audits_store():
    """Callers use Audit's methods and its read-only tree view, never audit.store."""
    found = []
    for path in sorted(PACKAGE.rglob('*.py')):
        if room_of(module_of(path)) == 'engine':
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if isinstance(node, ast.Attribute) and node.attr == 'store':
                found.append('{}:{}'.format(path.relative_to(ROOT), node.lineno))
    assert found == []


def test_the_layer_test_sees_an_upward_import(tmp_path):
    """The checker itself can fail: an engine module importing the node's room is caught."""
    engine = tmp_path / 'frame_audit' / 'engine' / 'checks'
    engine.mkdir(parents=True)
    (engine / 'tree.py').write_text('import math\nfrom ...ros import node\n'
                                    'from .. import store\n', encoding='utf-8')
    assert violations(tmp_path) == [
        'frame_audit/engine/checks/tree.py:2: engine imports frame_audit.ros (engine may '
        'import only errors)']
