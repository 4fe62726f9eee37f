# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Launch-file values that need no evaluator: conditions' truth, PythonExpression of literals.

A description printed by a command line (xacro, cat), where a package outside the workspace
is, and parsing a launch file without crashing on one nested too deep. Python and XML launch
files alike.
"""
import ast
import operator
import os
import shlex
from typing import Any, Callable, Dict, Optional

from ..model import Description

DESCRIPTION_SUFFIXES = ('.urdf', '.xacro', '.xml')
TRUE, FALSE = ('true', '1'), ('false', '0')
STRING_METHODS = ('lower', 'upper', 'strip')


def parse_python(text: str, file: str = '<unknown>') -> ast.Module:
    """Return a Python file's tree; SyntaxError (never a crash) if it nests past the parser."""
    try:
        return ast.parse(text, filename=file)
    except (MemoryError, RecursionError):
        raise SyntaxError('expressions nested deeper than the Python parser takes') from None


def called_name(func: ast.expr) -> str:
    """Return the called name: 'Node' for Node(...) and launch_ros.actions.Node(...)."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ''


def outside(package: str) -> str:
    """Return where a package outside the workspace is installed, as messages show it."""
    return '<{}>'.format(package)


def substituted(value: Any) -> Any:
    """Return a substitution list (['not ', x] computed) as the one text launch makes of it."""
    if isinstance(value, list) and all(isinstance(part, (str, int, float)) for part in value):
        return ''.join(str(part) for part in value)
    return value


def truth(value: Any) -> Optional[bool]:
    """Return a condition's text as the launch reads it: 'true'/'1', 'false'/'0', else None."""
    text = str(value).strip().lower() if isinstance(value, (str, bool, int)) else None
    return True if text in TRUE else False if text in FALSE else None


def expression_value(text: str) -> Any:
    """
    Return what a PythonExpression of literals computes, as launch's eval would; else None.

    Literals, `+` of strings, comparisons, and/or/not, and str.lower/upper/strip: enough for
    the conditions and names launch files build, never a call that could do anything.
    """
    try:
        tree = ast.parse(text.strip(), mode='eval')
    except (SyntaxError, ValueError):
        return None

    def value(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, bool)):
            return node.value
        if isinstance(node, ast.Name) and node.id.lower() in ('true', 'false'):
            return node.id.lower() == 'true'
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not value(node.operand)
        if isinstance(node, ast.BoolOp):
            results = [value(v) for v in node.values]
            return all(results) if isinstance(node.op, ast.And) else any(results)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = value(node.left), value(node.right)
            if isinstance(left, str) and isinstance(right, str):
                return left + right
        if isinstance(node, ast.Compare) and len(node.ops) == 1 \
                and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            same = value(node.left) == value(node.comparators[0])
            return same if isinstance(node.ops[0], ast.Eq) else not same
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in STRING_METHODS and not node.args:
            text = value(node.func.value)
            if isinstance(text, str):
                return getattr(text, node.func.attr)()
        raise ValueError(ast.dump(node))

    try:
        return value(tree.body)
    except ValueError:
        return None


def command_description(text: str) -> Optional[Description]:
    """Return the description a command line prints (`xacro FILE a:=b`, `cat FILE`), or None."""
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    if not words or not (os.path.basename(words[0]) in ('xacro', 'cat')
                         or words[:3] == ['ros2', 'run', 'xacro']):
        return None
    paths = [w for w in words[1:] if ':=' not in w and w.endswith(DESCRIPTION_SUFFIXES)]
    if len(paths) != 1:
        return None
    pairs = [w.partition(':=') for w in words if ':=' in w]
    return Description(paths[0], tuple((name, value) for name, _, value in pairs))


ARITHMETIC: Dict[type, Callable[[float, float], float]] = {  # what launch values compute by
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv}


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def position(node: ast.AST) -> tuple:
    """Return where a node of the tree is, to read a file's statements in order."""
    if isinstance(node, ast.withitem):  # no line of its own: its expression's
        return (getattr(node.context_expr, 'lineno', 0), 0)
    return (getattr(node, 'lineno', None), getattr(node, 'col_offset', 0))
