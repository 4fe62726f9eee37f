# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
XML and YAML launch files (ROS 2, and ROS 1's XML): their nodes, includes and parameters.

Both frontends describe the same actions, so a YAML launch file is read as the elements its
XML twin would have. Substitutions are resolved where the files themselves say the value:
$(find-pkg-share pkg) and $(find pkg) for a package of the workspace, $(var name) and
$(arg name) from the value given, an <arg>'s default or a <let>. `if`/`unless` are evaluated
where their value is known; groups scope their arguments. Anything else is Unresolved.
"""
import ast
from dataclasses import replace
import os
import re
import shlex
from typing import Any, Dict, List, Mapping, Optional, Tuple

import yaml

from .launch_values import command_description, expression_value, outside, truth
from .markup import Element, LinedDict, LinedList
from .params import yaml_text
from ..model import Branch, DESCRIPTION, Include, LaunchedNode, LaunchRead, Param, Token, \
    Unresolved, Where

SUBSTITUTION = re.compile(r'\$\(([\w-]+)((?:\s[^$()]*)?)\)')  # one without another inside
PACKAGE_SUBSTITUTIONS = ('find-pkg-share', 'find')  # ROS 1's find: the source folder
ARGUMENT_SUBSTITUTIONS = ('var', 'arg')
ONE_ARGUMENT = re.compile(r'\$\((?:var|arg)\s+([\w-]+)\s*\)')  # if="$(var offline)"
ARGUMENT_EQUALS = (  # if="$(eval '\'$(var mode)\' == \'mapping\'')", ROS 1's arg('mode') == ...
    re.compile(r"\$\(eval\s+'\\'\$\((?:var|arg)\s+([\w-]+)\)\\'\s*==\s*\\'([^'\\]*)\\''\s*\)"),
    re.compile(r"\$\(eval\s+arg\('([\w-]+)'\)\s*==\s*'([^']*)'\s*\)"))
NODES = ('node', 'lifecycle_node', 'composable_node')
# ROS 1's $(eval EXPR) is the whole attribute, its Python unquoted; ROS 2's quotes its text
ROS1_EVAL = re.compile(r'\$\(eval\s+([^\'"$\s][^$]*)\)', re.DOTALL)
ROS1_EVAL_NAMES = {'true': True, 'false': False, 'True': True, 'False': False}


class Substitutions:
    """Resolves $(...) in a launch file's strings from its arguments and the workspace."""

    def __init__(self, packages: Mapping[str, str], given: Optional[Mapping[str, Any]] = None,
                 path: str = '', folders: Optional[Mapping[str, str]] = None):
        """Start with the arguments the launch is given; packages maps name to share folder."""
        self.packages = packages
        self.path = path
        self.folders = folders or {}
        self.given = dict(given or {})
        self.arguments: Dict[str, Any] = dict(self.given)

    def declare(self, name: Any, default: Any, fixed: bool = False) -> None:
        """Record an <arg>'s default (a given value wins) or a <let>'s value (fixed)."""
        if isinstance(name, str) and default is not None \
                and (fixed or name not in self.given):
            self.arguments[name] = self.resolve(default)

    def _one(self, match: 're.Match[str]') -> str:
        kind, argument = match.group(1), match.group(2).strip().strip('\'"')
        if kind == 'find' and argument in self.folders:
            return self.folders[argument]
        if kind in PACKAGE_SUBSTITUTIONS and argument:
            return self.packages.get(argument, outside(argument))
        if kind in ARGUMENT_SUBSTITUTIONS and isinstance(self.arguments.get(argument), str):
            return self.arguments[argument]
        if kind == 'optenv' and len(argument.split(None, 1)) == 2:  # $(optenv X default)
            return match.group(2).strip().split(None, 1)[1]  # unset: the launch's own default
        if kind == 'dirname' and self.path:
            return os.path.dirname(self.path)
        if kind == 'eval':  # $(eval '\'$(var mode)\' == \'mapping\''): literals only
            value = expression_value(match.group(2).strip()[1:-1].replace(
                "\\'", "'").replace('\\"', '"'))
            if value is not None:
                return str(value)
        raise LookupError(match.group(0))

    def resolve(self, text: Any) -> Any:
        """Return text with its substitutions resolved, or Unresolved when one cannot be."""
        if not isinstance(text, str):
            return text
        ros1 = ROS1_EVAL.fullmatch(text.strip())
        if ros1 is not None:
            value = ros1_eval(ros1.group(1), self.arguments)
            return Unresolved(text) if value is None else value
        resolved = text
        try:
            for _ in range(100):  # innermost first: $(command 'xacro $(find-pkg-share p)/x')
                if SUBSTITUTION.search(resolved) is None:
                    return resolved
                if re.fullmatch(r'\$\(command\s[^$()]*\)', resolved.strip()):
                    return resolved.strip()
                resolved = SUBSTITUTION.sub(self._one, resolved, count=1)
        except LookupError:
            pass
        return Unresolved(text)

    def branch(self, element: Element) -> Optional[Branch]:
        """Return None when an element's if/unless is known false, else what is unknown."""
        unknown = []
        for key, wanted in (('if', True), ('unless', False)):
            if key not in element.attrib:
                continue
            verdict = truth(self.resolve(element.attrib[key]))
            if verdict is (not wanted):
                return None
            if verdict is None:
                unknown.append((element.attrib[key], wanted))
        return tuple(unknown)


def ros1_eval(expression: str, arguments: Mapping[str, Any]) -> Optional[str]:
    """
    Return what roslaunch's $(eval EXPR) gives: str() of EXPR, or None when it is not known.

    roslaunch takes the whole attribute as Python, each name an argument's value (or true,
    false) and arg('name') the same, converted as convert_value(..., 'auto') does: a number,
    a boolean, else the text. Only the literal operations expression_value knows are done.
    """
    try:
        tree = ast.parse(expression, mode='eval')
    except (SyntaxError, ValueError):
        return None

    def known(name: str) -> ast.Constant:
        value = arguments.get(name)
        if not isinstance(value, str):
            raise LookupError(name)
        return ast.Constant(_auto(value))

    class Arguments(ast.NodeTransformer):

        def visit_Call(self, node: ast.Call) -> ast.AST:
            if isinstance(node.func, ast.Name) and node.func.id == 'arg' and not node.keywords \
                    and len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
                return known(str(node.args[0].value))
            return self.generic_visit(node)

        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in ROS1_EVAL_NAMES:
                return ast.Constant(ROS1_EVAL_NAMES[node.id])
            return known(node.id)

    try:
        literal = ast.unparse(Arguments().visit(tree))
    except LookupError:
        return None
    value = expression_value(literal)
    return None if value is None else str(value)


def _auto(text: str) -> Any:
    """Return an argument as roslaunch's convert_value(text, 'auto'): number, bool or text."""
    try:
        return float(text) if '.' in text or 'e' in text else int(text)
    except ValueError:
        pass
    return text.lower() == 'true' if text.lower() in ('true', 'false') else text


def scalar(text: Any) -> Any:
    """Return a launch file's parameter text as the launch types it (true, 0.26, a string)."""
    if not isinstance(text, str):
        return text
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, (bool, int, float, str)) else text


SHLEX_CHARS = 1 << 14  # a node's args are a line or two; beyond, hostile text: split at spaces


def _tokens(args: Any, line: int) -> List[Token]:
    if isinstance(args, Unresolved):
        return [Token(args, line)]
    text = str(args)
    try:  # shlex builds a word a character at a time: past SHLEX_CHARS, plain words
        words = shlex.split(text) if len(text) <= SHLEX_CHARS else text.split()
    except ValueError:
        words = text.split()
    return [Token(word, line) for word in words]


def _arguments(text: str, subs: Substitutions, line: int) -> List[Token]:
    """
    Return a node's args word by word, each substituted alone.

    One word known only when the launch runs (`-load_state_filename $(var map_name)`) is one
    unknown argument; the words beside it stay known (cartographer's -configuration_directory).
    """
    tokens: List[Token] = []
    for word in _words(text):
        tokens += _tokens(subs.resolve(word), line)
    return tokens


def _words(text: str) -> List[str]:
    """
    Split at whitespace outside $(...) and quotes: a substitution's own words stay one.

    Each word is sliced whole from the text, never built a character at a time: a word of a
    megabyte (hostile nesting) costs its length, not its square.
    """
    words, start, depth, quote = [], 0, 0, ''
    index = 0
    while index < len(text):
        char = text[index]
        if not quote and text.startswith('$(', index):
            depth, index = depth + 1, index + 2
            continue
        if quote:
            quote = '' if char == quote else quote
        elif char in '"\'':
            quote = char
        elif char == ')' and depth:
            depth -= 1
        elif char.isspace() and not depth:
            if index > start:
                words.append(text[start:index])
            start = index + 1
        index += 1
    return words + [text[start:]] * (len(text) > start)


def _description(element: Element, subs: Substitutions) -> Any:
    """Return a robot_description <param>'s file: value="$(command 'xacro ...')", command=..."""
    attrib = element.attrib
    if 'textfile' in attrib:
        path = subs.resolve(attrib['textfile'])
        return command_description('cat ' + shlex.quote(path)) if isinstance(path, str) \
            else path
    text = subs.resolve(attrib.get('command', attrib.get('value')))
    if isinstance(text, str) and text.startswith('$(command'):
        text = text[len('$(command'):-1].strip().strip('\'"')
    found = command_description(text) if isinstance(text, str) else None
    return found if found is not None else (text if 'value' in attrib and isinstance(text, str)
                                            and 'command' not in attrib else Unresolved(
                                                str(attrib.get('command', attrib.get('value')))))


def _param(child: Element, node: LaunchedNode, file: str, subs: Substitutions) -> None:
    where = Where(file, child.line)
    source = child.attrib.get('from') if child.tag == 'param' else \
        child.attrib.get('file') if child.tag == 'rosparam' else None
    if source is not None:
        node.param_files.append((subs.resolve(source), where))
        if child.tag == 'rosparam' and not {'ns', 'param'} & set(child.attrib) \
                and child.attrib.get('command', 'load') == 'load':
            node.rosparam_at.append(where)  # the file's keys are the node's own
    elif child.tag == 'param' and 'name' in child.attrib:
        name = str(subs.resolve(child.attrib['name']))
        value = _description(child, subs) if name == DESCRIPTION else scalar(
            subs.resolve(child.attrib.get('value')))
        node.inline[name] = Param(name, value, Where(file, child.lines.get('value', child.line)))


def _node(element: Element, file: str, subs: Substitutions, namespace: str) -> LaunchedNode:
    attrib = {key: subs.resolve(value) for key, value in element.attrib.items()}
    own = attrib.get('namespace', attrib.get('ns', ''))
    node = LaunchedNode(attrib.get('pkg'), attrib.get('exec', attrib.get('type',
                                                                         attrib.get('plugin'))),
                        attrib.get('name'), Where(file, element.line),
                        own if isinstance(own, str) and own.startswith('/') else
                        '/'.join(filter(None, (namespace, str(own)))),
                        ros1='type' in attrib and 'exec' not in attrib,
                        component=element.tag == 'composable_node')
    if 'args' in attrib:
        raw = element.attrib['args']
        line = element.lines.get('args', element.line)
        node.arguments = _arguments(raw, subs, line) if isinstance(raw, str) else \
            _tokens(attrib['args'], line)
    for child in element.children:
        if subs.branch(child) is None:  # roslaunch skips an if= that is false before its file
            continue
        _param(child, node, file, subs)
        if child.tag == 'remap':
            node.remappings.append((subs.resolve(child.attrib.get('from')),
                                    subs.resolve(child.attrib.get('to'))))
    return node


def _needs(element: Element) -> Tuple[Tuple[str, str], ...]:
    """Return the argument that makes `if="$(var x)"` (or unless=, $(arg x)) hold, if one."""
    for key, wanted in (('if', 'true'), ('unless', 'false')):
        tested = ONE_ARGUMENT.fullmatch(element.attrib.get(key, '').strip())
        if tested:
            return ((tested.group(1), wanted),)
    for equals in ARGUMENT_EQUALS:
        tested = equals.fullmatch(element.attrib.get('if', '').strip())
        if tested:
            return ((tested.group(1), tested.group(2)),)
    return ()


def _walk(element: Element, file: str, subs: Substitutions, read: LaunchRead,
          namespace: str, around: Branch = ()) -> None:
    for child in element.children:
        own = subs.branch(child)
        if own is None:
            if child.tag == 'include':  # not followed, but no entry of its own either
                read.includes.append(Include(subs.resolve(child.attrib.get('file')), (),
                                             Where(file, child.line), runs=False,
                                             needs=_needs(child)))
            elif child.tag in NODES:
                read.switched_off.append(_node(child, file, subs, namespace))
            continue
        branch = around + own
        if child.tag == 'arg':
            subs.declare(child.attrib.get('name'), child.attrib.get('default'))
            if 'value' in child.attrib:  # ROS 1: a constant no caller overrides
                subs.declare(child.attrib.get('name'), child.attrib['value'], fixed=True)
        elif child.tag == 'let':
            subs.declare(child.attrib.get('name'), child.attrib.get('value'), fixed=True)
        elif child.tag in ('push-ros-namespace', 'push_ros_namespace'):
            namespace = '/'.join(filter(None, (namespace, str(subs.resolve(
                child.attrib.get('namespace', ''))).strip('/'))))
        elif child.tag in NODES:
            read.nodes.append(replace(_node(child, file, subs, namespace), branch=branch))
        elif child.tag == 'param' and subs.resolve(child.attrib.get('name')) == DESCRIPTION:
            read.description = Param(DESCRIPTION, _description(child, subs),
                                     Where(file, child.line))
        elif child.tag == 'include':
            arguments = tuple((str(a.attrib.get('name')), subs.resolve(a.attrib.get(  # ROS 1
                'value', a.attrib.get('default'))))  # takes a default here as the value too
                for a in child.children if a.tag == 'arg')
            read.includes.append(Include(subs.resolve(child.attrib.get('file')), arguments,
                                         Where(file, child.line), branch=branch))
        if child.tag in ('group', 'node_container', 'load_composable_node'):
            if child.tag == 'node_container':
                read.nodes.append(replace(_node(child, file, subs, namespace), branch=branch))
            scoped = Substitutions(subs.packages, subs.given, subs.path, subs.folders)
            scoped.arguments = dict(subs.arguments)
            inner = str(subs.resolve(child.attrib.get('ns', child.attrib.get('namespace', ''))))
            _walk(child, file, scoped if child.tag == 'group' else subs, read,
                  '/'.join(filter(None, (namespace, inner.strip('/')))) if child.tag == 'group'
                  else namespace, branch)


def read_launch(root: Element, file: str, packages: Mapping[str, str],
                given: Optional[Mapping[str, Any]] = None, path: str = '',
                folders: Optional[Mapping[str, str]] = None) -> LaunchRead:
    """Return what a launch file's elements start, with these launch arguments."""
    subs = Substitutions(packages, given, path, folders)
    read = LaunchRead()
    _walk(root, file, subs, read, '')
    read.configurations = subs.arguments
    return read


def _element(kind: str, body: Any, line: int) -> Element:
    """Return one YAML launch action as the element its XML twin would be."""
    element = Element(kind, {}, line)
    if not isinstance(body, LinedDict):
        return element
    element.line = body.line
    for key, value in body.items():
        if isinstance(value, LinedList):
            for item, item_line in zip(value, value.lines):
                if key == 'children' and isinstance(item, LinedDict):
                    element.children += [_element(k, v, item.lines.get(k, item_line))
                                         for k, v in item.items()]
                else:
                    element.children.append(_element(key, item, item_line))
        elif not isinstance(value, LinedDict):
            element.attrib[str(key)] = value if isinstance(value, str) else \
                yaml_text(value)
            element.lines[str(key)] = body.lines[key]
    return element


def yaml_launch_root(document: LinedDict) -> Element:
    """Return a YAML launch file (a document with a `launch:` list) as a <launch> element."""
    entries = document.get('launch')
    root = Element('launch', {}, 1)
    if isinstance(entries, LinedList):
        for entry, line in zip(entries, entries.lines):
            if isinstance(entry, LinedDict):
                root.children += [_element(k, v, entry.lines.get(k, line))
                                  for k, v in entry.items()]
    return root
