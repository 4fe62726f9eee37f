# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Python launch files, read with `ast` and never run: their nodes, arguments and parameters.

Values are computed the way the launch would compute them where that needs no running launch:
literals, names assigned in the file, os.path.join, PathJoinSubstitution, pathlib's `/`,
get_package_share_directory and FindPackageShare (a package of the workspace), and
LaunchConfiguration with its DeclareLaunchArgument default. Anything else is Unresolved.
"""
import ast
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Set

from .model import LaunchedNode, Param, Token, Unresolved, Where

NODE_CALLS = ('Node',)
MAX_STEPS = 200000  # expression evaluations per launch file
MAX_VALUE = 100000  # characters (or items) in one computed value


def _name(func: ast.expr) -> str:
    """Return the called name: 'Node' for Node(...) and launch_ros.actions.Node(...)."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ''


class Evaluator:
    """Computes a launch file's expressions statically, from the file and the workspace."""

    def __init__(self, tree: ast.AST, packages: Mapping[str, str]):
        """Index the file's assignments and launch arguments; packages maps name to folder."""
        self.packages = packages
        self.assigned: Dict[str, ast.expr] = {}
        self.defaults: Dict[str, ast.expr] = {}
        self.active: Set[str] = set()
        self.steps = 0  # a file built to re-evaluate names without bound meets a budget
        for node in sorted((n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.Call))),
                           key=lambda n: (n.lineno, n.col_offset)):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                self.assigned[node.targets[0].id] = node.value
            elif isinstance(node, ast.Call) and _name(node.func) == 'DeclareLaunchArgument':
                self._declare(node)
        self.calls: Dict[str, Callable[[ast.Call], Any]] = {
            'join': self._join, 'PathJoinSubstitution': self._path_join,
            'get_package_share_directory': self._share, 'FindPackageShare': self._share,
            'LaunchConfiguration': self._launch_argument, 'TextSubstitution': self._text,
            'ParameterFile': self._first, 'str': self._first, 'Path': self._first,
            'split': self._split,
        }

    def _declare(self, call: ast.Call) -> None:
        keywords = {k.arg: k.value for k in call.keywords}
        name = self.value(call.args[0]) if call.args else self.value(keywords.get('name'))
        default = keywords.get('default_value', call.args[1] if len(call.args) > 1 else None)
        if isinstance(name, str) and default is not None:
            self.defaults[name] = default

    def value(self, expr: Optional[ast.expr]) -> Any:
        """Return what expr computes to, or Unresolved naming it; ValueError past the budget."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise ValueError('more than {} steps to evaluate its expressions (names that '
                             'expand without bound?)'.format(MAX_STEPS))
        if expr is None:
            return None
        if isinstance(expr, ast.Constant):
            return expr.value
        if isinstance(expr, (ast.List, ast.Tuple)):
            return [self.value(item) for item in expr.elts]
        if isinstance(expr, ast.Dict):
            return {self.value(k): self.value(v) for k, v in zip(expr.keys, expr.values)}
        if isinstance(expr, ast.Name):
            return self._variable(expr)
        if isinstance(expr, ast.BinOp):
            return self._binary(expr)
        if isinstance(expr, ast.JoinedStr):
            return self._concatenate([self.value(part) for part in expr.values], expr)
        if isinstance(expr, ast.FormattedValue):
            return self.value(expr.value)
        if isinstance(expr, ast.Call) and _name(expr.func) in self.calls:
            return self.calls[_name(expr.func)](expr)
        return Unresolved(ast.unparse(expr))

    def follow(self, expr: ast.expr) -> ast.expr:
        """Return the expression a name stands for (through assignments), else expr itself."""
        seen: Set[str] = set()
        while isinstance(expr, ast.Name) and expr.id in self.assigned and expr.id not in seen:
            seen.add(expr.id)
            expr = self.assigned[expr.id]
        return expr

    def _variable(self, expr: ast.Name) -> Any:
        if expr.id not in self.assigned or expr.id in self.active:
            return Unresolved(expr.id)
        self.active.add(expr.id)
        try:
            return self.value(self.assigned[expr.id])
        finally:
            self.active.discard(expr.id)

    def _binary(self, expr: ast.BinOp) -> Any:
        left, right = self.value(expr.left), self.value(expr.right)
        if isinstance(expr.op, ast.Add) and type(left) is type(right) \
                and isinstance(left, (str, list)):
            if len(left) + len(right) > MAX_VALUE:
                raise ValueError('a value of more than {} characters (a string that doubles '
                                 'without bound?)'.format(MAX_VALUE))
            return left + right
        if isinstance(expr.op, ast.Div):
            return self._concatenate([left, os.sep, right], expr)
        return Unresolved(ast.unparse(expr))

    @staticmethod
    def _concatenate(parts: List[Any], expr: ast.expr) -> Any:
        if all(isinstance(part, (str, int, float)) for part in parts):
            return ''.join(str(part) for part in parts)
        return Unresolved(ast.unparse(expr))

    def _join(self, call: ast.Call) -> Any:
        parts = [self.value(arg) for arg in call.args]
        if parts and all(isinstance(part, str) for part in parts):
            return os.path.join(*parts)
        return Unresolved(ast.unparse(call))

    def _path_join(self, call: ast.Call) -> Any:
        parts = self.value(call.args[0]) if call.args else []
        if isinstance(parts, list) and parts and all(isinstance(p, str) for p in parts):
            return os.path.join(*parts)
        return Unresolved(ast.unparse(call))

    def _share(self, call: ast.Call) -> Any:
        package = self.value(call.args[0]) if call.args else None
        if isinstance(package, str) and package in self.packages:
            return self.packages[package]
        return Unresolved(ast.unparse(call))

    def _launch_argument(self, call: ast.Call) -> Any:
        name = self.value(call.args[0]) if call.args else None
        keywords = {k.arg: k.value for k in call.keywords}
        default = self.defaults.get(name) if isinstance(name, str) else None
        default = keywords.get('default', default)
        return Unresolved(ast.unparse(call)) if default is None else self.value(default)

    def _text(self, call: ast.Call) -> Any:
        keywords = {k.arg: k.value for k in call.keywords}
        return self.value(call.args[0] if call.args else keywords.get('text'))

    def _first(self, call: ast.Call) -> Any:
        keywords = {k.arg: k.value for k in call.keywords}
        first = call.args[0] if call.args else keywords.get('param_file')
        return Unresolved(ast.unparse(call)) if first is None else self.value(first)

    def _split(self, call: ast.Call) -> Any:
        text = self.value(call.func.value) if isinstance(call.func, ast.Attribute) else None
        return text.split() if isinstance(text, str) else Unresolved(ast.unparse(call))

    def items(self, expr: ast.expr) -> List[ast.expr]:
        """Return a list expression's items, through names and `+`; else [expr]."""
        expr = self.follow(expr)
        if isinstance(expr, (ast.List, ast.Tuple)):
            return list(expr.elts)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return self.items(expr.left) + self.items(expr.right)
        return [expr]


def _keyword(evaluator: Evaluator, keywords: Mapping[str, ast.expr], *names: str) -> Any:
    """Return the value of the first of these keywords that the call gives (old names too)."""
    return next((evaluator.value(keywords[n]) for n in names if n in keywords), None)


def _tokens(evaluator: Evaluator, expr: ast.expr) -> List[Token]:
    tokens = []
    for item in evaluator.items(expr):
        value = evaluator.value(item)
        values = value if isinstance(value, list) else [value]
        tokens.extend(Token(v, item.lineno) for v in values)
    return tokens


def _parameters(evaluator: Evaluator, expr: ast.expr, node: LaunchedNode, file: str) -> None:
    for item in evaluator.items(expr):
        target = evaluator.follow(item)
        if isinstance(target, ast.Dict):
            for key, value in zip(target.keys, target.values):
                name = evaluator.value(key)
                if isinstance(name, str):
                    node.inline[name] = Param(name, evaluator.value(value),
                                              Where(file, key.lineno))
        else:
            node.param_files.append((evaluator.value(item), Where(file, item.lineno)))


def read_python_launch(text: str, file: str, packages: Mapping[str, str]) -> List[LaunchedNode]:
    """Return the nodes a Python launch file starts; SyntaxError when it is not Python."""
    tree = ast.parse(text, filename=file)
    evaluator = Evaluator(tree, packages)
    nodes = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and _name(call.func) in NODE_CALLS):
            continue
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        node = LaunchedNode(_keyword(evaluator, keywords, 'package'),
                            _keyword(evaluator, keywords, 'executable', 'node_executable'),
                            _keyword(evaluator, keywords, 'name', 'node_name'),
                            Where(file, call.lineno))
        if 'arguments' in keywords:
            node.arguments = _tokens(evaluator, keywords['arguments'])
        if 'parameters' in keywords:
            _parameters(evaluator, keywords['parameters'], node, file)
        nodes.append(node)
    return sorted(nodes, key=lambda n: n.where.line)
