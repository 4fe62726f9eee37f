# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`lookup --plot` and `explain --plot`: the limiting edge's stamp lag over the recording.

A person sees at a glance what the numbers say: how far behind its arrival the edge is
stamped, against the asker's own delay and the wait, and when tf2 refused. matplotlib is
imported only here, only when a picture is asked for.
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Tuple

from ..errors import UsageError

SUFFIXES = ('.svg', '.png')


@dataclass(frozen=True)
class LagSeries:
    """The limiting edge's samples and the refused lookups, in seconds into the recording."""

    title: str
    edge: str
    arrivals_s: Tuple[float, ...]
    lags_s: Tuple[float, ...]  # each sample's arrival − stamp
    asker_s: float  # the asking side's own delay (arrival − stamp)
    asker: str  # where asker_s comes from
    wait_s: float
    refused_s: Tuple[float, ...]  # when each refused lookup's message arrived
    clock: str  # what arrivals are told on: the receive clock, or a recorded /clock


def check_plot_suffix(path: Path) -> None:
    """Refuse, before any work, a picture whose suffix names no format it is drawn in."""
    if path.suffix.lower() not in SUFFIXES:
        raise UsageError('--plot {}: draws .svg or .png'.format(path))


def draw_lag(path: Path, series: LagSeries) -> None:
    """Write the picture: the edge's lag, the asker's delay and the wait, the refusals."""
    import matplotlib
    matplotlib.use('Agg')  # no screen: the picture goes to a file
    from matplotlib import pyplot

    with matplotlib.rc_context({'svg.fonttype': 'none', 'svg.hashsalt': 'frame_audit'}):
        figure, axes = pyplot.subplots(figsize=(10, 4.5))
        try:
            axes.plot(series.arrivals_s, series.lags_s, '.', markersize=3,
                      label='{}: arrival − stamp'.format(series.edge), gid='edge_lag')
            axes.axhline(series.asker_s, color='tab:green',
                         label='{}: {:.3f} s'.format(series.asker, series.asker_s))
            axes.axhline(series.asker_s + series.wait_s, color='tab:orange', linestyle='--',
                         label='the wait, {:.3f} s after the message'.format(series.wait_s))
            if series.refused_s:  # a rug below everything else, so no sample is hidden
                levels = series.lags_s + (series.asker_s, series.asker_s + series.wait_s)
                low, high = min(levels), max(levels)
                rug = low - 0.08 * ((high - low) or 1.0)
                axes.plot(series.refused_s, [rug] * len(series.refused_s), '|', color='red',
                          markersize=10, gid='refused',
                          label='{} refused by tf2 (when each message arrived)'.format(
                              len(series.refused_s)))
            axes.set_xlabel('s into the recording ({})'.format(series.clock))
            axes.set_ylabel('arrival − stamp (s)')
            axes.set_title(series.title)
            axes.legend(loc='best', fontsize='small')
            figure.tight_layout()
            figure.savefig(str(path), format=path.suffix.lower()[1:],
                           metadata={'Date': None} if path.suffix.lower() == '.svg' else None)
        finally:
            pyplot.close(figure)
