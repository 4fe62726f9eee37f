# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The frame-audit command: audit a recording, simulate one, run the demo, watch a live car.

This module parses the arguments, calls one use case of frame_audit.app, and prints or writes
what it returns with frame_audit.reports; what a command does lives in app/, one module each.

Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 the input cannot be read or
the arguments are wrong (one line on stderr, never a traceback).
"""
import argparse
import os
from pathlib import Path
import sys
from typing import List, NoReturn, Optional, Sequence, Tuple, TYPE_CHECKING

from .errors import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, FrameAuditError, UsageError

if TYPE_CHECKING:  # the command line imports the rest when a command runs
    from .reports.lag_plot import LagSeries

NAME_MAX = 255  # bytes of one path component on Linux file systems
MAX_JOBS = 32  # processes a season starts at most, whatever --jobs asks
# the arguments that name files or folders, in every command
INPUT_ARGUMENTS = ('paths', 'path', 'a', 'b', 'config')
OUTPUT_ARGUMENTS = ('output', 'tree', 'diagnostics', 'out', 'plot')
PATH_ARGUMENTS = INPUT_ARGUMENTS + OUTPUT_ARGUMENTS
OPTIONS = ('config', 'output', 'tree', 'diagnostics', 'plot')  # the rest are positional


def _progress_bar(total: float, unit: str = 's'):
    """Return a tqdm bar over recorded seconds (or recordings) on a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=round(total, 1), unit=unit, unit_scale=unit == 's', desc='auditing',
                file=sys.stderr, leave=False)


def _season(args: argparse.Namespace) -> int:
    """Audit many recordings, a row each and a summary; exit with the worst of them."""
    from .app.season import audit_season
    from .reports.season import failing, SEASON_FORMATS

    if args.tree or args.diagnostics:
        raise UsageError('--tree and --diagnostics take one recording')
    if args.jobs < 0:
        raise UsageError('--jobs {}: give a number of processes, at least 1 (0: one per '
                         'core)'.format(args.jobs))
    cores = os.cpu_count() or 1
    jobs = min(args.jobs or cores, MAX_JOBS, 2 * cores)
    if args.jobs > jobs:
        print('frame-audit: --jobs {} is more than this machine runs at once: {} processes'
              .format(args.jobs, jobs), file=sys.stderr)
    rows = audit_season(args.paths, args.recursive, args.config, jobs, _progress_bar)
    _write(SEASON_FORMATS[args.format](rows), args.output, 'the report')
    if any(row.error for row in rows):
        return EXIT_UNUSABLE
    return EXIT_FINDINGS if failing(rows, args.fail_on) else EXIT_OK


def cmd_audit(args: argparse.Namespace) -> int:
    """Audit a recording and print (or write) its report; many recordings, a row each."""
    from .app.audit import audit_file, draw_tree
    from .reports.report import fails
    from .reports.tree_picture import check_suffix

    if len(args.paths) > 1 or args.recursive:
        return _season(args)
    if args.tree:
        check_suffix(Path(args.tree))
    if args.with_recording and not args.diagnostics:
        raise UsageError('--with-recording adds the recording to --diagnostics OUT.mcap')
    outcome = audit_file(Path(args.paths[0]), args.config,
                         Path(args.diagnostics) if args.diagnostics else None,
                         args.with_recording, _progress_bar)
    if outcome.diagnostics:
        written = outcome.diagnostics
        print('wrote {}/ ({} /diagnostics messages{}; ros2 bag play {}, or open {}/{}.mcap in '
              'Foxglove)'.format(written.folder, written.messages, ' beside the recording'
                                 if written.with_recording else '', written.folder,
                                 written.folder, written.folder.name), file=sys.stderr)
    _emit(outcome.report, args)
    if args.tree:
        warning = draw_tree(outcome, Path(args.tree))
        if warning:
            print('frame-audit: warning: {}'.format(warning), file=sys.stderr)
    return EXIT_FINDINGS if fails(outcome.report, args.fail_on) else EXIT_OK


def _to_stdout(output: Optional[str]) -> bool:
    return not output or output == '-'


def _emit(report, args: argparse.Namespace) -> None:
    """Write the report in --format to --output, or to stdout (in colour on a terminal)."""
    from .reports.report import FORMATS, to_text

    colour = args.format == 'text' and _to_stdout(args.output) and sys.stdout.isatty()
    text = to_text(report, colour) if args.format == 'text' else FORMATS[args.format](report)
    _write(text, args.output, 'the report')


def _write(text: str, output: Optional[str], what: str) -> None:
    """Write text to the file output, or to stdout when it is missing or '-'."""
    if _to_stdout(output):
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except OSError as error:  # a full disk, a closed pipe: nothing more can go there
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise UsageError('cannot write {} to standard output ({})'.format(
                what, error.strerror or error)) from None
        return
    try:
        Path(output).write_text(text, encoding='utf-8')  # type: ignore[arg-type]
    except OSError as error:
        raise UsageError('{}: cannot write {} ({})'.format(output, what,
                                                           error.strerror)) from None


def cmd_init(args: argparse.Namespace) -> int:
    """Write a config measured from a known-good recording of the robot."""
    from .app.init import describe_recording

    _write(describe_recording(Path(args.path)), args.output, 'the config')
    if not _to_stdout(args.output):
        print('wrote {}; audit with: frame-audit audit RECORDING --config {}'.format(
            args.output, args.output), file=sys.stderr)
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    """Write a simulated drive of the car, clean or with faults, to a recording."""
    from .app.simulate import faults, simulate

    if args.list_faults:
        known = faults()
        width = max(len(name) for name in known)
        for name, description in known.items():
            print('{}  {}'.format(name.ljust(width), description))
        return EXIT_OK
    if not args.out:
        raise UsageError('simulate needs OUT (a .mcap or .db3 path), or --list-faults')
    simulate(Path(args.out), args.duration, args.seed, args.fault, args.gyro, args.config)
    print('wrote {} ({} s{})'.format(args.out, args.duration,
                                     ', faults: ' + ', '.join(args.fault) if args.fault else ''))
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """Show the audit live over DDS, then a healthy and a faulty drive offline."""
    from .app.demo import run_demo

    run_demo(args.duration, live=not args.offline, colour=sys.stdout.isatty())
    return EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    """Check a workspace's launch, parameter and URDF files for frame mistakes."""
    from .app.lint import lint
    from .reports.report import fails

    report = lint(Path(args.path), args.config, args.launch or [])
    _emit(report, args)
    return EXIT_FINDINGS if fails(report, args.fail_on) else EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    """Put two cars side by side: recordings or configs; exit 1 when they differ."""
    from .app.diff import diff
    from .reports.diff import DIFF_FORMATS

    compared = diff(Path(args.a), Path(args.b), *(_at_least_zero(
        option, value, 'a tolerance is a finite number of at least 0 (a negative one would '
        'make a recording differ from itself)') for option, value in (
            ('--tolerance-m', args.tolerance_m), ('--tolerance-rad', args.tolerance_rad),
            ('--rate-tolerance', args.rate_tolerance))))
    _write(DIFF_FORMATS[args.format](compared.a, compared.b, compared.found), args.output,
           'the differences')
    return EXIT_FINDINGS if compared.found else EXIT_OK


def cmd_monitor(args: argparse.Namespace) -> int:
    """Show frame_audit's live diagnostics in the terminal."""
    from .app.monitor import monitor
    return monitor(args)


def _at_least_zero(option: str, value: float, what: str) -> float:
    """Return an option's value if it is a finite number, at least 0 (NaN fails too)."""
    if not value >= 0.0 or value == float('inf'):
        raise UsageError('{} {}: {}'.format(option, value, what))
    return value


def _tolerance(value: float) -> float:
    """Return --tolerance if it is a finite number of seconds, at least 0."""
    return _at_least_zero('--tolerance', value, 'the wait is a finite number of seconds, at '
                          'least 0')


def cmd_explain(args: argparse.Namespace) -> int:
    """Say why tf2 refused a lookup, from a pasted error and the recording it happened in."""
    from .app.explain import explain_error
    from .reports.explain import as_json, explained_text

    _plot_suffix(args)
    explained = explain_error(Path(args.path), args.error, args.config, args.distro,
                              _tolerance(args.tolerance), args.target, args.tf2)
    _write(as_json(explained) if args.format == 'json' else explained_text(explained),
           args.output, 'the explanation')
    _plot(args, explained.series)
    return EXIT_OK if explained.explanation is not None else EXIT_FINDINGS


def cmd_lookup(args: argparse.Namespace) -> int:
    """Ask a lookup of the recording as tf2 would have answered it; exit 1 if refused."""
    from .app.explain import lookup_in, refused_share
    from .reports.explain import as_json, looked_up_text

    _plot_suffix(args)
    looked = lookup_in(Path(args.path), args.target, args.source, args.at, args.every,
                       _tolerance(args.tolerance), args.config, args.distro, args.tf2)
    _write(as_json(looked) if args.format == 'json' else looked_up_text(looked), args.output,
           'the answer')
    _plot(args, looked.series)
    return EXIT_FINDINGS if refused_share(looked)[0] else EXIT_OK


def _plot_suffix(args: argparse.Namespace) -> None:
    """Refuse a --plot in no format it is drawn in, before the recording is read."""
    if args.plot:
        from .reports.lag_plot import check_plot_suffix
        check_plot_suffix(Path(args.plot))


def _plot(args: argparse.Namespace, series: 'Optional[LagSeries]') -> None:
    """Draw --plot, or say in one warning line why not: a picture never changes the exit."""
    if not args.plot:
        return
    from .reports.lag_plot import draw_lag
    if series is None:
        print('frame-audit: warning: {}: not drawn: no limiting edge (no lookup was refused '
              'by an edge that was sent)'.format(args.plot), file=sys.stderr)
        return
    try:
        draw_lag(Path(args.plot), series)
    except OSError as error:
        print('frame-audit: warning: {}: the plot was not written ({})'.format(
            args.plot, error.strerror or type(error).__name__), file=sys.stderr)


def _tf2_options(command: argparse.ArgumentParser, by_wording: bool = False) -> None:
    """Add the options explain and lookup share: the wait, the distribution, the output."""
    from .engine.tf2 import DEFAULT_DISTRO, DISTRO_NAMES
    from .engine.tf2.backend import CHOICES

    default_distro = None if by_wording else DEFAULT_DISTRO
    command.add_argument('--tolerance', type=float, default=0.1, metavar='S',
                         help='how long after the stamp the node waits for the transform (its '
                         'lookup timeout or message filter tolerance; default 0.1)')
    command.add_argument('--distro', choices=DISTRO_NAMES, default=default_distro,
                         help="the tf2 model's distribution (default: {})".format(
                             default_distro or 'noetic for a ROS 1 wording, else ' +
                             DEFAULT_DISTRO))
    command.add_argument('--tf2', choices=CHOICES, default='auto',
                         help='who answers the lookups: tf2 itself (tf2_py, the BufferCore '
                         "the car's nodes run), the model, or auto (default): tf2_py where it "
                         'imports, else the model')
    command.add_argument('--config', metavar='FILE', help='frame_audit YAML (its topics)')
    command.add_argument('--format', choices=('text', 'json'), default='text')
    command.add_argument('-o', '--output', metavar='FILE', help="write here ('-': stdout)")
    command.add_argument('--plot', metavar='FILE', help="draw the limiting edge's stamp lag "
                         'over the recording, the wait and the refused lookups (.svg or .png)')


def _report_options(command: argparse.ArgumentParser, formats: Sequence[str] = (
        'text', 'markdown', 'json')) -> None:
    """Add the options of the commands that report: config, format, output, fail-on."""
    command.add_argument('--config', metavar='FILE', help='frame_audit YAML (default: the '
                         "package's config/frame_audit.yaml)")
    command.add_argument('--format', choices=formats, default='text')
    command.add_argument('-o', '--output', metavar='FILE', help="write the report here ('-': "
                         'stdout)')
    command.add_argument('--fail-on', choices=('error', 'warn', 'never'), default='error',
                         help='exit 1 when a finding is at or above this level (default: '
                         'error)')


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors on one line as every other unusable input is."""

    def error(self, message: str) -> NoReturn:
        """Exit 2 with one line: the error, and where the usage is."""
        self.exit(2, '{}: error: {} (see {} --help)\n'.format(self.prog, message, self.prog))


def parser() -> argparse.ArgumentParser:
    """Return the command line's parser."""
    main = _Parser(
        prog='frame-audit', description="Audit a car's coordinate frames (see README.md).")
    commands = main.add_subparsers(dest='command', required=True, metavar='COMMAND')

    audit = commands.add_parser('audit', help='audit recordings (rosbag2 folder, .db3, '
                                '.mcap, ROS 1 .bag)')
    audit.add_argument('paths', metavar='PATH', nargs='+',
                       help='a recording; several, or folders with --recursive, give a row each')
    _report_options(audit)
    audit.add_argument('--tree', metavar='FILE', help='draw the tree (.svg, .png or .dot)')
    audit.add_argument('--diagnostics', metavar='OUT.mcap',
                       help="write the verdicts as /diagnostics on the recording's timeline, "
                       'a rosbag2 folder OUT with OUT.mcap and metadata.yaml')
    audit.add_argument('--with-recording', action='store_true',
                       help='with --diagnostics: copy the recording into OUT beside them')
    audit.add_argument('--recursive', action='store_true',
                       help='audit every recording under the folders given')
    audit.add_argument('--jobs', type=int, default=0, metavar='N',
                       help='recordings audited at once, each in a process (default: cores)')
    audit.set_defaults(run=cmd_audit)

    init = commands.add_parser('init', help='write a config measured from a known-good '
                               'recording of any REP 105 robot')
    init.add_argument('path', metavar='RECORDING')
    init.add_argument('-o', '--output', metavar='FILE',
                      help="write the config here (default or '-': stdout)")
    init.set_defaults(run=cmd_init)

    simulate = commands.add_parser('simulate', help='write a simulated drive of the car')
    simulate.add_argument('out', metavar='OUT', nargs='?', help='a .mcap or .db3 path')
    simulate.add_argument('--duration', type=float, default=60.0, metavar='S')
    simulate.add_argument('--fault', action='append', default=[], metavar='NAME',
                          help='inject a named fault (repeat for several)')
    simulate.add_argument('--seed', type=int, default=0, metavar='N')
    simulate.add_argument('--gyro', action='store_true', help='the gyro odometry variant')
    simulate.add_argument('--config', metavar='FILE')
    simulate.add_argument('--list-faults', action='store_true', help='list the faults')
    simulate.set_defaults(run=cmd_simulate)

    demo = commands.add_parser('demo', help='a simulated car audited live, healthy then '
                               'faulty, then the same drive offline')
    demo.add_argument('--duration', type=float, default=20.0, metavar='S',
                      help='seconds of driving; faults switch on half-way (at most at 10 s)')
    demo.add_argument('--offline', action='store_true', help='skip the live part')
    demo.set_defaults(run=cmd_demo)

    lint = commands.add_parser('lint', help="check a workspace's launch, parameter and URDF "
                               'files for frame mistakes (reads them, never runs them)')
    lint.add_argument('path', metavar='WORKSPACE')
    lint.add_argument('--launch', action='append', nargs='+', metavar=('PKG/FILE', 'NAME:=VALUE'),
                      help='the entry launch file, as `ros2 launch PKG FILE` finds it (or a '
                      'path in the workspace), with its launch arguments; repeat for files '
                      'that run together. Without it, each launch file no other includes is '
                      'a bringup of its own, with its defaults')
    _report_options(lint, ('text', 'markdown', 'json', 'sarif'))  # sarif: findings at lines
    lint.set_defaults(run=cmd_lint)

    diff = commands.add_parser('diff', help='two cars side by side (recordings, configs or '
                               "init's output): what differs, with both values")
    diff.add_argument('a', metavar='A')
    diff.add_argument('b', metavar='B')
    diff.add_argument('--format', choices=('text', 'markdown', 'json'), default='text')
    diff.add_argument('-o', '--output', metavar='FILE', help="write here ('-': stdout)")
    diff.add_argument('--tolerance-m', type=float, default=0.001, metavar='M',
                      help='offsets closer than this agree (default 0.001)')
    diff.add_argument('--tolerance-rad', type=float, default=0.001, metavar='RAD')
    diff.add_argument('--rate-tolerance', type=float, default=0.2, metavar='FRACTION',
                      help='rates within this fraction of each other agree (default 0.2)')
    diff.set_defaults(run=cmd_diff)

    explain = commands.add_parser('explain', help='why did tf2 refuse my lookup? paste the '
                                  'error a node printed; the recording says which edge and why')
    explain.add_argument('path', metavar='RECORDING')
    explain.add_argument('error', metavar='ERROR', help='the tf2 error text, with or without '
                         'its log prefix (ROS 2 or ROS 1 wording)')
    explain.add_argument('--target', metavar='FRAME', help="for a message filter's line: the "
                         'frame its node transforms into')
    _tf2_options(explain, by_wording=True)
    explain.set_defaults(run=cmd_explain)

    lookup = commands.add_parser('lookup', help='ask a lookup of a recording as tf2 would '
                                 'have answered it: once (--at) or per message (--every)')
    lookup.add_argument('path', metavar='RECORDING')
    lookup.add_argument('target', metavar='TARGET')
    lookup.add_argument('source', metavar='SOURCE')
    asked = lookup.add_mutually_exclusive_group(required=True)
    asked.add_argument('--at', metavar='T', help="the stamp asked (seconds), '+S' after the "
                       'first /tf stamp, or 0: the latest')
    asked.add_argument('--every', metavar='TOPIC', help="at every message of TOPIC's stamp, "
                       'as a message filter asks')
    _tf2_options(lookup)
    lookup.set_defaults(run=cmd_lookup)

    monitor = commands.add_parser('monitor', help="watch frame_audit's /diagnostics live")
    monitor.add_argument('--once', action='store_true',
                         help='print the first update and exit (1 if none within --timeout)')
    monitor.add_argument('--duration', type=float, default=None, metavar='S',
                         help='watch for S seconds, then exit (1 if nothing arrived)')
    monitor.add_argument('--timeout', type=float, default=10.0, metavar='S',
                         help='with --once, how long to wait for the first update')
    monitor.add_argument('--color', choices=('auto', 'always', 'never'), default='auto',
                         help='colour the levels (auto: when stdout is a terminal)')
    monitor.set_defaults(run=cmd_monitor)
    return main


def _check_paths(args: argparse.Namespace) -> None:
    """Refuse a path argument the file system cannot hold (a component past NAME_MAX bytes)."""
    for name in PATH_ARGUMENTS:
        value = getattr(args, name, None)
        for text in value if isinstance(value, list) else [value]:
            if not isinstance(text, str):
                continue
            longest = max((len(part.encode('utf-8', 'surrogateescape'))
                           for part in text.split('/')), default=0)
            if longest > NAME_MAX:
                raise UsageError('{}... ({} bytes): a path with a component of {} bytes; a '
                                 'file name holds at most {}'.format(
                                     text[:60], len(text.encode('utf-8', 'surrogateescape')),
                                     longest, NAME_MAX))


def _named(args: argparse.Namespace, names: Sequence[str]) -> List[Tuple[str, str]]:
    """Return (option, path) of each path given in these arguments ('-': stdout, left out)."""
    named = []
    for name in names:
        value = getattr(args, name, None)
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str) and text and text != '-':
                named.append(('--' + name if name in OPTIONS else 'OUT' if name == 'out'
                              else 'the input', text))
    return named


def _same_file(a: str, b: str) -> bool:
    """Return whether two paths are one file or folder (one inode, through links too)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): one only where both paths lead alike
        return os.path.realpath(a) == os.path.realpath(b)


def _files_of(read: str) -> List[str]:
    """Return an input and, for a folder (a rosbag2 recording), the files directly in it."""
    if not os.path.isdir(read):
        return [read]
    try:
        with os.scandir(read) as entries:
            return [read] + [entry.path for entry in entries if entry.is_file()]
    except OSError:  # unreadable: the command itself will say so
        return [read]


def _check_outputs(args: argparse.Namespace) -> None:
    """
    Refuse an output onto a file the command reads, or onto another output of the same run.

    An input is a file or a recording's folder; writing onto one of that folder's files (its
    metadata.yaml, a .db3) destroys the recording as surely as writing onto the file.
    """
    inputs, outputs = _named(args, INPUT_ARGUMENTS), _named(args, OUTPUT_ARGUMENTS)
    for index, (option, path) in enumerate(outputs):
        for read_option, read in inputs:
            for part in _files_of(read):
                if _same_file(path, part):
                    raise UsageError('{} {} is {}{} {}, which this command reads: nothing was '
                                     'written; write to another path'.format(
                                         option, path, 'a file of ' if part != read else '',
                                         read_option, read))
        for other_option, other in outputs[index + 1:]:
            if _same_file(path, other):
                raise UsageError('{} {} and {} {} are one file: each output needs its own '
                                 'path'.format(option, path, other_option, other))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command; return its exit code."""
    args = parser().parse_args(argv)
    try:
        _check_paths(args)
        _check_outputs(args)
        return args.run(args)
    except FrameAuditError as error:
        print('frame-audit: error: {}'.format(error), file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return EXIT_UNUSABLE
