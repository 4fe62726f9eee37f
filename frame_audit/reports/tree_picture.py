# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
A picture of the tree, as view_frames draws it, with what is wrong in red.

Graphviz lays it out: .dot is written as text; .svg and .png need Graphviz's dot program,
which scripts/setup.sh installs.
"""
from pathlib import Path
from typing import Iterable, Set, Tuple

from ..engine.checks.common import arrow
from ..engine.findings import fmt
from .report import FindingLine
from ..engine.store import FrameStore

RED = '#d62728'
# Checks whose findings are about edges; the others (pose_frame, odometry, connectivity)
# are about frames and data, and mark only frames.
EDGE_CHECKS = ('parent_uniqueness', 'chain_order', 'laser_offset', 'transform_values',
               'timing', 'static_transforms')
FORMATS = ('.dot', '.gv', '.svg', '.png')


class PictureError(RuntimeError):
    """The picture cannot be made (unknown format, Graphviz missing)."""


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


def tree_source(store: FrameStore, findings: Iterable[FindingLine]) -> str:
    """Return the tree in Graphviz's DOT language."""
    import graphviz

    bad_frames, bad_pairs = _marked(findings)
    graph = graphviz.Digraph('frames', graph_attr={'rankdir': 'TB', 'label': 'frame_audit',
                                                   'fontname': 'Helvetica'},
                             node_attr={'shape': 'box', 'style': 'rounded',
                                        'fontname': 'Helvetica'},
                             edge_attr={'fontname': 'Helvetica', 'fontsize': '10'})
    for frame in sorted(store.frames):
        bad = frame in bad_frames
        graph.node(frame, frame, color=RED if bad else 'black', fontcolor=RED if bad else 'black',
                   penwidth='2' if bad else '1')
    for (parent, child), edge in sorted(store.edges.items()):
        rate = edge.rate_hz()
        label = [', '.join(edge.topics)]
        label.append('static' if edge.is_static else
                     ('{} Hz'.format(fmt(rate, 1)) if rate else '{} messages'.format(edge.count)))
        label += sorted(edge.publishers)
        bad = (parent, child) in bad_pairs
        graph.edge(parent, child, label='\n'.join(label), tooltip=arrow(parent, child),
                   color=RED if bad else 'black', fontcolor=RED if bad else 'black',
                   style='dashed' if edge.is_static else 'solid')
    return graph.source


def check_suffix(path: Path) -> str:
    """Return the picture's format from its suffix, or raise PictureError."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise PictureError('{}: the tree picture is .svg, .png or .dot'.format(path))
    return suffix


def write_tree(path: Path, store: FrameStore, findings: Iterable[FindingLine]) -> None:
    """Write the picture to path; its suffix chooses DOT text, SVG or PNG."""
    import graphviz

    suffix = check_suffix(path)
    source = tree_source(store, findings)
    if suffix in ('.dot', '.gv'):
        path.write_text(source, encoding='utf-8')
        return
    try:
        data = graphviz.pipe('dot', suffix[1:], source.encode('utf-8'))
    except graphviz.ExecutableNotFound:
        raise PictureError('Graphviz (the dot program) is not installed: run scripts/setup.sh '
                           'or apt install graphviz, or write a .dot file') from None
    path.write_bytes(data)
