# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Helper functions a Python launch file imports from its own package, read as the launch runs them.

A bringup that does `from my_pkg.launch_helpers import make_nodes` (or imports a sibling .py of
its launch folder) starts the nodes make_nodes builds. Where the module lies in the package and
the function is plain (named parameters, no *args), each call is the function's body with its
parameters replaced by the call's arguments: the Node(...) calls in it are evaluated beside the
launch file's own. A module the lint cannot find or parse stays unread: its calls are named as
what may start nodes, never guessed.
"""
import ast
import copy
from dataclasses import dataclass, field, replace
import os
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple, TypeVar

MAX_MODULE_BYTES = 1 << 20  # a helper module is a few KB
Tree = TypeVar('Tree', bound=ast.AST)


@dataclass(frozen=True)
class Helper:
    """A function of a workspace module a launch file imports, and where it lies."""

    function: Optional[ast.FunctionDef]  # None: the module or function cannot be read
    file: str  # workspace-relative, or the module's name when it is not found
    assigns: Tuple[ast.stmt, ...] = ()  # the module's own top-level assignments
    functions: Mapping[str, ast.FunctionDef] = field(default_factory=dict)  # the module's

    def inner(self, call: ast.Call) -> Optional['Helper']:
        """Return the helper a call inside this one runs: a function of the same module."""
        name = call.func.id if isinstance(call.func, ast.Name) else None
        return replace(self, function=self.functions[name]) \
            if name is not None and name in self.functions else None


def _root(file: str, path: str) -> Optional[Path]:
    """Return the workspace folder: the launch file's path less its workspace-relative file."""
    parts = len(Path(file).parts)
    found = Path(path).parents[parts - 1] if 0 < parts <= len(Path(path).parents) else None
    return found if found is not None and found / file == Path(path) else None


def _package_folder(path: Path, root: Path) -> Optional[Path]:
    """Return the nearest folder above path that holds a package.xml, within root."""
    return next((p for p in path.parents if (p / 'package.xml').is_file()
                 and (p == root or root in p.parents)), None)


def _module_file(module: str, path: Path, root: Path) -> Optional[Path]:
    """
    Return the file of a dotted module beside the launch file or in its package.

    Only a module named after the package is looked for in the package's folder: a
    `launch/__init__.py` there is no `launch` to import, launch's own package is.
    """
    folders = [path.parent] + [p for p in [_package_folder(path, root)]
                               if p is not None and _is_own(module, path, root)]
    below = Path(*module.split('.'))
    for folder in folders:
        for candidate in (folder / below.with_suffix('.py'), folder / below / '__init__.py'):
            if candidate.is_file() and root in candidate.resolve().parents \
                    and candidate.stat().st_size <= MAX_MODULE_BYTES:
                return candidate
    return None


def _is_own(module: str, path: Path, root: Path) -> bool:
    """Return whether a module is named after the launch file's own package."""
    folder = _package_folder(path, root)
    return folder is not None and module.split('.')[0] == folder.name


def _functions(module: Path) -> Tuple[Dict[str, ast.FunctionDef], Tuple[ast.stmt, ...]]:
    """Return a module's top-level functions by name, and its top-level assignments."""
    try:
        tree = ast.parse(module.read_text(encoding='utf-8'))
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, OSError):
        return {}, ()
    return ({n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)},
            tuple(n for n in tree.body if isinstance(n, ast.Assign)))


def imported_helpers(tree: ast.Module, file: str, path: str) -> Dict[str, Helper]:
    """
    Return each name a launch file calls that is a function imported from a workspace module.

    `from m import f [as g]` gives g; `import m [as n]` gives n.f for each function f of m.
    Only modules that lie beside the launch file or in its package are read; an import of one
    that looks like the package's own but cannot be read gives an unread Helper.
    """
    root = _root(file, path) if path else None
    if root is None:
        return {}
    found: Dict[str, Helper] = {}
    for statement in ast.walk(tree):  # at the top, or inside generate_launch_description
        if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
            found.update(_from_module(statement, Path(path), root))
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                found.update(_whole_module(alias.name, alias.asname or alias.name,
                                           Path(path), root))
    return found


def _from_module(statement: ast.ImportFrom, path: Path, root: Path) -> Dict[str, Helper]:
    """Return each name `from m import f [as g]` binds to a function of a workspace module."""
    module, names = str(statement.module), [(a.name, a.asname or a.name)
                                            for a in statement.names]
    source = _module_file(module, path, root)
    if source is None:  # launch, launch_ros, os: not the workspace's; its own: unread
        return {local: Helper(None, module + ' (not in the package)')
                for _, local in names if _is_own(module, path, root)}
    functions, assigns = _functions(source)
    shown = os.path.relpath(source, root)
    return {local: Helper(functions.get(name), shown, assigns, functions)
            for name, local in names}


def _whole_module(module: str, local: str, path: Path, root: Path) -> Dict[str, Helper]:
    """Return local.f → each function f of a workspace module imported whole."""
    source = _module_file(module, path, root)
    if source is None:
        return {}
    functions, assigns = _functions(source)
    shown = os.path.relpath(source, root)
    return {'{}.{}'.format(local, name): Helper(function, shown, assigns, functions)
            for name, function in functions.items()}


class _Substitute(ast.NodeTransformer):
    """Replace the function's parameters by the call's argument expressions."""

    def __init__(self, values: Dict[str, ast.expr]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return copy.deepcopy(self.values[node.id])  # at its line in the call
        return node


def _lines(expr: Tree, line: int) -> Tree:
    """Return expr with every line set to line: the helper's code runs at the call's line."""
    for node in ast.walk(expr):
        if 'lineno' in node._attributes:
            node.lineno = node.end_lineno = line  # type: ignore[attr-defined]
    return expr


def _bound(function: ast.FunctionDef, call: ast.Call) -> Optional[Dict[str, ast.expr]]:
    """Return parameter → argument expression as Python binds them; None when not plain."""
    arguments = function.args
    if arguments.vararg or arguments.kwarg or arguments.posonlyargs \
            or any(isinstance(a, ast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    names = [a.arg for a in arguments.args]
    if len(call.args) > len(names):
        return None
    bound = dict(zip(names, call.args))
    bound.update({k.arg: k.value for k in call.keywords if k.arg in names + [
        a.arg for a in arguments.kwonlyargs]})
    defaults = dict(zip(names[len(names) - len(arguments.defaults):], arguments.defaults))
    defaults.update({a.arg: d for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults)
                     if d is not None})
    for name, default in defaults.items():
        bound.setdefault(name, default)
    return bound


def inlined(helper: Helper, call: ast.Call) -> Optional[ast.FunctionDef]:
    """
    Return the helper's body as this call runs it (its parameters bound), None if not plain.

    Its lines are the call's (the arguments keep their own): each call is one place in the
    bringup, so two calls of one helper are two declarations, each where the launch makes it.
    """
    if helper.function is None:
        return None
    function = _lines(copy.deepcopy(helper.function), call.lineno)  # defaults too
    bound = _bound(function, call)
    if bound is None:
        return None
    return ast.fix_missing_locations(_Substitute(bound).visit(function))


def helper_calls(tree: ast.Module, helpers: Dict[str, Helper]) -> List[Tuple[ast.Call, Helper]]:
    """Return each call of an imported helper in the launch file, in reading order."""
    return [(call, helpers[ast.unparse(call.func)]) for call in ast.walk(tree)
            if isinstance(call, ast.Call) and ast.unparse(call.func) in helpers]


def called_functions(tree: ast.Module, helpers: Dict[str, Helper]) -> List[ast.stmt]:
    """
    Return the imported functions a launch file calls by name, each under that name.

    With their modules' own assignments: the file's evaluator reads what they return
    (`robot, ns = resolve_robot(context)`) and the launch arguments they declare.
    """
    found: Dict[str, ast.FunctionDef] = {}
    assigns: Dict[str, Tuple[ast.stmt, ...]] = {}
    for call, helper in helper_calls(tree, helpers):
        if isinstance(call.func, ast.Name) and helper.function is not None:
            found.setdefault(call.func.id, replace_name(helper.function, call.func.id))
            assigns.setdefault(helper.file, helper.assigns)
    return [a for module in assigns.values() for a in module] + list(found.values())


def replace_name(function: ast.FunctionDef, name: str) -> ast.FunctionDef:
    """Return a copy of a function under the name it is imported as."""
    copied = copy.deepcopy(function)
    copied.name = name
    return copied
