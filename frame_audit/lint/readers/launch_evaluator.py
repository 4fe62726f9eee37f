# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A Python launch file's expressions computed statically, from the file and the workspace.

Values are computed the way the launch would compute them where that needs no running launch:
literals, names assigned in the file, os.path.join, PathJoinSubstitution, pathlib's `/`,
Path(a, b, c) and joinpath, get_package_share_directory and FindPackageShare (a package of the
workspace), FindExecutable, LaunchConfiguration: the value the launch is given, else its
DeclareLaunchArgument default (also as an OpaqueFunction's context performs it,
`context.perform_substitution(x)`, `context.launch_configurations['x']`), and the data of a
YAML file of the workspace it loads.
Anything else is Unresolved.
"""
import ast
import copy
import math
import os
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple

import yaml

from .launch_conditions import condition_holds, if_truth, parent_map
from .launch_values import ARITHMETIC, called_name, command_description, expression_value, \
    is_number, outside, position, truth
from .markup import load_yaml
from ..model import Description, Unresolved

CONSTANTS = {'math.pi': math.pi, 'math.tau': math.tau, 'np.pi': math.pi, 'numpy.pi': math.pi}
MAX_STEPS = 200000  # expression evaluations per launch file
BRANCHING = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
             ast.Match, ast.match_case, ast.ExceptHandler)  # what runs a statement maybe
MAX_VALUE = 100000  # characters (or items) in one computed value
MUTATORS = ('update', 'setdefault', 'pop', 'append', 'extend', 'insert', 'remove', 'clear')


class Evaluator:
    """Computes a launch file's expressions statically, from the file and the workspace."""

    def __init__(self, tree: ast.AST, packages: Mapping[str, str],
                 given: Optional[Mapping[str, Any]] = None,
                 calls: Optional[Mapping[str, Callable[[ast.Call], Any]]] = None,
                 path: str = '', imported: Sequence[ast.stmt] = ()):
        """
        Index the file's assignments and launch arguments; given holds the values passed.

        imported: the functions the file imports from its package's modules and calls (each
        named as the file calls it), with those modules' own assignments: what they return
        and the launch arguments they declare are the file's.
        """
        if imported:
            tree = ast.Module(body=list(getattr(tree, 'body', [])) + list(imported),
                              type_ignores=[])
        self.packages = packages
        self.path = path
        self.given = dict(given or {})
        self.assigned: Dict[str, ast.expr] = {}
        self.ambiguous: Set[str] = set()  # assigned twice (branches): only a run knows which
        self.defaults: Dict[str, ast.expr] = {}
        self.active: Set[str] = set()
        self.steps = 0  # a file built to re-evaluate names without bound meets a budget
        self.sites: Dict[str, List[ast.Assign]] = {}  # each name's assignments, in order
        # what the names below decide is unknown until they are (reads during this indexing)
        self.branched: Set[str] = set()
        self.mutated: Set[str] = set()
        self.changes: Dict[str, List[ast.stmt]] = {}  # each name's changes in place, in order
        self.returns: Dict[str, Tuple[List[str], ast.expr]] = {}
        self.parents = parent_map(tree)
        for node in sorted((n for n in ast.walk(tree)
                            if isinstance(n, (ast.Assign, ast.Call, ast.withitem,
                                              ast.ImportFrom))),
                           key=lambda n: position(n)):
            if isinstance(node, ast.ImportFrom):  # from math import pi as PI: a constant
                for alias in node.names:
                    known = '{}.{}'.format(node.module, alias.name)
                    if known in CONSTANTS:
                        self._assign(alias.asname or alias.name,
                                     ast.parse(known, mode='eval').body)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                self._assign(node.targets[0].id, node.value)
                self.sites.setdefault(node.targets[0].id, []).append(node)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], (ast.Tuple, ast.List)):
                self._unpack(node)
            elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
                self._assign(node.optional_vars.id, node.context_expr)
            elif isinstance(node, ast.Call) and called_name(node.func) == 'DeclareLaunchArgument':
                self._declare(node)
        self.branched = {name for name, sites in self.sites.items()  # assigned again, maybe
                         if any(self._holds(site, guarded=False) is None for site in sites[1:])}
        functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
        # a helper of this file that returns once, at its end (quadruped's `process_xacro()`,
        # a hexapod's `_cfg(pkg, robot)`): its call is what it returns, its names read in its
        # own scope, its parameters standing for the call's arguments
        self.returns = {
            name: ([a.arg for a in f.args.args], f.body[-1].value)
            for name, f in functions.items()
            if not (f.args.posonlyargs or f.args.kwonlyargs or f.args.vararg or f.args.kwarg
                    or f.args.defaults)
            and isinstance(f.body[-1], ast.Return)
            and f.body[-1].value is not None
            and sum(isinstance(n, ast.Return) for n in ast.walk(f)) == 1}
        self.inside: Set[str] = set()  # helpers being followed: one calling itself is unknown
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and called_name(call.func) == 'OpaqueFunction':
                self._bind(call, functions)
        self.calls: Dict[str, Callable[[ast.Call], Any]] = {
            'join': self._join, 'PathJoinSubstitution': self._path_join,
            'get_package_share_directory': self._share, 'FindPackageShare': self._share,
            'get_package_share_path': self._share, 'parse': self._xacro_parse,
            'FindExecutable': self._executable, 'ExecutableInPackage': self._executable,
            'LaunchConfiguration': self._launch_argument, 'TextSubstitution': self._text,
            'ParameterFile': self._first, 'str': self._first, 'Path': self._join,
            'joinpath': self._joinpath,
            'ParameterValue': self._first, 'perform': self._receiver, 'toxml': self._receiver,
            'perform_substitution': self._first,  # context.perform_substitution(x): x's value
            'RewrittenYaml': self._rewritten, 'ReplaceString': self._replaced,
            'find': self._find,  # FindPackageShare(p).find(p): the share folder
            'EqualsSubstitution': self._logic, 'NotEqualsSubstitution': self._logic,
            'AndSubstitution': self._logic, 'OrSubstitution': self._logic,
            'NotSubstitution': self._logic,
            'toprettyxml': self._receiver, 'split': self._split, 'items': self._items,
            'open': self._description, 'read': self._read, 'read_text': self._read,
            'process_file': self._description, 'Command': self._command,
            'PythonExpression': self._python_expression, 'dirname': self._dirname,
            'safe_load': self._yaml, 'load': self._yaml, 'full_load': self._yaml,
            'get': self._get, 'sub': self._mesh_paths, 'getenv': self._environment,
            'EnvironmentVariable': self._environment,
            'ThisLaunchFileDir': lambda call: os.path.dirname(self.path) if self.path else
            Unresolved(ast.unparse(call)), 'abspath': self._first, 'realpath': self._first,
            **(calls or {}),
        }
        changes = [(name, site) for name, site in _mutations(tree) if name in self.assigned]
        for name, site in sorted(changes, key=lambda change: position(change[1])):
            self.changes.setdefault(name, []).append(site)
        # an if's test that reads a name changed anywhere is not known while these are decided
        # (ZED's launch file: `nodes.append(...)` under a test of a name assigned twice)
        self.mutated = {name for name, _ in changes}
        self.mutated = {name for name, site in changes  # mappings['x'] = v
                        if not self._never_runs(site)}
        self.ambiguous |= self.mutated

    def _returned(self, name: str, call: ast.Call) -> Any:
        """Return what a helper of this file returns, its names read in its own scope."""
        if name in self.inside:
            return Unresolved(ast.unparse(call))
        self.inside.add(name)
        bound = [(parameter, given) for parameter, given in zip(self.returns[name][0], call.args)
                 if not (isinstance(given, ast.Name) and given.id == parameter)]
        # its own scope: `robot = resolve(context)[0]` and the helper's own `robot` are two
        active, self.active = self.active, set()
        try:
            return self._bound(bound, lambda: self.value(self.returns[name][1]))
        finally:
            self.inside.discard(name)
            self.active = active

    def _bound(self, pairs: List[Tuple[str, ast.expr]], run: Callable[[], Any]) -> Any:
        """Run with each parameter standing for its argument (a helper's call), one by one."""
        if not pairs:
            return run()
        (name, given), rest = pairs[0], pairs[1:]
        known = name in self.assigned
        saved = self.assigned.get(name), name in self.ambiguous, name in self.branched
        self.assigned[name] = given
        self.ambiguous.discard(name)
        self.branched.discard(name)
        try:
            return self._bound(rest, run)
        finally:
            if known:
                self.assigned[name] = saved[0]  # type: ignore[assignment]
            else:
                del self.assigned[name]
            if saved[1]:
                self.ambiguous.add(name)
            if saved[2]:
                self.branched.add(name)

    def _assign(self, name: str, value: ast.expr) -> None:
        """
        Hold a name's value; one assigned two values (branches, functions) only a run knows.

        The same expression twice (`share = get_package_share_directory('car')` in an
        OpaqueFunction's setup and in generate_launch_description) is one value.
        """
        previous = self.assigned.get(name)
        if previous is not None and any(isinstance(node, ast.Name) and node.id == name
                                        for node in ast.walk(value)):
            # Nav2's `params_file = ReplaceString(source_file=params_file, ...)`: the new value
            # reads the one before, in order: one value, built on the earlier
            self.assigned[name] = _Rebound(name, previous).visit(copy.deepcopy(value))
            return
        if previous is not None and ast.dump(value) != ast.dump(previous):
            self.ambiguous.add(name)
        self.assigned[name] = value

    def _unpack(self, node: ast.Assign) -> None:
        """
        Hold each name of `robot, namespace = resolve(context)` as an assignment of its own.

        A written tuple of as many items gives each its own; anything else, value[i].
        """
        targets, value = node.targets[0], node.value
        assert isinstance(targets, (ast.Tuple, ast.List))
        if not all(isinstance(t, ast.Name) for t in targets.elts):
            return
        written = value.elts if isinstance(value, (ast.Tuple, ast.List)) \
            and len(value.elts) == len(targets.elts) else None
        for index, target in enumerate(targets.elts):
            assert isinstance(target, ast.Name)
            item = written[index] if written is not None else ast.copy_location(ast.Subscript(
                value=value, slice=ast.Constant(index), ctx=ast.Load()), value)
            site = ast.copy_location(ast.Assign(targets=[target], value=item), node)
            site.end_lineno, site.end_col_offset = node.end_lineno, node.end_col_offset
            self.parents[id(site)] = self.parents[id(node)]  # it runs where the statement does
            self._assign(target.id, item)
            self.sites.setdefault(target.id, []).append(site)

    def _bind(self, call: ast.Call, functions: Mapping[str, ast.FunctionDef]) -> None:
        """
        Bind an OpaqueFunction's parameters to its args and kwargs, as launch calls it.

        `OpaqueFunction(function=stage, args=[namespace, imu_enable])` runs
        `stage(context, namespace, imu_enable)`: the parameters hold those expressions (a
        LaunchConfiguration with its default), not names only a run knows.
        """
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        function = keywords.get('function')
        defined = functions.get(function.id) if isinstance(function, ast.Name) else None
        if defined is None:
            return
        names = [a.arg for a in defined.args.args[1:]]  # the first is the launch context
        given = self.follow(keywords['args']) if 'args' in keywords else None
        pairs = list(zip(names, given.elts)) if isinstance(given, (ast.List, ast.Tuple)) else []
        named = self.follow(keywords['kwargs']) if 'kwargs' in keywords else None
        if isinstance(named, ast.Dict):
            pairs += [(key.value, value) for key, value in zip(named.keys, named.values)
                      if isinstance(key, ast.Constant) and key.value in names]
        for name, written in pairs:
            value = self.follow(written)
            if not (isinstance(value, ast.Name) and value.id == name):
                self._assign(name, value)

    def _declare(self, call: ast.Call) -> None:
        keywords = {k.arg: k.value for k in call.keywords}
        name = self.value(call.args[0]) if call.args else self.value(keywords.get('name'))
        default = keywords.get('default_value', call.args[1] if len(call.args) > 1 else None)
        if isinstance(name, str) and default is not None:
            self.defaults[name] = default

    def configurations(self) -> Dict[str, Any]:
        """Return every launch argument's value in this file: given, else its default."""
        found = {name: self._argument(default) for name, default in self.defaults.items()}
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
        if isinstance(expr, ast.Call) and called_name(expr.func) in self.calls:
            return self.calls[called_name(expr.func)](expr)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) \
                and expr.func.id in self.returns and not expr.keywords \
                and not any(isinstance(a, ast.Starred) for a in expr.args) \
                and len(expr.args) == len(self.returns[expr.func.id][0]):
            return self._returned(expr.func.id, expr)
        if isinstance(expr, ast.Attribute) and ast.unparse(expr) in CONSTANTS:
            return CONSTANTS[ast.unparse(expr)]
        if isinstance(expr, ast.Attribute) and expr.attr == 'launch_configurations' \
                and isinstance(expr.value, ast.Name):  # an OpaqueFunction's context's
            return self.configurations()
        if isinstance(expr, ast.Subscript):  # config['car']['ros__parameters']['algorithm']
            return self._item(self.value(expr.value), self.value(expr.slice), expr)
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(
                expr.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):  # those if_truth decides
            holds = if_truth(self, expr)  # debug = LaunchConfiguration('debug')...== 'true'
            return Unresolved(ast.unparse(expr)) if holds is None else holds
        if isinstance(expr, ast.IfExp):  # 'true' if sim.perform(context) == 'true' else 'false'
            holds = if_truth(self, expr.test)
            return Unresolved(ast.unparse(expr)) if holds is None else \
                self.value(expr.body if holds else expr.orelse)
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
            number = self.value(expr.operand)
            return -number if is_number(number) else Unresolved(ast.unparse(expr))
        return Unresolved(ast.unparse(expr))

    def follow(self, expr: ast.expr) -> ast.expr:
        """Return the expression a name stands for (through assignments), else expr itself."""
        seen: Set[str] = set()
        while isinstance(expr, ast.Name) and expr.id in self.assigned and expr.id not in seen:
            seen.add(expr.id)
            if expr.id not in self.ambiguous:
                expr = self.assigned[expr.id]
                continue
            grown = self._grown(expr) if expr.id in self.mutated \
                and expr.id not in self.active else None
            if grown is None:
                break
            expr = grown
        return expr

    def _variable(self, expr: ast.Name) -> Any:
        if expr.id == '__file__' and self.path:
            return self.path
        if expr.id not in self.assigned or expr.id in self.active:
            return Unresolved(expr.id)
        self.active.add(expr.id)
        try:
            value = self._opened(expr) if expr.id in self.ambiguous else None
            if value is None and expr.id in self.mutated:
                value = self._grown(expr)
            if value is None and expr.id in self.branched:
                value = self._flowed(expr.id, expr)
            if value is None and expr.id in self.ambiguous:
                value = self._scoped(expr.id, expr)
            if value is None and expr.id not in self.ambiguous:
                value = self.assigned[expr.id]
            return Unresolved(expr.id) if value is None else self.value(value)
        finally:
            self.active.discard(expr.id)

    def _looped(self, node: ast.AST) -> bool:
        """Return whether a statement or expression runs in a loop of its function."""
        above = self.parents.get(id(node))
        while above is not None and not isinstance(above, (ast.FunctionDef, ast.Module)):
            if isinstance(above, (ast.For, ast.AsyncFor, ast.While)):
                return True
            above = self.parents.get(id(above))
        return False

    def _flowed(self, name: str, read: ast.expr) -> Optional[ast.expr]:
        """
        Return a name's value where it is read (at): `ns = ''` then `if x != '/': ns = x`.

        Only in one function, each assignment before the read under no loop and under `if`s
        whose tests the launch's values decide (`if robot == 'orca': name = ... else: name =
        ...` too); else None. A read with no place of its own takes every assignment.
        """
        at = position(read)
        every = self.sites.get(name, [])
        sites = [site for site in every  # those done before the read
                 if at[0] is None or (site.end_lineno, site.end_col_offset) <= at]
        scopes = {self._scope(site) for site in sites}
        own = self._scope(read) if id(read) in self.parents else None
        if len(scopes) != 1 or not (own is None or own in scopes
                                    or isinstance(next(iter(scopes)), ast.Module)) \
                or (len(sites) < len(every) and self._looped(read)):
            return None  # a read in a loop also reads what the loop assigns after it
        chosen: Optional[ast.expr] = None
        for site in sites:
            holds = self._holds(site) if chosen is None else \
                self._as(name, chosen, lambda: self._holds(site))
            if holds is None:
                return None
            if holds:  # `alg = Node(executable=f'{alg}_policy')` reads the value so far
                chosen = site.value if chosen is None else \
                    _Rebound(name, chosen).visit(copy.deepcopy(site.value))
        return chosen

    def _opened(self, read: ast.Name) -> Optional[ast.expr]:
        """
        Return what the `with ... as name:` around a read binds (its block's own handle).

        `with open(a) as f:` then `with open(b) as f:` (urg_node2's launch): each block reads
        its own f, unless the block assigns the name again.
        """
        node: ast.AST = read
        above = self.parents.get(id(node))
        while above is not None and not isinstance(above, (ast.FunctionDef, ast.Module)):
            if isinstance(above, (ast.With, ast.AsyncWith)) \
                    and not any(node is item for item in above.items):
                for item in above.items:
                    if isinstance(item.optional_vars, ast.Name) \
                            and item.optional_vars.id == read.id:
                        again = any(isinstance(n, ast.Name) and n.id == read.id
                                    and isinstance(n.ctx, ast.Store)
                                    for statement in above.body for n in ast.walk(statement))
                        return None if again else item.context_expr
            node, above = above, self.parents.get(id(above))
        return None

    def _grown(self, read: ast.expr) -> Optional[ast.expr]:
        """
        Return a list as it stands where it is read, grown by `append` and `extend`.

        `parameters = [a]` then `if extra: parameters.append(b)` (a hexapod's launch): one
        plain assignment, then each change in place in the same function under no loop and
        under `if`s the launch's values decide; any other change, or one elsewhere: None.
        """
        assert isinstance(read, ast.Name)
        at = position(read)
        sites = self.sites.get(read.id, [])
        if at[0] is None or len(sites) != 1 or not isinstance(sites[0].value, ast.List) \
                or self._holds(sites[0], guarded=False) is not True:
            return None
        scope = self._scope(sites[0])
        items = list(sites[0].value.elts)
        for site in self.changes.get(read.id, []):
            if (site.end_lineno, site.end_col_offset) > at:
                continue  # after the read: the node took a copy of the list
            call = site.value if isinstance(site, ast.Expr) else None
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) \
                    or call.func.attr not in ('append', 'extend') or len(call.args) != 1 \
                    or call.keywords or self._scope(site) is not scope:
                return None
            holds = self._holds(site)
            if holds is None:
                return None
            if holds:
                items += [call.args[0]] if call.func.attr == 'append' else self.items(call.args[0])
        return ast.List(elts=items, ctx=ast.Load())

    def _scoped(self, name: str, read: ast.expr) -> Optional[ast.expr]:
        """
        Return a name's value in the function that reads it, as Python's scopes give it.

        `pkg_share` assigned once in generate_launch_description and again as a local of a
        helper is, where generate_launch_description reads it, its own; a function that
        does not assign it reads the module's. Where that is not one plain assignment, None.
        """
        scope = self._scope(read) if id(read) in self.parents else None
        if scope is None or name in self.mutated:
            return None
        sites = self.sites.get(name, [])
        here = [site for site in sites if self._scope(site) is scope] or \
            [site for site in sites if isinstance(self._scope(site), ast.Module)]
        return here[0].value if len(here) == 1 and \
            self._holds(here[0], guarded=False) is True else None

    def _as(self, name: str, value: ast.expr, run: Callable[[], Any]) -> Any:
        """Run with a name standing for one value: `elif f'{alg}' != 'rl'` reads alg so far."""
        saved = self.assigned[name], name in self.ambiguous, name in self.active
        self.assigned[name] = value
        self.ambiguous.discard(name)
        self.active.discard(name)
        try:
            return run()
        finally:
            self.assigned[name] = saved[0]
            if saved[1]:
                self.ambiguous.add(name)
            if saved[2]:
                self.active.add(name)

    def _never_runs(self, site: ast.stmt) -> bool:
        """Return whether an `if` around a statement is known false (loops inside it or not)."""
        node: ast.AST = site
        above = self.parents.get(id(node))
        while above is not None and not isinstance(above, (ast.FunctionDef, ast.Module)):
            if isinstance(above, ast.If) and node is not above.test:
                truth = if_truth(self, above.test)
                if truth is not None and truth != any(node is s for s in above.body):
                    return True
            node, above = above, self.parents.get(id(above))
        return False

    def _scope(self, node: ast.AST) -> Optional[ast.AST]:
        """Return the function (or module) a statement runs in."""
        above = self.parents.get(id(node))
        while above is not None and not isinstance(above, (ast.FunctionDef, ast.Module)):
            above = self.parents.get(id(above))
        return above

    def _holds(self, site: ast.stmt, guarded: bool = True) -> Optional[bool]:
        """Return whether a statement runs: its `if`s decided (None: unknown, or a loop)."""
        node: ast.AST = site
        above = self.parents.get(id(node))
        while above is not None and not isinstance(above, (ast.FunctionDef, ast.Module)):
            if isinstance(above, ast.If) and guarded and node is not above.test:
                truth = if_truth(self, above.test)
                if truth is None:
                    return None
                if truth != any(node is s for s in above.body):
                    return False
            elif isinstance(above, BRANCHING):
                return None
            node, above = above, self.parents.get(id(above))
        return True

    def _binary(self, expr: ast.BinOp) -> Any:
        left, right = self.value(expr.left), self.value(expr.right)
        if is_number(left) and is_number(right) and type(expr.op) in ARITHMETIC \
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

    def _joinpath(self, call: ast.Call) -> Any:
        """Return Path(a).joinpath(b, c) as a/b/c."""
        if not isinstance(call.func, ast.Attribute):
            return Unresolved(ast.unparse(call))
        parts = [self.value(call.func.value)] + [self.value(arg) for arg in call.args]
        if all(isinstance(part, str) for part in parts):
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
        """
        Return FindExecutable(name='xacro') as the command's name (its folder says nothing).

        ExecutableInPackage('xacro', 'xacro') too: its first argument is the executable.
        """
        keywords = {k.arg: k.value for k in call.keywords}
        name = self.value(call.args[0] if call.args else
                          keywords.get('name', keywords.get('executable')))
        return name if isinstance(name, str) else Unresolved(ast.unparse(call))

    def _launch_argument(self, call: ast.Call) -> Any:
        name = self.value(call.args[0]) if call.args else None
        if isinstance(name, str) and name in self.given:
            return self.given[name]
        keywords = {k.arg: k.value for k in call.keywords}
        default = self.defaults.get(name) if isinstance(name, str) else None
        default = keywords.get('default', default)
        return Unresolved(ast.unparse(call)) if default is None else self._argument(default)

    def _argument(self, default: ast.expr) -> Any:
        """
        Return a launch argument's default as launch holds it: one string.

        A list of substitutions (`[TextSubstitution(share + '/config/'), joy_config, '.yaml']`)
        is performed and concatenated, never a list of three files.
        """
        value = self.value(default)
        return self._concatenate(value, default) if isinstance(value, list) else value

    def _logic(self, call: ast.Call) -> Any:
        """Return EqualsSubstitution, And..., Or..., Not... as the text launch makes of them."""
        values = [self.value(arg) for arg in call.args]
        kind = called_name(call.func)
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

    def _find(self, call: ast.Call) -> Any:
        """Return FindPackageShare(p).find(q): q's share (find names its own package)."""
        made = call.func.value if isinstance(call.func, ast.Attribute) else None
        if isinstance(made, ast.Call) and call.args \
                and called_name(made.func) == 'FindPackageShare':
            return self._share(ast.Call(func=made.func, args=call.args[:1], keywords=[]))
        return self._receiver(call)

    def _items(self, call: ast.Call) -> Any:
        mapping = self._receiver(call)
        return [[k, v] for k, v in mapping.items()] if isinstance(mapping, dict) else \
            Unresolved(ast.unparse(call))

    def _description(self, call: ast.Call) -> Any:
        """Return open(path) or xacro.process_file(path, mappings=...) as a Description."""
        path = self.value(call.args[0]) if call.args else None
        keywords = {k.arg: k.value for k in call.keywords}
        mappings = self.value(keywords['mappings']) if 'mappings' in keywords else {}
        if not isinstance(path, str) or not isinstance(mappings, dict) or any(
                isinstance(v, (Unresolved, list, dict)) for v in mappings.values()):
            return Unresolved(ast.unparse(call))  # never a name's text handed to xacro
        return Description(path, tuple((str(k), str(v)) for k, v in mappings.items()))

    @staticmethod
    def _item(container: Any, key: Any, expr: ast.expr) -> Any:
        """Return container[key] where both are known, else Unresolved."""
        if isinstance(container, dict) and isinstance(key, (str, int, float, bool)) \
                and key in container:
            return container[key]
        if isinstance(container, list) and isinstance(key, int) and -len(container) <= key \
                < len(container):
            return container[key]
        return Unresolved(ast.unparse(expr))

    def _xacro_parse(self, call: ast.Call) -> Any:
        """
        Return xacro.parse(open(path)) as the description: xacro.process_doc(doc) expands it.

        A process_doc given mappings changes the document in place: that name is then
        unknown (_mutations), never expanded without them.
        """
        source = self.value(call.args[0]) if call.args and isinstance(call.func, ast.Attribute) \
            and ast.unparse(call.func.value) == 'xacro' else None
        return source if isinstance(source, Description) else Unresolved(ast.unparse(call))

    def _environment(self, call: ast.Call) -> Any:
        """
        Return an environment variable as the launch reads it where it is unset: its default.

        os.environ.get('X', d), os.getenv('X', d), EnvironmentVariable('X', default_value=d):
        the file's own default, read as a launch argument's is; with none, only the running
        launch knows.
        """
        keywords = {k.arg: k.value for k in call.keywords}
        default = call.args[1] if len(call.args) > 1 else keywords.get(
            'default_value', keywords.get('default'))
        value = self.value(default) if default is not None else None
        return value if isinstance(value, str) else Unresolved(ast.unparse(call))

    def _mesh_paths(self, call: ast.Call) -> Any:
        """
        Return re.sub(r'package://...', repl, urdf) as urdf: it rewrites mesh URIs, no frame.

        A launch that hands a simulator or RViz file:// paths rewrites the description's
        `package://` URIs; any other pattern may touch a frame name: only the launch knows.
        """
        pattern = self.value(call.args[0]) if len(call.args) == 3 else None
        if isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) == 're' \
                and isinstance(pattern, str) and pattern.startswith('package://'):
            return self.value(call.args[2])
        return Unresolved(ast.unparse(call))

    def _get(self, call: ast.Call) -> Any:
        """Return a known dict's .get(key, default); os.environ's: its default (else unknown)."""
        if isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) == 'os.environ':
            return self._environment(call)
        container = self._receiver(call)
        key = self.value(call.args[0]) if call.args else None
        if not isinstance(container, dict) or not isinstance(key, (str, int, float, bool)):
            return Unresolved(ast.unparse(call))
        return container[key] if key in container else \
            self.value(call.args[1]) if len(call.args) > 1 else None

    def _yaml(self, call: ast.Call) -> Any:
        """
        Return yaml.safe_load(open(path)) (or load, full_load) of a workspace file: its data.

        A launch file that reads its own package's YAML (an algorithm, a flag) decides by it.
        Only a file under a workspace package's share is read, bounded as build files are.
        """
        from .install import build_file  # install reads setup.py through this evaluator

        source = self.value(call.args[0]) if call.args and isinstance(call.func, ast.Attribute) \
            and ast.unparse(call.func.value) == 'yaml' else None
        path = os.path.normpath(source.path) if isinstance(source, Description) else None
        text = build_file(Path(path)) if path is not None and any(
            path.startswith(share + os.sep) for share in self.packages.values()) else None
        try:
            return Unresolved(ast.unparse(call)) if text is None else load_yaml(text)
        except (yaml.YAMLError, ValueError, RecursionError):
            return Unresolved(ast.unparse(call))

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


def _mutations(tree: ast.AST) -> List[Tuple[str, ast.stmt]]:
    """Return each statement that changes a named dict or list in place, with the name."""
    found: List[Tuple[str, ast.stmt]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [(t.value.id, node) for t in targets
                      if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) \
                and isinstance(node.value.func.value, ast.Name) \
                and node.value.func.attr in MUTATORS:
            found.append((node.value.func.value.id, node))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and called_name(node.value.func) == 'process_doc' and node.value.args \
                and isinstance(node.value.args[0], ast.Name) \
                and (len(node.value.args) > 1 or node.value.keywords):
            found.append((node.value.args[0].id, node))  # xacro.process_doc(doc, mappings=m)
    return found


class _Rebound(ast.NodeTransformer):
    """Put a name's earlier value where its new value reads the name (a rebinding)."""

    def __init__(self, name: str, earlier: ast.expr):
        """Replace name with earlier."""
        self.name = name
        self.earlier = earlier

    def visit_Name(self, node: ast.Name) -> ast.expr:  # noqa: N802 (ast's visitor names)
        """Return the earlier value for the name, a copy per place."""
        return copy.deepcopy(self.earlier) if node.id == self.name else node
