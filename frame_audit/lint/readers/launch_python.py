# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Python launch files, read with `ast` and never run: their nodes, includes and parameters.

Values come from the evaluator (launch_evaluator.py), conditions from launch_conditions.py; a
robot description read from a file, by xacro or by Command(['xacro ', ...]) is followed.
"""
import ast
from dataclasses import replace
from typing import AbstractSet, Any, Dict, List, Mapping, Optional, Set, Tuple

from .launch_conditions import branch_of, needs, parent_map
from .launch_evaluator import Evaluator
from .launch_imports import called_functions, Helper, helper_calls, imported_helpers, \
    inlined
from .launch_values import called_name, position
from ..model import are_exclusive, Branch, BuiltAtLaunch, Include, LaunchedNode, LaunchRead, \
    Param, Token, Unpacked, Unresolved, Where

NODE_CALLS = ('Node', 'LifecycleNode', 'ComposableNode')
PROCESS = 'ExecuteProcess'
STATIC_PUBLISHER = 'static_transform_publisher'
INCLUDE = 'IncludeLaunchDescription'
MAX_HELPER_DEPTH = 4  # imported helpers that call functions of their module, one in another

ENTRIES = ('generate_launch_description',  # what `ros2 launch` calls
           'generate_test_description')  # and launch_testing


def _keyword(evaluator: Evaluator, keywords: Mapping[str, ast.expr], *names: str) -> Any:
    """Return the value of the first of these keywords that the call gives (old names too)."""
    return next((evaluator.value(keywords[n]) for n in names if n in keywords), None)


def _tokens(evaluator: Evaluator, expr: ast.expr) -> List[Token]:
    """
    Return a node's arguments, one token each.

    An element that is itself a list is one argument, its parts joined, as launch_ros
    performs a list of substitutions (`[robot_name, '/rplidar_link/rplidar']`); only a
    `*spread` gives several.
    """
    tokens: List[Token] = []
    for item in evaluator.items(expr):
        starred = isinstance(item, ast.Starred)
        value = evaluator.value(item.value if isinstance(item, ast.Starred) else item)
        if starred and not isinstance(value, list):
            value = Unpacked(ast.unparse(item))  # how many arguments: only the launch knows
        elif not starred and isinstance(value, list):
            value = ''.join(value) if all(isinstance(v, str) for v in value) else \
                Unresolved(ast.unparse(item))
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
                    node.inline_at[name] = len(node.param_files)  # a later file wins
        elif isinstance(target, ast.DictComp):  # {name: value for ... in rows}: no file
            node.param_files.append((BuiltAtLaunch(ast.unparse(target.generators[0].iter)),
                                     Where(file, item.lineno)))
        else:
            value = evaluator.value(item)
            for one in value if isinstance(value, list) else [value]:  # {path}, [path]
                if isinstance(one, dict):  # a dict by name: `overrides = {}`, then an if
                    for name, given in _flattened(one):
                        node.inline[name] = Param(name, given, Where(file, item.lineno))
                        node.inline_at[name] = len(node.param_files)
                else:
                    node.param_files.append((one, Where(file, item.lineno)))


def _flattened(values: Dict[Any, Any], prefix: str = '') -> List[Tuple[str, Any]]:
    """Return a parameter dict's names as launch_ros gives them: nested keys dotted."""
    found = []
    for key, value in values.items():
        name = prefix + str(key)
        found += _flattened(value, name + '.') if isinstance(value, dict) else [(name, value)]
    return found


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


def _include(evaluator: Evaluator, call: ast.Call, file: str, runs: bool) -> Include:
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    source = call.args[0] if call.args else keywords.get('launch_description_source')
    source = evaluator.follow(source) if source is not None else None
    if isinstance(source, ast.Call) \
            and called_name(source.func).endswith('LaunchDescriptionSource'):
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
    helpers = imported_helpers(tree, file, path)
    evaluator = Evaluator(tree, packages, given, path=path,
                          imported=called_functions(tree, helpers))
    parents = evaluator.parents  # the tree's, mapped once
    overwritten = _overwritten(tree)
    unused = _unused_names(tree, parents, overwritten)
    read = LaunchRead()
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and not _never_used(call, parents, unused, overwritten):
            _started(evaluator, call, (parents, file), read)  # else its use is commented out
    read.nodes += _added_again(evaluator, tree, parents, file)
    read.imported = sorted({h.file for h in helpers.values() if h.function is not None})
    for call, helper in helper_calls(tree, helpers):
        if not _never_used(call, parents, unused, overwritten):
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
                            key=position):
        target, items = _list_growth(statement)
        if target is None:
            continue
        if isinstance(statement, ast.Assign):
            held[target] = {}
        added = branch_of(evaluator, statement, parents, file)
        for item in items:
            call = evaluator.follow(item)
            if added is None or not isinstance(item, ast.Name) or not isinstance(
                    call, ast.Call) or called_name(call.func) not in NODE_CALLS:
                continue
            first, branch = held.setdefault(target, {}).setdefault(item.id, (statement, added))
            node = _launched(evaluator, call, file)
            own = branch_of(evaluator, call, parents, file)
            if first is not statement and not are_exclusive(branch, added) and node is not None \
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
    chained = {**parents, **parent_map(body)}
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
    if called_name(call.func) == INCLUDE:
        branch = branch_of(evaluator, call, parents, file)
        read.includes.append(replace(_include(evaluator, call, file, branch is not None),
                                     branch=branch or (),
                                     needs=() if branch is not None else needs(evaluator, call)))
    node = _launched(evaluator, call, file)
    if node is None:
        return
    branch = branch_of(evaluator, call, parents, file)
    node.branch = branch or ()
    (read.nodes if branch is not None else read.switched_off).append(node)


def _launched(evaluator: Evaluator, call: ast.Call, file: str) -> Optional[LaunchedNode]:
    """Return the node a Node(...) call starts, or an ExecuteProcess's static publisher."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    if called_name(call.func) == PROCESS and 'cmd' in keywords:
        return _static_process(_tokens(evaluator, keywords['cmd']), Where(file, call.lineno))
    if called_name(call.func) not in NODE_CALLS:
        return None
    node = LaunchedNode(_keyword(evaluator, keywords, 'package'),
                        _keyword(evaluator, keywords, 'executable', 'node_executable',
                                 'plugin'),
                        _keyword(evaluator, keywords, 'name', 'node_name'),
                        Where(file, call.lineno),
                        _keyword(evaluator, keywords, 'namespace', 'node_namespace') or '',
                        component=called_name(call.func) == 'ComposableNode')
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


def _unused_names(tree: ast.AST, parents: Dict[int, ast.AST],
                  overwritten: AbstractSet[int]) -> Set[str]:
    """
    Return the names a file assigns and nothing live reads.

    A read inside what is assigned to an unused name is no read: a Node handed to an event
    handler (`on_exit=[rviz]`) whose own place in the returned list is commented out never
    starts either. A function of the file (not a class's) is such a name too: one nothing
    live calls (an old helper left in the file) starts nothing.
    """
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
              and isinstance(n.ctx, ast.Store)} | {
        f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
        and f.name not in ENTRIES
        and isinstance(parents.get(id(f)), (ast.Module, ast.FunctionDef))}
    loads = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    unused: Set[str] = set()
    while True:
        found = stored - {n.id for n in loads
                          if not _never_used(n, parents, unused, overwritten)}
        if found == unused:
            return unused
        unused = found


def _overwritten(tree: ast.AST) -> Set[int]:
    """
    Return the ids of the assignments whose name is assigned anew before anything reads it.

    `rviz = Node(...)` then, further down the same block, `rviz = Node(...)` with no read in
    between: only the second is ever added. A read or an assignment under a branch in
    between leaves the first live. One pass over each block.
    """
    dead: Set[int] = set()
    blocks = [getattr(node, field) for node in ast.walk(tree)
              for field in ('body', 'orelse', 'finalbody')
              if isinstance(getattr(node, field, None), list)]
    for block in blocks:
        pending: Dict[str, ast.stmt] = {}  # a name's last plain assignment, not yet read
        for statement in block:
            names = [n for n in ast.walk(statement) if isinstance(n, ast.Name)] \
                if pending else []  # nothing waits to be read: no need to look inside
            loaded = {n.id for n in names if isinstance(n.ctx, ast.Load)}
            plain = {t.id for t in statement.targets if isinstance(t, ast.Name)} \
                if isinstance(statement, ast.Assign) else set()
            for name in {n.id for n in names} & pending.keys():
                earlier = pending.pop(name)
                if name not in loaded and name in plain:
                    dead.add(id(earlier))
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name):
                pending[statement.targets[0].id] = statement
    return dead


def _never_used(expression: ast.expr, parents: Dict[int, ast.AST], unused: Set[str],
                overwritten: AbstractSet[int]) -> bool:
    """
    Return whether an expression is assigned to names nothing reads, or in such a function.

    overwritten: the assignments whose value is replaced before any read (_overwritten).
    """
    above = parents.get(id(expression))
    while above is not None and not isinstance(above, ast.stmt):
        above = parents.get(id(above))
    if isinstance(above, ast.Assign) and all(
            isinstance(target, ast.Name) and target.id in unused for target in above.targets):
        return True
    if id(above) in overwritten:
        return True
    while above is not None and not isinstance(above, ast.FunctionDef):
        above = parents.get(id(above))
    return isinstance(above, ast.FunctionDef) and above.name in unused
