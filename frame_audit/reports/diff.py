# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""The differences between two cars (engine/compare.py) as text, markdown and JSON."""
import json
from typing import Sequence

from ..engine.checks.common import plural
from ..engine.compare import Difference, Side
from ..engine.findings import printable


def _lines(a: Side, b: Side, found: Sequence[Difference]) -> list:
    if not found:
        return ['{} and {} agree on everything both say'.format(a.source, b.source)]
    return ['{}: {} in A ({}), {} in B ({}){}'.format(
        d.what, d.a, a.source, d.b, b.source, '; ' + d.detail if d.detail else '')
        for d in found]


def diff_text(a: Side, b: Side, found: Sequence[Difference]) -> str:
    """Return one line per difference, naming each side's source."""
    counted = plural(len(found), 'difference')
    head = 'frame_audit diff: A {}, B {} ({})'.format(a.source, b.source, counted)
    return '\n'.join([printable(head), ''] + ['  ' + printable(line)
                                              for line in _lines(a, b, found)]) + '\n'


def diff_markdown(a: Side, b: Side, found: Sequence[Difference]) -> str:
    """Return the differences as a markdown table."""
    lines = ['## frame_audit diff: `{}` and `{}`'.format(a.source, b.source), '']
    if not found:
        return '\n'.join(lines + [_lines(a, b, found)[0]]) + '\n'
    lines += ['| what | A: {} | B: {} | difference |'.format(a.source, b.source),
              '| --- | --- | --- | --- |']
    lines += ['| {} |'.format(' | '.join(printable(cell).replace('|', '\\|')
                                         for cell in (d.what, d.a, d.b, d.detail)))
              for d in found]
    return '\n'.join(lines) + '\n'


def diff_json(a: Side, b: Side, found: Sequence[Difference]) -> str:
    """Return the two sources and the differences, each with both values."""
    return json.dumps({'a': a.source, 'b': b.source, 'differences': [
        {'what': d.what, 'a': d.a, 'b': d.b, 'detail': d.detail} for d in found]},
        indent=2, ensure_ascii=False) + '\n'


DIFF_FORMATS = {'text': diff_text, 'markdown': diff_markdown, 'json': diff_json}
