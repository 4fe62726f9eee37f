# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Launch conditions, read statically: which side of each a node is on, and which are known.

IfCondition, UnlessCondition, LaunchConfigurationEquals and a Python `if` are evaluated where
their values are known; a condition only a running launch knows makes a branch, and nodes on
its opposite sides never run together.
"""
import ast
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple

from .launch_values import called_name, substituted, truth
from ..model import Branch, Unresolved


class Computes(Protocol):
    """What reading a condition takes of an evaluator: values, names followed, arguments."""

    def value(self, expr: Optional[ast.expr]) -> Any:
        """Return an expression's value, or Unresolved."""

    def follow(self, expr: ast.expr) -> ast.expr:
        """Return the expression a name stands for."""

    def configurations(self) -> Dict[str, Any]:
        """Return the launch arguments' values."""


def parent_map(tree: ast.AST) -> Dict[int, ast.AST]:
    """Return each node's parent in the tree, by the node's id: what encloses a call."""
    return {id(child): parent for parent in ast.walk(tree)
            for child in ast.iter_child_nodes(parent)}


def branch_of(evaluator: Computes, call: ast.AST, parents: Dict[int, ast.AST],
              file: str) -> Optional[Branch]:
    """
    Return the unknown conditions around a call, each with its side; None if one is false.

    Conditions of the call and of enclosing actions, and the Python `if` it sits in: a branch
    whose test only a running launch knows counts as taken, and as the other side's
    alternative.
    """
    branch: List[Tuple[Any, bool]] = []
    node: Optional[ast.AST] = call
    while node is not None:
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg != 'condition':
                    continue
                condition = evaluator.follow(keyword.value)
                verdict = condition_holds(evaluator, condition)
                if verdict is False:
                    return None
                if verdict is None and isinstance(condition, ast.Call) and condition.args:
                    key, side = _condition_key(condition.args[0])
                    unless = called_name(condition.func) == 'UnlessCondition'
                    branch.append((key, side != unless))
        above = parents.get(id(node))
        for earlier in _returned_before(node, above):  # `if x: ... return` then this
            verdict = if_truth(evaluator, earlier.test)
            if verdict is True:
                return None
            if verdict is None:
                branch.append(((file, earlier.lineno, earlier.col_offset), False))
        if isinstance(above, ast.If):
            verdict = if_truth(evaluator, above.test)
            inside = any(node is n for n in above.body)
            if verdict is not None and verdict != inside:
                return None
            if verdict is None:
                branch.append(((file, above.lineno, above.col_offset), inside))
        node = above
    return tuple(branch)


def needs(evaluator: Computes, call: ast.Call) -> Tuple[Tuple[str, str], ...]:
    """
    Return the launch argument that makes a call's own false condition hold, where one does.

    `UnlessCondition(LaunchConfiguration('offline_mapping'))` holds with offline_mapping:=false,
    `LaunchConfigurationEquals('mode', 'car')` with mode:=car; any other test: ().
    """
    condition = next((evaluator.follow(k.value) for k in call.keywords if k.arg == 'condition'),
                     None)
    if not isinstance(condition, ast.Call) or not condition.args:
        return ()
    kind = called_name(condition.func)
    if kind == 'LaunchConfigurationEquals' and len(condition.args) == 2:
        name, value = (evaluator.value(arg) for arg in condition.args)
        return ((name, value),) if isinstance(name, str) and isinstance(value, str) else ()
    if kind not in ('IfCondition', 'UnlessCondition'):
        return ()
    expr, side = _tested(condition.args[0], evaluator.follow)
    side = side == (kind == 'IfCondition')
    if isinstance(expr, ast.Call) and called_name(expr.func) == 'LaunchConfiguration' \
            and expr.args and isinstance(evaluator.value(expr.args[0]), str):
        return ((evaluator.value(expr.args[0]), 'true' if side else 'false'),)
    return ()


def _returned_before(node: ast.AST, above: Optional[ast.AST]) -> List[ast.If]:
    """
    Return the `if`s before a statement, in its own block, whose body ends the function.

    What follows `if env == 'TwoCar': ... return LaunchDescription(...)` runs only where the
    test is false: the other side of that `if`, as an `else:` would be.
    """
    statements, at = _block_of(node, above)
    return [s for s in statements[:at] if isinstance(s, ast.If) and _ends(s.body)
            and not _ends(s.orelse)]


def _block_of(node: ast.AST, above: Optional[ast.AST]) -> Tuple[List[ast.stmt], int]:
    """Return the block of statements that holds a statement, and its place in it ([], 0)."""
    if isinstance(node, ast.stmt) and above is not None:
        for field in ('body', 'orelse', 'finalbody'):
            statements = getattr(above, field, None)
            if isinstance(statements, list) and any(node is s for s in statements):
                return statements, next(i for i, s in enumerate(statements) if s is node)
    return [], 0


def _ends(statements: List[ast.stmt]) -> bool:
    """Return whether a block always leaves its function: it ends in return or raise."""
    return bool(statements) and isinstance(statements[-1], (ast.Return, ast.Raise))


def _condition_key(expr: ast.expr) -> Tuple[str, bool]:
    """
    Return what a condition tests, as one text for its every spelling, and whether it is not.

    IfCondition(x), IfCondition([x]) and UnlessCondition(PythonExpression(['not ', x])) test
    one launch argument: nodes on their opposite sides never run together.
    """
    tested, side = _tested(expr)
    return ast.unparse(tested), side


def _tested(expr: ast.expr, follow: Callable[[ast.expr], ast.expr] = lambda e: e
            ) -> Tuple[ast.expr, bool]:
    """Return what a condition's argument tests, its `[x]` and `not` taken off, and its side."""
    side = True
    while True:
        expr = follow(expr)
        if isinstance(expr, (ast.List, ast.Tuple)) and len(expr.elts) == 1:
            expr = expr.elts[0]
            continue
        negated = _negation(expr)
        if negated is None:
            return expr, side
        expr, side = negated, not side


def _negation(expr: ast.expr) -> Optional[ast.expr]:
    """Return x of PythonExpression(['not ', x]), else None."""
    if not (isinstance(expr, ast.Call) and called_name(expr.func) == 'PythonExpression'
            and expr.args
            and isinstance(expr.args[0], (ast.List, ast.Tuple)) and len(expr.args[0].elts) == 2):
        return None
    first, operand = expr.args[0].elts
    negated = isinstance(first, ast.Constant) and str(first.value).strip() == 'not'
    return operand if negated else None


def if_truth(evaluator: Computes, test: ast.expr) -> Optional[bool]:
    """Return a Python `if` test's truth where its values are known, else None."""
    if isinstance(test, ast.BoolOp):
        verdicts = [if_truth(evaluator, value) for value in test.values]
        wanted = isinstance(test.op, ast.Or)
        if wanted in verdicts:
            return wanted
        return None if None in verdicts else not wanted
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        verdict = if_truth(evaluator, test.operand)
        return None if verdict is None else not verdict
    if isinstance(test, ast.Compare) and len(test.ops) == 1 \
            and isinstance(test.ops[0], (ast.In, ast.NotIn)):  # 'rplidar' in lidar_type
        part, whole = evaluator.value(test.left), evaluator.value(test.comparators[0])
        if not isinstance(part, str) or not (isinstance(whole, str) or isinstance(
                whole, list) and all(isinstance(item, str) for item in whole)):
            return None
        return (part in whole) == isinstance(test.ops[0], ast.In)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 \
            and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
        left, right = evaluator.value(test.left), evaluator.value(test.comparators[0])
        if isinstance(left, Unresolved) or isinstance(right, Unresolved) \
                or not isinstance(left, (str, int, float, bool)) \
                or not isinstance(right, (str, int, float, bool)):
            return None
        return (left == right) == isinstance(test.ops[0], ast.Eq)
    value = evaluator.value(test)
    if isinstance(value, (str, list, dict)) and not value:  # `if xacro_args:` of ''
        return False
    verdict = truth(value)
    if verdict is None and isinstance(value, (str, list, dict)):  # `if extra_file:` of a path
        return True
    return verdict


def condition_holds(evaluator: Computes, condition: ast.expr) -> Optional[bool]:
    """Return a launch condition's value, or None when only a running launch knows it."""
    if not isinstance(condition, ast.Call):
        return None
    kind = called_name(condition.func)
    values = [substituted(evaluator.value(arg)) for arg in condition.args]
    if kind in ('IfCondition', 'UnlessCondition') and values:
        verdict = truth(values[0])
        return None if verdict is None else verdict == (kind == 'IfCondition')
    if kind in ('LaunchConfigurationEquals', 'LaunchConfigurationNotEquals') and len(values) == 2:
        value = evaluator.configurations().get(values[0]) if isinstance(values[0], str) else None
        if isinstance(value, Unresolved) or value is None:
            return None
        return (str(value) == str(values[1])) == (kind == 'LaunchConfigurationEquals')
    return None
