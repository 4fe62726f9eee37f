# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Python launch files, read with `ast` and never run: their nodes, includes and parameters.

Values are computed the way the launch would compute them where that needs no running launch:
literals, names assigned in the file, os.path.join, PathJoinSubstitution, pathlib's `/`,
get_package_share_directory and FindPackageShare (a package of the workspace), FindExecutable,
and LaunchConfiguration: the value the launch is given, else its DeclareLaunchArgument default.
Conditions (IfCondition, UnlessCondition, LaunchConfigurationEquals, PythonExpression) are
evaluated where their value is known; a robot description read from a file, by xacro or by
Command(['xacro ', ...]) is followed. Anything else is Unresolved.
"""
import ast
from dataclasses import replace
import math
import operator
import os
import shlex
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

from .launch_imports import Helper, helper_calls, imported_helpers, inlined
from ..model import Branch, Built, Description, exclusive, Include, LaunchedNode, LaunchRead, \
    Param, Token, Unpacked, Unresolved, Where

NODE_CALLS = ('Node', 'LifecycleNode', 'ComposableNode')
PROCESS = 'ExecuteProcess'
CONSTANTS = {'math.pi': math.pi, 'math.tau': math.tau, 'np.pi': math.pi, 'numpy.pi': math.pi}
ARITHMETIC: Dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv}
STATIC_PUBLISHER = 'static_transform_publisher'
INCLUDE = 'IncludeLaunchDescription'
DESCRIPTION_SUFFIXES = ('.urdf', '.xacro', '.xml')
TRUE, FALSE = ('true', '1'), ('false', '0')
MAX_STEPS = 200000  # expression evaluations per launch file
MAX_VALUE = 100000  # characters (or items) in one computed value
MAX_HELPER_DEPTH = 4  # imported helpers that call functions of their module, one in another


def parse_python(text: str, file: str = '<unknown>') -> ast.Module:
    """Return a Python file's tree; SyntaxError (never a crash) if it nests past the parser."""
    try:
        return ast.parse(text, filename=file)
    except (MemoryError, RecursionError):
        raise SyntaxError('expressions nested deeper than the Python parser takes') from None


def _name(func: ast.expr) -> str:
    """Return the called name: 'Node' for Node(...) and launch_ros.actions.Node(...)."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ''


class Evaluator:
    """Computes a launch file's expressions statically, from the file and the workspace."""

    def __init__(self, tree: ast.AST, packages: Mapping[str, str],
                 given: Optional[Mapping[str, Any]] = None,
                 calls: Optional[Mapping[str, Callable[[ast.Call], Any]]] = None,
                 path: str = ''):
        """Index the file's assignments and launch arguments; given holds the values passed."""
        self.packages = packages
        self.path = path
        self.given = dict(given or {})
        self.assigned: Dict[str, ast.expr] = {}
        self.ambiguous: Set[str] = set()  # assigned twice (branches): only a run knows which
        self.defaults: Dict[str, ast.expr] = {}
        self.active: Set[str] = set()
        self.steps = 0  # a file built to re-evaluate names without bound meets a budget
        for node in sorted((n for n in ast.walk(tree)
                            if isinstance(n, (ast.Assign, ast.Call, ast.withitem))),
                           key=lambda n: _position(n)):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                self._assign(node.targets[0].id, node.value)
            elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
                self._assign(node.optional_vars.id, node.context_expr)
            elif isinstance(node, ast.Call) and _name(node.func) == 'DeclareLaunchArgument':
                self._declare(node)
        self.calls: Dict[str, Callable[[ast.Call], Any]] = {
            'join': self._join, 'PathJoinSubstitution': self._path_join,
            'get_package_share_directory': self._share, 'FindPackageShare': self._share,
            'FindExecutable': self._executable,
            'LaunchConfiguration': self._launch_argument, 'TextSubstitution': self._text,
            'ParameterFile': self._first, 'str': self._first, 'Path': self._first,
            'ParameterValue': self._first, 'perform': self._receiver, 'toxml': self._receiver,
            'RewrittenYaml': self._rewritten, 'ReplaceString': self._replaced,
            'find': self._receiver,  # FindPackageShare(p).find(p): the share folder
            'EqualsSubstitution': self._logic, 'NotEqualsSubstitution': self._logic,
            'AndSubstitution': self._logic, 'OrSubstitution': self._logic,
            'NotSubstitution': self._logic,
            'toprettyxml': self._receiver, 'split': self._split, 'items': self._items,
            'open': self._description, 'read': self._read, 'read_text': self._read,
            'process_file': self._description, 'Command': self._command,
            'PythonExpression': self._python_expression, 'dirname': self._dirname,
            'ThisLaunchFileDir': lambda call: os.path.dirname(self.path) if self.path else
            Unresolved(ast.unparse(call)), 'abspath': self._first, 'realpath': self._first,
            **(calls or {}),
        }

    def _assign(self, name: str, value: ast.expr) -> None:
        """
        Hold a name's value; one assigned two values (branches, functions) only a run knows.

        The same expression twice (`share = get_package_share_directory('car')` in an
        OpaqueFunction's setup and in generate_launch_description) is one value.
        """
        if name in self.assigned and ast.dump(value) != ast.dump(self.assigned[name]):
            self.ambiguous.add(name)
        self.assigned[name] = value

    def _declare(self, call: ast.Call) -> None:
        keywords = {k.arg: k.value for k in call.keywords}
        name = self.value(call.args[0]) if call.args else self.value(keywords.get('name'))
        default = keywords.get('default_value', call.args[1] if len(call.args) > 1 else None)
        if isinstance(name, str) and default is not None:
            self.defaults[name] = default

    def configurations(self) -> Dict[str, Any]:
        """Return every launch argument's value in this file: given, else its default."""
        found = {name: self.value(default) for name, default in self.defaults.items()}
        found.update(self.given)
        return found

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
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):  # {path}: a set of one file
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
        if isinstance(expr, ast.Attribute) and ast.unparse(expr) in CONSTANTS:
            return CONSTANTS[ast.unparse(expr)]
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
            number = self.value(expr.operand)
            return -number if _number(number) else Unresolved(ast.unparse(expr))
        return Unresolved(ast.unparse(expr))

    def follow(self, expr: ast.expr) -> ast.expr:
        """Return the expression a name stands for (through assignments), else expr itself."""
        seen: Set[str] = set()
        while isinstance(expr, ast.Name) and expr.id in self.assigned and expr.id not in seen \
                and expr.id not in self.ambiguous:
            seen.add(expr.id)
            expr = self.assigned[expr.id]
        return expr

    def _variable(self, expr: ast.Name) -> Any:
        if expr.id == '__file__' and self.path:
            return self.path
        if expr.id not in self.assigned or expr.id in self.active or expr.id in self.ambiguous:
            return Unresolved(expr.id)
        self.active.add(expr.id)
        try:
            return self.value(self.assigned[expr.id])
        finally:
            self.active.discard(expr.id)

    def _binary(self, expr: ast.BinOp) -> Any:
        left, right = self.value(expr.left), self.value(expr.right)
        if _number(left) and _number(right) and type(expr.op) in ARITHMETIC \
                and not (isinstance(expr.op, ast.Div) and right == 0):
            return ARITHMETIC[type(expr.op)](left, right)  # --pitch str(math.pi / 2)
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
        parts = [''.join(p) if isinstance(p, list) and all(isinstance(q, str) for q in p)
                 else p for p in parts] if isinstance(parts, list) else parts  # ['a_', x, '.urdf']
        if isinstance(parts, list) and parts and all(isinstance(p, str) for p in parts):
            return os.path.join(*parts)
        return Unresolved(ast.unparse(call))

    def _share(self, call: ast.Call) -> Any:
        keywords = {k.arg: k.value for k in call.keywords}
        package = self.value(call.args[0] if call.args else keywords.get('package'))
        if isinstance(package, str):  # a package outside the workspace: a path that is not in it
            return self.packages.get(package, outside(package))
        return Unresolved(ast.unparse(call))

    def _executable(self, call: ast.Call) -> Any:
        """Return FindExecutable(name='xacro') as the command's name (its folder says nothing)."""
        keywords = {k.arg: k.value for k in call.keywords}
        name = self.value(call.args[0] if call.args else keywords.get('name'))
        return name if isinstance(name, str) else Unresolved(ast.unparse(call))

    def _launch_argument(self, call: ast.Call) -> Any:
        name = self.value(call.args[0]) if call.args else None
        if isinstance(name, str) and name in self.given:
            return self.given[name]
        keywords = {k.arg: k.value for k in call.keywords}
        default = self.defaults.get(name) if isinstance(name, str) else None
        default = keywords.get('default', default)
        return Unresolved(ast.unparse(call)) if default is None else self.value(default)

    def _logic(self, call: ast.Call) -> Any:
        """Return EqualsSubstitution, And..., Or..., Not... as the text launch makes of them."""
        values = [self.value(arg) for arg in call.args]
        kind = _name(call.func)
        if any(isinstance(v, Unresolved) or isinstance(v, (list, dict)) for v in values):
            return Unresolved(ast.unparse(call))
        if kind in ('EqualsSubstitution', 'NotEqualsSubstitution') and len(values) == 2:
            same = str(values[0]) == str(values[1])
            return str(same == (kind == 'EqualsSubstitution')).lower()
        truths = [truth(v) for v in values]
        if None in truths or not truths:
            return Unresolved(ast.unparse(call))
        verdict = not truths[0] if kind == 'NotSubstitution' else \
            all(truths) if kind == 'AndSubstitution' else any(truths)
        return str(verdict).lower()

    def _rewritten(self, call: ast.Call) -> Any:
        """Return RewrittenYaml's source file: Nav2's rewrites touch no frame parameters."""
        keywords = {k.arg: k.value for k in call.keywords}
        source = keywords.get('source_file', call.args[0] if call.args else None)
        return Unresolved(ast.unparse(call)) if source is None else self.value(source)

    def _replaced(self, call: ast.Call) -> Any:
        """
        Return ReplaceString's file where its condition is false: it hands the source on.

        Where the condition holds (or only the launch knows it), its text is replaced in a
        file the launch writes: the values in it are the launch's to know.
        """
        keywords = {k.arg: k.value for k in call.keywords}
        source = keywords.get('source_file', call.args[0] if call.args else None)
        condition = keywords.get('condition')
        if source is not None and condition is not None \
                and condition_holds(self, self.follow(condition)) is False:
            return self.value(source)
        return Unresolved(ast.unparse(call))

    def _dirname(self, call: ast.Call) -> Any:
        path = self._first(call)
        return os.path.dirname(path) if isinstance(path, str) else path

    def _receiver(self, call: ast.Call) -> Any:
        """Return what x computes to for x.perform(context), x.toxml(): the same value."""
        if isinstance(call.func, ast.Attribute):
            return self.value(call.func.value)
        return Unresolved(ast.unparse(call))

    def _items(self, call: ast.Call) -> Any:
        mapping = self._receiver(call)
        return [[k, v] for k, v in mapping.items()] if isinstance(mapping, dict) else \
            Unresolved(ast.unparse(call))

    def _description(self, call: ast.Call) -> Any:
        """Return open(path) or xacro.process_file(path, mappings=...) as a Description."""
        path = self.value(call.args[0]) if call.args else None
        keywords = {k.arg: k.value for k in call.keywords}
        mappings = self.value(keywords['mappings']) if 'mappings' in keywords else {}
        if not isinstance(path, str) or not isinstance(mappings, dict):
            return Unresolved(ast.unparse(call))
        return Description(path, tuple((str(k), str(v)) for k, v in mappings.items()))

    def _read(self, call: ast.Call) -> Any:
        source = self._receiver(call)
        return Description(source) if isinstance(source, str) else source

    def _joined(self, call: ast.Call) -> Any:
        """Return a substitution list's text (Command, PythonExpression), or Unresolved."""
        parts = self.value(call.args[0]) if call.args else None
        return self._concatenate(parts if isinstance(parts, list) else [parts], call)

    def _command(self, call: ast.Call) -> Any:
        text = self._joined(call)
        return (command_description(text) if isinstance(text, str) else None) or \
            Unresolved(ast.unparse(call))

    def _python_expression(self, call: ast.Call) -> Any:
        text = self._joined(call)
        value = expression_value(text) if isinstance(text, str) else None
        return Unresolved(ast.unparse(call)) if value is None else str(value)

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
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
            return list(expr.elts)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return self.items(expr.left) + self.items(expr.right)
        return [expr]


def _keyword(evaluator: Evaluator, keywords: Mapping[str, ast.expr], *names: str) -> Any:
    """Return the value of the first of these keywords that the call gives (old names too)."""
    return next((evaluator.value(keywords[n]) for n in names if n in keywords), None)


def _tokens(evaluator: Evaluator, expr: ast.expr) -> List[Token]:
    tokens: List[Token] = []
    for item in evaluator.items(expr):
        value = evaluator.value(item.value if isinstance(item, ast.Starred) else item)
        if isinstance(item, ast.Starred) and not isinstance(value, list):
            value = Unpacked(ast.unparse(item))  # how many arguments: only the launch knows
        values = value if isinstance(value, list) else [value]
        tokens.extend(Token(v, item.lineno) for v in values)
    return tokens


def _parameters(evaluator: Evaluator, expr: ast.expr, node: LaunchedNode, file: str) -> None:
    for item in evaluator.items(expr):
        target = evaluator.follow(item)
        if isinstance(target, ast.Dict):
            for key, value in zip(target.keys, target.values):
                name = evaluator.value(key)
                if isinstance(name, str) and key is not None:  # **spread: no key, no name
                    node.inline[name] = Param(name, _parameter_value(evaluator, value),
                                              Where(file, key.lineno))
        elif isinstance(target, ast.DictComp):  # {name: value for ... in rows}: no file
            node.param_files.append((Built(ast.unparse(target.generators[0].iter)),
                                     Where(file, item.lineno)))
        else:
            value = evaluator.value(item)
            for one in value if isinstance(value, list) else [value]:  # {path}, [path]
                node.param_files.append((one, Where(file, item.lineno)))


def _parameter_value(evaluator: Evaluator, expr: ast.expr) -> Any:
    """
    Return an inline parameter's value: a list holding a substitution is one string.

    launch_ros joins [LaunchConfiguration('robot_name'), '/'] into 'amr_3/' (a list of plain
    strings stays a string array).
    """
    value = evaluator.value(expr)
    if isinstance(expr, (ast.List, ast.Tuple)) and isinstance(value, list) \
            and any(isinstance(item, ast.Call) for item in expr.elts) \
            and all(isinstance(part, str) for part in value):
        return ''.join(value)
    return value


def _parents(tree: ast.AST) -> Dict[int, ast.AST]:
    return {id(child): parent for parent in ast.walk(tree)
            for child in ast.iter_child_nodes(parent)}


def _branch(evaluator: Evaluator, call: ast.AST, parents: Dict[int, ast.AST],
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
                    branch.append((key, side == (_name(condition.func) != 'UnlessCondition')))
        above = parents.get(id(node))
        if isinstance(above, ast.If):
            verdict = _test(evaluator, above.test)
            inside = any(node is n for n in above.body)
            if verdict is not None and verdict != inside:
                return None
            if verdict is None:
                branch.append(((file, above.lineno, above.col_offset), inside))
        node = above
    return tuple(branch)


def _condition_key(expr: ast.expr) -> Tuple[str, bool]:
    """
    Return what a condition tests, as one text for its every spelling, and whether it is not.

    IfCondition(x), IfCondition([x]) and UnlessCondition(PythonExpression(['not ', x])) test
    one launch argument: nodes on their opposite sides never run together.
    """
    side = True
    while True:
        if isinstance(expr, (ast.List, ast.Tuple)) and len(expr.elts) == 1:
            expr = expr.elts[0]
            continue
        negated = _negation(expr)
        if negated is None:
            return ast.unparse(expr), side
        expr, side = negated, not side


def _negation(expr: ast.expr) -> Optional[ast.expr]:
    """Return x of PythonExpression(['not ', x]), else None."""
    if not (isinstance(expr, ast.Call) and _name(expr.func) == 'PythonExpression' and expr.args
            and isinstance(expr.args[0], (ast.List, ast.Tuple)) and len(expr.args[0].elts) == 2):
        return None
    first, operand = expr.args[0].elts
    negated = isinstance(first, ast.Constant) and str(first.value).strip() == 'not'
    return operand if negated else None


def _test(evaluator: Evaluator, test: ast.expr) -> Optional[bool]:
    """Return a Python `if` test's truth where its values are known, else None."""
    if isinstance(test, ast.BoolOp):
        verdicts = [_test(evaluator, value) for value in test.values]
        wanted = isinstance(test.op, ast.Or)
        if wanted in verdicts:
            return wanted
        return None if None in verdicts else not wanted
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        verdict = _test(evaluator, test.operand)
        return None if verdict is None else not verdict
    if isinstance(test, ast.Compare) and len(test.ops) == 1 \
            and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
        left, right = evaluator.value(test.left), evaluator.value(test.comparators[0])
        if isinstance(left, Unresolved) or isinstance(right, Unresolved) \
                or not isinstance(left, (str, int, float, bool)) \
                or not isinstance(right, (str, int, float, bool)):
            return None
        return (left == right) == isinstance(test.ops[0], ast.Eq)
    return truth(evaluator.value(test))


def outside(package: str) -> str:
    """Return where a package outside the workspace is installed, as messages show it."""
    return '<{}>'.format(package)


def condition_holds(evaluator: Evaluator, condition: ast.expr) -> Optional[bool]:
    """Return a launch condition's value, or None when only a running launch knows it."""
    if not isinstance(condition, ast.Call):
        return None
    kind = _name(condition.func)
    values = [_substituted(evaluator.value(arg)) for arg in condition.args]
    if kind in ('IfCondition', 'UnlessCondition') and values:
        verdict = truth(values[0])
        return None if verdict is None else verdict == (kind == 'IfCondition')
    if kind in ('LaunchConfigurationEquals', 'LaunchConfigurationNotEquals') and len(values) == 2:
        value = evaluator.configurations().get(values[0]) if isinstance(values[0], str) else None
        if isinstance(value, Unresolved) or value is None:
            return None
        return (str(value) == str(values[1])) == (kind == 'LaunchConfigurationEquals')
    return None


def _substituted(value: Any) -> Any:
    """Return a substitution list (['not ', x] computed) as the one text launch makes of it."""
    if isinstance(value, list) and all(isinstance(part, (str, int, float)) for part in value):
        return ''.join(str(part) for part in value)
    return value


def truth(value: Any) -> Optional[bool]:
    """Return a condition's text as the launch reads it: 'true'/'1', 'false'/'0', else None."""
    text = str(value).strip().lower() if isinstance(value, (str, bool, int)) else None
    return True if text in TRUE else False if text in FALSE else None


STRING_METHODS = ('lower', 'upper', 'strip')


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


def _include(evaluator: Evaluator, call: ast.Call, file: str, runs: bool) -> Include:
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    source = call.args[0] if call.args else keywords.get('launch_description_source')
    source = evaluator.follow(source) if source is not None else None
    if isinstance(source, ast.Call) and _name(source.func).endswith('LaunchDescriptionSource'):
        inner = {k.arg: k.value for k in source.keywords if k.arg}
        source = source.args[0] if source.args else inner.get('launch_file_path')
    target = evaluator.value(source)
    if isinstance(target, list):
        assert source is not None  # the value of no expression (None) is no list
        target = target[0] if len(target) == 1 else Evaluator._concatenate(target, source)
    arguments = evaluator.value(keywords['launch_arguments']) \
        if 'launch_arguments' in keywords else []
    pairs = tuple((str(pair[0]), pair[1]) for pair in arguments
                  if isinstance(pair, list) and len(pair) == 2) \
        if isinstance(arguments, list) else ()
    return Include(target, pairs, Where(file, call.lineno), runs)


def read_python_launch(tree: ast.Module, file: str, packages: Mapping[str, str],
                       given: Optional[Mapping[str, Any]] = None, path: str = '') -> LaunchRead:
    """Return what a Python launch file (its parsed tree) starts with these arguments."""
    evaluator = Evaluator(tree, packages, given, path=path)
    parents = _parents(tree)
    unused = _unused_names(tree)
    read = LaunchRead()
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and not _never_used(call, parents, unused):
            _started(evaluator, call, (parents, file), read)  # else its use is commented out
    read.nodes += _added_again(evaluator, tree, parents, file)
    helpers = imported_helpers(tree, file, path)
    read.imported = sorted({h.file for h in helpers.values() if h.function is not None})
    for call, helper in helper_calls(tree, helpers):
        if not _never_used(call, parents, unused):
            _helper_nodes(tree, call, helper, read, (packages, given, path, file), parents)
    read.nodes.sort(key=lambda n: n.where.line)
    read.includes.sort(key=lambda i: i.where.line)
    read.configurations = evaluator.configurations()
    return read


def _added_again(evaluator: Evaluator, tree: ast.Module, parents: Dict[int, ast.AST],
                 file: str) -> List[LaunchedNode]:
    """
    Return a node for each Node a list of actions gets a second time, at that line.

    `nodes = [driver, rsp]` and later `nodes += [driver]` (a mode that needs the driver
    "too") hand launch one Node object twice: it starts two nodes of one name. An addition
    on the opposite side of an `if` from the first is no second start.
    """
    held: Dict[str, Dict[str, Tuple[ast.stmt, Branch]]] = {}  # list → variable → first add
    again = []
    for statement in sorted((n for n in ast.walk(tree) if isinstance(n, ast.stmt)),
                            key=_position):
        target, items = _list_growth(statement)
        if target is None:
            continue
        if isinstance(statement, ast.Assign):
            held[target] = {}
        added = _branch(evaluator, statement, parents, file)
        for item in items:
            call = evaluator.follow(item)
            if added is None or not isinstance(item, ast.Name) or not isinstance(
                    call, ast.Call) or _name(call.func) not in NODE_CALLS:
                continue
            first, branch = held.setdefault(target, {}).setdefault(item.id, (statement, added))
            node = _launched(evaluator, call, file)
            own = _branch(evaluator, call, parents, file)
            if first is not statement and not exclusive(branch, added) and node is not None \
                    and own is not None:
                again.append(replace(node, where=Where(file, statement.lineno),
                                     branch=own + added, again=node.where))
    return again


def _list_growth(statement: ast.stmt) -> Tuple[Optional[str], List[ast.expr]]:
    """
    Return the list a statement builds or grows, and the items it puts in; (None, []) else.

    `x = [...]` (a new list), `x += [...]`, `x.append(a)` and `x.extend([...])`.
    """
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
            and isinstance(statement.targets[0], ast.Name):
        value = statement.value
        return statement.targets[0].id, list(value.elts) if isinstance(
            value, (ast.List, ast.Tuple)) else []
    if isinstance(statement, ast.AugAssign) and isinstance(statement.op, ast.Add) \
            and isinstance(statement.target, ast.Name) \
            and isinstance(statement.value, (ast.List, ast.Tuple)):
        return statement.target.id, list(statement.value.elts)
    call = statement.value if isinstance(statement, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
            and isinstance(call.func.value, ast.Name) and len(call.args) == 1:
        if call.func.attr == 'append':
            return call.func.value.id, [call.args[0]]
        if call.func.attr == 'extend' and isinstance(call.args[0], (ast.List, ast.Tuple)):
            return call.func.value.id, list(call.args[0].elts)
    return None, []


def _helper_nodes(tree: ast.Module, call: ast.Call, helper: Helper, read: LaunchRead,
                  context: Tuple[Mapping[str, str], Optional[Mapping[str, Any]], str, str],
                  parents: Dict[int, ast.AST], outer: Tuple[ast.stmt, ...] = ()) -> None:
    """
    Add the nodes a call of an imported helper starts, evaluated as the launch runs it.

    The helper's body, its parameters bound to the call's arguments, is read beside the launch
    file's names, the module's own and the bodies of the helpers it is called from (outer);
    its nodes and includes are placed at the call, under its conditions, and the module's
    functions it calls are read so in turn. A helper that is not plain is named as what may
    start nodes.
    """
    body = inlined(helper, call)
    if body is None:
        read.unread.append(('{}() of {}{}'.format(
            ast.unparse(call.func), helper.file, '' if helper.function is None
            else ', not a plain function of named parameters'), call.lineno))
        return
    packages, given, path, file = context
    evaluator = Evaluator(ast.Module(body=list(tree.body) + list(helper.assigns) + list(outer)
                                     + [body], type_ignores=[]), packages, given, path=path)
    chained = {**parents, **_parents(body)}
    chained[id(body)] = call  # the call's conditions hold around the helper's nodes
    for inner in ast.walk(body):
        if not isinstance(inner, ast.Call):
            continue
        _started(evaluator, inner, (chained, file), read)
        called = helper.inner(inner)
        if called is not None and len(outer) < MAX_HELPER_DEPTH:
            _helper_nodes(tree, inner, called, read, context, chained, outer + (body,))


def _started(evaluator: Evaluator, call: ast.Call, place: Tuple[Dict[int, ast.AST], str],
             read: LaunchRead) -> None:
    """Add what one call starts (an include, a node) under its conditions; off if one is false."""
    parents, file = place
    if _name(call.func) == INCLUDE:
        branch = _branch(evaluator, call, parents, file)
        read.includes.append(replace(_include(evaluator, call, file, branch is not None),
                                     branch=branch or ()))
    node = _launched(evaluator, call, file)
    if node is None:
        return
    branch = _branch(evaluator, call, parents, file)
    node.branch = branch or ()
    (read.nodes if branch is not None else read.switched_off).append(node)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _launched(evaluator: Evaluator, call: ast.Call, file: str) -> Optional[LaunchedNode]:
    """Return the node a Node(...) call starts, or an ExecuteProcess's static publisher."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    if _name(call.func) == PROCESS and 'cmd' in keywords:
        return _static_process(_tokens(evaluator, keywords['cmd']), Where(file, call.lineno))
    if _name(call.func) not in NODE_CALLS:
        return None
    node = LaunchedNode(_keyword(evaluator, keywords, 'package'),
                        _keyword(evaluator, keywords, 'executable', 'node_executable',
                                 'plugin'),
                        _keyword(evaluator, keywords, 'name', 'node_name'),
                        Where(file, call.lineno),
                        _keyword(evaluator, keywords, 'namespace', 'node_namespace') or '')
    if 'arguments' in keywords:
        node.arguments = _tokens(evaluator, keywords['arguments'])
    if 'parameters' in keywords:
        _parameters(evaluator, keywords['parameters'], node, file)
    if 'remappings' in keywords:
        pairs = evaluator.value(keywords['remappings'])
        node.remappings = [tuple(pair) for pair in pairs if isinstance(pair, list)
                           and len(pair) == 2] if isinstance(pairs, list) else []
    return node


def _static_process(cmd: List[Token], where: Where) -> Optional[LaunchedNode]:
    """
    Return the static_transform_publisher a command line runs, or None for another process.

    ExecuteProcess(cmd=['/opt/ros/humble/lib/tf2_ros/static_transform_publisher', '--frame-id',
    ...]) or cmd=['ros2', 'run', 'tf2_ros', 'static_transform_publisher', ...] (an underwater
    vehicle's bringup) sends the same transform as the Node would.
    """
    for at, token in enumerate(cmd):
        if isinstance(token.value, str) and token.value.rsplit('/', 1)[-1] == STATIC_PUBLISHER:
            return LaunchedNode('tf2_ros', STATIC_PUBLISHER, None, where,
                                arguments=list(cmd[at + 1:]))
    return None


def _unused_names(tree: ast.AST) -> Set[str]:
    """Return the names a file assigns and never reads."""
    read = {n.id for n in ast.walk(tree)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)} - read


def _never_used(call: ast.Call, parents: Dict[int, ast.AST], unused: Set[str]) -> bool:
    """Return whether a call is assigned to names that nothing reads: the launch never runs it."""
    above = parents.get(id(call))
    return isinstance(above, ast.Assign) and above.value is call and all(
        isinstance(target, ast.Name) and target.id in unused for target in above.targets)


def _position(node: ast.AST) -> tuple:
    if isinstance(node, ast.withitem):  # no line of its own: its expression's
        return (getattr(node.context_expr, 'lineno', 0), 0)
    return (getattr(node, 'lineno', None), getattr(node, 'col_offset', 0))
