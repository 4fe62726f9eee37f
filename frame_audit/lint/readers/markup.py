# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
YAML and XML read with the line of every key and element, so findings can point at them.

PyYAML's composer keeps each node's position (yaml.safe_load drops it); expat reports the line
of each start tag (ElementTree does not).
"""
import ast
from dataclasses import dataclass, field
import math
import re
from typing import Any, Dict, Iterator, List, Optional
from xml.parsers import expat

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from .launch_values import ARITHMETIC


class LinedDict(dict):
    """A YAML mapping that remembers the line of each key and of itself."""

    def __init__(self, items: Dict[Any, Any], lines: Dict[Any, int], line: int):
        """Hold the items, each key's line and the mapping's first line."""
        super().__init__(items)
        self.lines = lines
        self.line = line


class LinedList(list):
    """A YAML sequence that remembers the line of each item and of itself."""

    def __init__(self, items: List[Any], lines: List[int], line: int):
        """Hold the items, each item's line and the sequence's first line."""
        super().__init__(items)
        self.lines = lines
        self.line = line


def _hashable(key: Any) -> Any:
    return key if isinstance(key, (str, int, float, bool)) or key is None else str(key)


def _merged(first: 'LinedDict', second: 'LinedDict') -> 'LinedDict':
    """Return two mappings of one key merged, the second's values winning, lines kept."""
    items, lines = dict(first), dict(first.lines)
    for key, value in second.items():
        if isinstance(items.get(key), LinedDict) and isinstance(value, LinedDict):
            items[key] = _merged(items[key], value)
        else:
            items[key], lines[key] = value, second.lines[key]
    return LinedDict(items, lines, first.line)


def _value(node: yaml.Node, constructor: SafeConstructor, budget: List[int]) -> Any:
    """Return a node's value; each value, aliases expanded, spends one of the budget."""
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueError('more than {} values with its aliases expanded (aliases nested '
                         'without bound?)'.format(MAX_YAML_NODES))
    if isinstance(node, yaml.MappingNode):
        items: Dict[Any, Any] = {}
        lines: Dict[Any, int] = {}
        merged: List[LinedDict] = []
        for key_node, value_node in node.value:
            if key_node.tag == MERGE:  # `<<: *defaults` (docker-compose, CI files)
                value = _value(value_node, constructor, budget)
                merged += [value] if isinstance(value, LinedDict) else \
                    [v for v in value if isinstance(v, LinedDict)] if isinstance(value, list) \
                    else []
                continue
            key = _hashable(_value(key_node, constructor, budget))
            value = _value(value_node, constructor, budget)
            if isinstance(items.get(key), LinedDict) and isinstance(value, LinedDict):
                value = _merged(items[key], value)  # a key twice: ROS 2 applies both blocks
            else:
                lines[key] = key_node.start_mark.line + 1
            items[key] = value
        for mapping in merged:  # the keys written here win, then the first mapping merged
            for key, value in mapping.items():
                if key not in items:
                    items[key], lines[key] = value, mapping.lines[key]
        return LinedDict(items, lines, node.start_mark.line + 1)
    if isinstance(node, yaml.SequenceNode):
        return LinedList([_value(item, constructor, budget) for item in node.value],
                         [item.start_mark.line + 1 for item in node.value],
                         node.start_mark.line + 1)
    if isinstance(node, yaml.ScalarNode) and node.tag in ANGLES:
        return _angle(node)
    return constructor.construct_object(node)


def _angle(node: yaml.ScalarNode) -> float:
    """
    Return rosparam's (and xacro's) `!degrees 17.6` or `!radians pi/2` as radians.

    As rosparam's construct_angle_* read them: `deg(x)`/`rad(x)` unwrapped, pi allowed in
    radians; only numbers, pi and + - * / here, never an eval.
    """
    text = str(node.value).strip()
    text = text[4:-1] if text[:4] in ('deg(', 'rad(') and text.endswith(')') else text
    try:
        value = _arithmetic(ast.parse(text, mode='eval').body)
    except (SyntaxError, ValueError, ZeroDivisionError) as error:
        raise ConstructorError(None, None, 'invalid angle {!r} ({})'.format(node.value, error),
                               node.start_mark) from None
    return math.radians(value) if node.tag == '!degrees' else value


def _arithmetic(expr: ast.expr) -> float:
    """Return numbers and pi joined by + - * / (and a sign); ValueError for anything else."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)) \
            and not isinstance(expr.value, bool):
        return float(expr.value)
    if isinstance(expr, ast.Name) and expr.id == 'pi':
        return math.pi
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return -_arithmetic(expr.operand) if isinstance(expr.op, ast.USub) \
            else _arithmetic(expr.operand)
    if isinstance(expr, ast.BinOp) and type(expr.op) in ARITHMETIC:
        return ARITHMETIC[type(expr.op)](_arithmetic(expr.left), _arithmetic(expr.right))
    raise ValueError('not a number of radians or degrees')


ANGLES = ('!degrees', '!radians')  # rosparam's own tags
MERGE = 'tag:yaml.org,2002:merge'
MAX_YAML_NODES = 200000  # values in one document, aliases expanded: a bomb meets this bound
MAX_YAML_DEPTH = 2000  # levels, over-counted: libyaml's C composer overflows its stack far deeper


def nesting_bound(text: str) -> int:
    """
    Return a bound on how deep a YAML document nests, without parsing it.

    Each line's indentation, its leading '- ' items and the open flow brackets ([ {) bound the
    depth from above; a real launch or parameter file stays under a hundred.
    """
    deepest = flow = 0
    for line in text.splitlines():
        body = line.lstrip(' ')
        dashes = len(body) - len(body.lstrip('- '))
        deepest = max(deepest, len(line) - len(body) + dashes + flow)
        for char in body:
            if char in '[{':
                flow += 1
                deepest = max(deepest, len(line) - len(body) + dashes + flow)
            elif char in ']}':
                flow = max(0, flow - 1)
    return deepest


def load_yaml(text: str) -> Any:
    """Return a YAML document with LinedDict and LinedList; ValueError if it nests too deep."""
    if nesting_bound(text) > MAX_YAML_DEPTH:
        raise ValueError('nested more than {} levels deep (a real launch or parameter file '
                         'nests a few)'.format(MAX_YAML_DEPTH))
    node = yaml.compose(text, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))  # libyaml
    budget = [MAX_YAML_NODES]
    return None if node is None else _value(node, SafeConstructor(), budget)


@dataclass
class Element:
    """An XML element with the line of its start tag, and the text directly inside it."""

    tag: str
    attrib: Dict[str, str]
    line: int
    children: List['Element'] = field(default_factory=list)
    text: str = ''
    lines: Dict[str, int] = field(default_factory=dict)  # attributes on lines of their own

    def iter(self, *tags: str) -> Iterator['Element']:  # noqa: A003 (ElementTree's name)
        """Yield this element and every element below it with one of these tags, in order."""
        if self.tag in tags:
            yield self
        for child in self.children:
            yield from child.iter(*tags)

    def find(self, tag: str) -> Optional['Element']:
        """Return the first child with this tag, or None."""
        return next((child for child in self.children if child.tag == tag), None)


def load_xml(text: str) -> Element:
    """Return an XML document's root element; expat.ExpatError when it is not well formed."""
    parser = expat.ParserCreate()
    stack: List[Element] = []
    roots: List[Element] = []
    data = text.encode('utf-8')

    def start(tag: str, attrib: Dict[str, str]) -> None:
        element = Element(tag, attrib, parser.CurrentLineNumber)
        at = parser.CurrentByteIndex
        start_tag = data[at:data.find(b'>', at)] if at >= 0 else b''
        for name in attrib:  # an attribute on a line of its own: its line, for findings
            found = re.search(rb'\s' + re.escape(name.encode('utf-8')) + rb'\s*=', start_tag)
            if found and start_tag.count(b'\n', 0, found.start() + 1):
                element.lines[name] = element.line + start_tag.count(b'\n', 0, found.start() + 1)
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)

    def end(tag: str) -> None:
        stack.pop()

    def characters(data: str) -> None:
        if stack:
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.Parse(text, True)
    return roots[0]
