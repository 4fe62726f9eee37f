# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A picture of the tree, as view_frames draws it, with what is wrong in red.

Graphviz lays it out: .dot is written as text; .svg and .png need Graphviz's dot program,
which scripts/setup.sh installs.
"""
from pathlib import Path
import re
import subprocess
import textwrap
from typing import Dict, Iterable, Optional, Set, Tuple

from .report import FindingLine
from ..engine import check_ids as ids
from ..engine.checks.common import arrow
from ..engine.findings import fmt
from ..engine.records import TF_STATIC_TOPIC
from ..engine.tree_view import TreeReader
from ..errors import PictureError

RED = '#d62728'
# Checks whose findings are about edges; the others (pose_frame, odometry, connectivity)
# are about frames and data, and mark only frames.
EDGE_CHECKS = (ids.PARENTS, ids.CHAIN, ids.LASER, ids.VALUES, ids.TIMING, ids.STATIC)
FORMATS = ('.dot', '.gv', '.svg', '.png')
MAX_DRAWN = 150  # frames Graphviz lays out in a second or two
MAX_LABEL = 80  # characters of a frame id, topic or publisher a label shows
PLAIN_ID = re.compile(r'[A-Za-z_][A-Za-z0-9_./-]*')  # a frame id DOT takes as a name
WIDE = 6  # frames at one depth past which the tree is laid out left to right
REASON_WIDTH = 40  # characters a line of a missing frame's reason takes


def _marked(findings: Iterable[FindingLine]) -> Tuple[Set[str], Set[Tuple[str, str]]]:
    """Return the frames and the edges (parent, child) that WARN and ERROR findings name."""
    frames: Set[str] = set()
    pairs: Set[Tuple[str, str]] = set()
    for finding in findings:
        if finding.level not in ('WARN', 'ERROR'):
            continue
        frames.update(finding.frames)
        if finding.check in EDGE_CHECKS:
            pairs.update((a, b) for a in finding.frames for b in finding.frames if a != b)
    return frames, pairs


def _drawn(store: TreeReader, marked: Set[str], chain: Iterable[str]) -> Set[str]:
    """
    Return the frames to draw: all of a small tree; of a large one, the part that matters.

    Past MAX_DRAWN frames Graphviz takes minutes; the chain, the frames findings name and
    their parents and children are what a person needs to see.
    """
    if len(store.frames) <= MAX_DRAWN:
        return set(store.frames)
    keep = [f for f in list(chain) + sorted(marked) if f in store.frames]
    drawn: Set[str] = set()
    for frame in keep:
        drawn.update(store.ancestry(frame))
    neighbours = [child for parent, child in store.edges if parent in drawn] + \
        [parent for parent, child in store.edges if child in drawn]
    for frame in neighbours:
        if len(drawn) >= MAX_DRAWN:
            break
        drawn.add(frame)
    return drawn


def _label(*lines: str, limit: int = MAX_LABEL) -> str:
    """
    Return lines as a DOT label shows them: control characters escaped, long ids shortened.

    Backslashes are doubled, so an id ending in one never escapes the label's closing
    quote (the graphviz library escapes the quotes); a 1 MB id becomes its start and its
    length, which Graphviz lays out; '<...>' is text, never an HTML label.
    """
    import graphviz

    shown = []
    for line in lines:
        head = line if len(line) <= limit else line[:limit - 16]
        printable = ''.join(c if c.isprintable() else repr(c)[1:-1] for c in head)
        if head is not line:
            printable = '{}… ({} characters)'.format(printable, len(line))
        shown.append(printable.replace('\\', '\\\\'))
    return graphviz.nohtml('\n'.join(shown))


def _node_names(frames: Set[str]) -> Dict[str, str]:
    """
    Return each frame's DOT node name: the id itself when it is a plain name, else a number.

    Any other id is named '#N' (a number no other frame is called) and shown by its escaped
    label: DOT reads `<...>` as an HTML label and `a:b` as node a's port b, and a backslash,
    a control character or a 1 MB id have no place in a name.
    """
    names: Dict[str, str] = {}
    number = 0
    for frame in sorted(frames):
        if len(frame) <= MAX_LABEL and PLAIN_ID.fullmatch(frame):
            names[frame] = frame
            continue
        while '#{}'.format(number) in frames:
            number += 1
        names[frame] = '#{}'.format(number)
        number += 1
    return names


def _widest_rank(store: TreeReader, drawn: Set[str]) -> int:
    """Return how many drawn frames share the most crowded depth below their root."""
    depths: Dict[int, int] = {}
    for frame in drawn:
        depth = len(store.ancestry(frame)) - 1
        depths[depth] = depths.get(depth, 0) + 1
    return max(depths.values(), default=0)


def tree_source(store: TreeReader, findings: Iterable[FindingLine], title: str = 'frame_audit',
                expected: Optional[Dict[str, str]] = None,
                chain: Iterable[str] = ()) -> str:
    """
    Return the tree in Graphviz's DOT language.

    expected: frames that should be in the tree and are not, with why; drawn dashed in red.
    A frame id DOT cannot quote whole is a node by number, labelled with the escaped,
    shortened id. A tree wider than WIDE frames at one depth (a TurtleBot4's links under
    base_link) is laid out left to right: its crowded depth stacks down the screen instead.
    """
    import graphviz

    bad_frames, bad_pairs = _marked(findings)
    drawn = _drawn(store, bad_frames, chain)
    left_out = len(store.frames) - len(drawn)
    label = title + ('\n{} of {} frames drawn: the chain, the frames with findings and their '
                     'neighbours'.format(len(drawn), len(store.frames)) if left_out else '')
    wide = _widest_rank(store, drawn) > WIDE
    if wide:
        label += '\ndashed: static, on /tf_static (labelled with its publisher or finding)'
    graph = graphviz.Digraph('frames', graph_attr={'rankdir': 'LR' if wide else 'TB',
                                                   'ranksep': '0.3' if wide else '0.5',
                                                   'label': _label(*label.split('\n')),
                                                   'labelloc': 't', 'fontname': 'Helvetica'},
                             node_attr={'shape': 'box', 'style': 'rounded',
                                        'fontname': 'Helvetica'},
                             edge_attr={'fontname': 'Helvetica', 'fontsize': '10'})
    names = _node_names(drawn | set(expected or {}))
    for frame in sorted(drawn):
        bad = frame in bad_frames
        graph.node(names[frame], _label(frame), color=RED if bad else 'black',
                   fontcolor=RED if bad else 'black', penwidth='2' if bad else '1')
    for frame, why in sorted((expected or {}).items()):
        graph.node(names[frame], _label(frame, *textwrap.wrap('missing: ' + why, REASON_WIDTH),
                                        limit=400),
                   color=RED, fontcolor=RED, style='rounded,dashed')
    for (parent, child), edge in sorted(store.edges.items()):
        if parent not in drawn or child not in drawn:
            continue
        rate = edge.rate_hz()
        bad = (parent, child) in bad_pairs
        lines = [', '.join(edge.topics)]
        lines.append('static' if edge.is_static else
                     ('{} Hz'.format(fmt(rate, 1)) if rate else '{} messages'.format(edge.count)))
        lines += sorted(edge.publishers)
        if wide and edge.is_static and not bad and edge.topics == (TF_STATIC_TOPIC,):
            lines = sorted(edge.publishers)  # the legend says what a dashed edge is
        graph.edge(names[parent], names[child], label=_label(*lines),
                   tooltip=_label(arrow(parent, child)), color=RED if bad else 'black',
                   fontcolor=RED if bad else 'black',
                   style='dashed' if edge.is_static else 'solid')
    return graph.source


def check_suffix(path: Path) -> str:
    """Return the picture's format from its suffix, or raise PictureError."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise PictureError('{}: the tree picture is .svg, .png or .dot'.format(path))
    return suffix


def write_tree(path: Path, store: TreeReader, findings: Iterable[FindingLine],
               title: str = 'frame_audit', expected: Optional[Dict[str, str]] = None,
               chain: Iterable[str] = ()) -> None:
    """Write the picture to path; its suffix chooses DOT text, SVG or PNG."""
    import graphviz

    suffix = check_suffix(path)
    source = tree_source(store, findings, title, expected, chain)
    if suffix in ('.dot', '.gv'):
        path.write_text(source, encoding='utf-8')
        return
    try:
        data = graphviz.pipe('dot', suffix[1:], source.encode('utf-8'))
    except graphviz.ExecutableNotFound:
        raise PictureError('Graphviz (the dot program) is not installed: run scripts/setup.sh '
                           'or apt install graphviz, or write a .dot file') from None
    except subprocess.CalledProcessError as error:
        reason = (error.stderr or b'').decode('utf-8', 'replace').strip().splitlines()
        raise PictureError('Graphviz could not draw the tree ({}); write a .dot file '
                           'instead'.format(reason[0][:160] if reason else 'exit {}'.format(
                               error.returncode))) from None
    path.write_bytes(data)
