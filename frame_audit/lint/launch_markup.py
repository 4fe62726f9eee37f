# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
XML and YAML launch files (ROS 2, and ROS 1's XML): their nodes, arguments and parameters.

Substitutions are resolved where the files themselves say the value: $(find-pkg-share pkg) and
$(find pkg) for a package of the workspace, $(var name) and $(arg name) from an <arg>'s default
or a <let>. Anything else is Unresolved.
"""
import re
import shlex
from typing import Any, Dict, Iterable, List, Mapping

import yaml

from .markup import Element, LinedDict, LinedList, load_xml
from .model import LaunchedNode, Param, Token, Unresolved, Where

SUBSTITUTION = re.compile(r'\$\(([\w-]+)\s*([^)]*)\)')
PACKAGE_SUBSTITUTIONS = ('find-pkg-share', 'find')
ARGUMENT_SUBSTITUTIONS = ('var', 'arg')


class Substitutions:
    """Resolves $(...) in a launch file's strings from its arguments and the workspace."""

    def __init__(self, packages: Mapping[str, str]):
        """Start with no launch arguments; packages maps package name to folder."""
        self.packages = packages
        self.arguments: Dict[str, Any] = {}

    def declare(self, name: Any, default: Any) -> None:
        """Record a launch argument's default (an <arg>'s or a <let>'s value)."""
        if isinstance(name, str) and default is not None:
            self.arguments[name] = self.resolve(default)

    def _one(self, match: 're.Match[str]') -> str:
        kind, argument = match.group(1), match.group(2).strip()
        if kind in PACKAGE_SUBSTITUTIONS and argument in self.packages:
            return self.packages[argument]
        if kind in ARGUMENT_SUBSTITUTIONS and isinstance(self.arguments.get(argument), str):
            return self.arguments[argument]
        raise LookupError(match.group(0))

    def resolve(self, text: Any) -> Any:
        """Return text with its substitutions resolved, or Unresolved when one cannot be."""
        if not isinstance(text, str):
            return text
        try:
            return SUBSTITUTION.sub(self._one, text)
        except LookupError:
            return Unresolved(text)


def _scalar(text: Any) -> Any:
    """Return a launch file's parameter text as the launch types it (true, 0.26, a string)."""
    if not isinstance(text, str):
        return text
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, (bool, int, float, str)) else text


def _tokens(args: Any, line: int) -> List[Token]:
    if isinstance(args, Unresolved):
        return [Token(args, line)]
    try:
        words = shlex.split(str(args))
    except ValueError:
        words = str(args).split()
    return [Token(word, line) for word in words]


def _xml_node(element: Element, file: str, subs: Substitutions) -> LaunchedNode:
    attrib = {key: subs.resolve(value) for key, value in element.attrib.items()}
    node = LaunchedNode(attrib.get('pkg'), attrib.get('exec', attrib.get('type')),
                        attrib.get('name'), Where(file, element.line))
    if 'args' in attrib:
        node.arguments = _tokens(attrib['args'], element.line)
    for child in element.children:
        where = Where(file, child.line)
        source = child.attrib.get('from') if child.tag == 'param' else \
            child.attrib.get('file') if child.tag == 'rosparam' else None
        if source is not None:
            node.param_files.append((subs.resolve(source), where))
        elif child.tag == 'param' and 'name' in child.attrib:
            name = child.attrib['name']
            node.inline[name] = Param(name, _scalar(subs.resolve(child.attrib.get('value'))),
                                      where)
    return node


def read_xml_launch(text: str, file: str, packages: Mapping[str, str]) -> List[LaunchedNode]:
    """Return the nodes an XML launch file starts; [] for XML that is not a launch file."""
    root = load_xml(text)
    if root.tag != 'launch':
        return []
    subs = Substitutions(packages)
    nodes = []
    for element in root.iter('arg', 'let', 'node'):
        if element.tag == 'node':
            nodes.append(_xml_node(element, file, subs))
        else:
            subs.declare(element.attrib.get('name'),
                         element.attrib.get('default', element.attrib.get('value')))
    return nodes


def _yaml_entries(entries: Any) -> Iterable[tuple]:
    """Yield (kind, body) for each action of a YAML launch list, groups included, in order."""
    if not isinstance(entries, list):
        return
    for entry in entries:
        if not isinstance(entry, LinedDict):
            continue
        for kind, body in entry.items():
            yield kind, body
            if isinstance(body, LinedDict):
                yield from _yaml_entries(body.get('children'))


def _yaml_param(item: Any, line: int, node: LaunchedNode, file: str,
                subs: Substitutions) -> None:
    if not isinstance(item, LinedDict):
        return
    if 'from' in item:
        node.param_files.append((subs.resolve(item['from']), Where(file, line)))
    elif isinstance(item.get('name'), str):
        node.inline[item['name']] = Param(item['name'], _scalar(subs.resolve(item.get('value'))),
                                          Where(file, item.lines.get('value', line)))


def _yaml_node(body: LinedDict, file: str, subs: Substitutions) -> LaunchedNode:
    get = {key: subs.resolve(value) for key, value in body.items()}
    node = LaunchedNode(get.get('pkg'), get.get('exec'), get.get('name'), Where(file, body.line))
    if 'args' in body:
        node.arguments = _tokens(get['args'], body.lines['args'])
    params = body.get('param')
    if isinstance(params, LinedList):
        for item, line in zip(params, params.lines):
            _yaml_param(item, line, node, file, subs)
    return node


def read_yaml_launch(document: LinedDict, file: str,
                     packages: Mapping[str, str]) -> List[LaunchedNode]:
    """Return the nodes a YAML launch file (a document with a `launch:` list) starts."""
    subs = Substitutions(packages)
    nodes = []
    for kind, body in _yaml_entries(document.get('launch')):
        if not isinstance(body, LinedDict):
            continue
        if kind == 'node':
            nodes.append(_yaml_node(body, file, subs))
        elif kind in ('arg', 'let'):
            subs.declare(body.get('name'), body.get('default', body.get('value')))
    return nodes
