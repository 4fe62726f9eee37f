# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The frame-audit command: audit a recording, simulate one, run the demo, watch a live car.

Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 the input cannot be read or
the arguments are wrong (one line on stderr, never a traceback).
"""
import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from .engine.config import default_config_file, load_config
from .errors import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE, FrameAuditError, UsageError


def _config(path: Optional[str]):
    return load_config(Path(path) if path else default_config_file())


def _progress_bar(total: float, unit: str = 's'):
    """Return a tqdm bar over recorded seconds (or recordings) on a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=round(total, 1), unit=unit, unit_scale=unit == 's', desc='auditing',
                file=sys.stderr, leave=False)


def _audit_report(path: Path, config, keep_cycles: bool = False):
    from .recordings import BagError
    from .recordings.read import recording_info
    from .recordings.offline import audit_recording

    try:
        info = recording_info(path)
        bar = _progress_bar(info.duration_s)
        try:
            result = audit_recording(path, config, progress=bar.update if bar else None,
                                     keep_cycles=keep_cycles)
        finally:
            if bar:
                bar.close()
    except BagError as error:
        raise UsageError(str(error)) from None
    return result, result.report()


def _season(args: argparse.Namespace) -> int:
    """Audit many recordings, a row each and a summary; exit with the worst of them."""
    from .recordings import BagError
    from .recordings.season import audit_many, find_recordings
    from .reports.season import failing, SEASON_FORMATS

    if args.tree or args.diagnostics:
        raise UsageError('--tree and --diagnostics take one recording')
    try:
        paths = find_recordings(args.paths, args.recursive)
    except BagError as error:
        raise UsageError(str(error)) from None
    if not paths:
        raise UsageError('no recordings (.mcap, .db3, .bag or rosbag2 folders) under {}'.format(
            ', '.join(args.paths)))
    config = _config(args.config)
    bar = _progress_bar(len(paths), 'recording')
    try:
        rows = audit_many(paths, config, args.jobs or os.cpu_count() or 1,
                          done=(lambda row: bar.update(1)) if bar else None)
    finally:
        if bar:
            bar.close()
    _write(SEASON_FORMATS[args.format](rows), args.output, 'the report')
    if any(row.error for row in rows):
        return EXIT_UNUSABLE
    return EXIT_FINDINGS if failing(rows, args.fail_on) else EXIT_OK


def cmd_audit(args: argparse.Namespace) -> int:
    """Audit a recording and print (or write) its report; many recordings, a row each."""
    from .reports.report import fails
    from .reports.tree_picture import check_suffix, PictureError, write_tree

    if len(args.paths) > 1 or args.recursive:
        return _season(args)
    args.path = args.paths[0]
    if args.tree:
        try:
            check_suffix(Path(args.tree))
        except PictureError as error:
            raise UsageError(str(error)) from None
    if args.with_recording and not args.diagnostics:
        raise UsageError('--with-recording adds the recording to --diagnostics OUT.mcap')
    config = _config(args.config)
    result, report = _audit_report(Path(args.path), config, keep_cycles=bool(args.diagnostics))
    if args.diagnostics:
        _write_diagnostics(Path(args.diagnostics), result, config,
                           Path(args.path) if args.with_recording else None)
    _emit(report, args)
    if args.tree:
        from .engine.checks.tree import expected_missing
        store = result.audit.store
        chain = store.ancestry(config.base_frame) + [config.laser_frame]
        try:
            write_tree(Path(args.tree), store, report.findings,
                       'frame_audit: {}'.format(report.source),
                       expected_missing(store, config), chain)
        except (PictureError, OSError) as error:
            raise UsageError(str(error)) from None
    return EXIT_FINDINGS if fails(report, args.fail_on) else EXIT_OK


def _write_diagnostics(path: Path, result, config, recording: Optional[Path]) -> None:
    """Write the audit's /diagnostics (and the recording, if given) as a rosbag2 folder."""
    from .recordings import BagError
    from .recordings.diagnostics import write_diagnostics

    try:
        folder = write_diagnostics(path, result.cycles, config.hardware_id, recording)
    except BagError as error:
        raise UsageError(str(error)) from None
    print('wrote {}/ ({} /diagnostics messages{}; ros2 bag play {}, or open {}/{}.mcap in '
          'Foxglove)'.format(folder, len(result.cycles), ' beside the recording' if recording
                             else '', folder, folder, folder.name), file=sys.stderr)


def _to_stdout(output: Optional[str]) -> bool:
    return not output or output == '-'


def _emit(report, args: argparse.Namespace) -> None:
    """Write the report in --format to --output, or to stdout (in colour on a terminal)."""
    from .reports.report import FORMATS

    colour = args.format == 'text' and _to_stdout(args.output) and sys.stdout.isatty()
    text = FORMATS[args.format](report, colour) if args.format == 'text' else \
        FORMATS[args.format](report)
    _write(text, args.output, 'the report')


def _write(text: str, output: Optional[str], what: str) -> None:
    """Write text to the file output, or to stdout when it is missing or '-'."""
    if _to_stdout(output):
        sys.stdout.write(text)
        return
    try:
        Path(output).write_text(text, encoding='utf-8')  # type: ignore[arg-type]
    except OSError as error:
        raise UsageError('{}: cannot write {} ({})'.format(output, what,
                                                           error.strerror)) from None


def _simulate_to(path: Path, duration: float, seed: int, faults: Sequence[str], gyro: bool,
                 config) -> None:
    """Record a simulated drive, each pose topic in the message type the car sends."""
    from .recordings.write import write_bag
    from .sim.car import drive, POSE_TYPES

    write_bag(path, drive(duration, seed=seed, faults=faults, gyro=gyro, config=config),
              pose_types=POSE_TYPES)


def cmd_init(args: argparse.Namespace) -> int:
    """Write a config measured from a known-good recording of the robot."""
    from .engine.measure import MeasureError
    from .recordings import BagError
    from .recordings.describe import describe_recording

    try:
        text = describe_recording(Path(args.path))
    except (BagError, MeasureError) as error:
        raise UsageError(str(error)) from None
    _write(text, args.output, 'the config')
    if not _to_stdout(args.output):
        print('wrote {}; audit with: frame-audit audit RECORDING --config {}'.format(
            args.output, args.output), file=sys.stderr)
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    """Write a simulated drive of the car, clean or with faults, to a recording."""
    from .recordings import BagError
    from .sim.car import FAULTS

    if args.list_faults:
        width = max(len(name) for name in FAULTS)
        for name, description in FAULTS.items():
            print('{}  {}'.format(name.ljust(width), description))
        return EXIT_OK
    if not args.out:
        raise UsageError('simulate needs OUT (a .mcap or .db3 path), or --list-faults')
    unknown = [name for name in args.fault if name not in FAULTS]
    if unknown:
        raise UsageError('unknown fault {}; frame-audit simulate --list-faults lists them'
                         .format(', '.join(unknown)))
    try:
        _simulate_to(Path(args.out), args.duration, args.seed, args.fault, args.gyro,
                     _config(args.config))
    except BagError as error:
        raise UsageError(str(error)) from None
    print('wrote {} ({} s{})'.format(args.out, args.duration,
                                     ', faults: ' + ', '.join(args.fault) if args.fault else ''))
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """Show the audit live over DDS, then a healthy and a faulty drive offline."""
    from .sim.demo import run_demo

    run_demo(args.duration, live=not args.offline, colour=sys.stdout.isatty())
    return EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    """Check a workspace's launch, parameter and URDF files for frame mistakes."""
    from .lint import LintError, lint_workspace
    from .reports.report import fails

    from .lint.bringup import parse_arguments

    launches = args.launch or []
    try:
        given = parse_arguments([word for launch in launches for word in launch[1:]])
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        report = lint_workspace(Path(args.path), _config(args.config),
                                [launch[0] for launch in launches], given)
    except LintError as error:
        raise UsageError(str(error)) from None
    _emit(report, args)
    return EXIT_FINDINGS if fails(report, args.fail_on) else EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    """Put two cars side by side: recordings or configs; exit 1 when they differ."""
    from .engine.measure import MeasureError
    from .engine.compare import differences
    from .recordings import BagError
    from .recordings.describe import side_of
    from .reports.diff import DIFF_FORMATS

    try:
        a, b = side_of(Path(args.a)), side_of(Path(args.b))
    except (BagError, MeasureError) as error:
        raise UsageError(str(error)) from None
    found = differences(a, b, args.tolerance_m, args.tolerance_rad, args.rate_tolerance)
    _write(DIFF_FORMATS[args.format](a, b, found), args.output, 'the differences')
    return EXIT_FINDINGS if found else EXIT_OK


def cmd_monitor(args: argparse.Namespace) -> int:
    """Show frame_audit's live diagnostics in the terminal."""
    from .ros.monitor import run_monitor
    return run_monitor(args)


def _report_options(command: argparse.ArgumentParser, formats: Sequence[str] = (
        'text', 'markdown', 'json')) -> None:
    """Add the options of the commands that report: config, format, output, fail-on."""
    command.add_argument('--config', metavar='FILE', help='frame_audit YAML (default: the '
                         "package's config/frame_audit.yaml)")
    command.add_argument('--format', choices=formats, default='text')
    command.add_argument('--output', metavar='FILE', help="write the report here ('-': "
                         'stdout)')
    command.add_argument('--fail-on', choices=('error', 'warn', 'never'), default='error',
                         help='exit 1 when a finding is at or above this level (default: '
                         'error)')


def parser() -> argparse.ArgumentParser:
    """Return the command line's parser."""
    main = argparse.ArgumentParser(
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
    init.add_argument('--output', metavar='FILE', help="write the config here (default or '-': "
                      'stdout)')
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
    diff.add_argument('--output', metavar='FILE', help="write here ('-': stdout)")
    diff.add_argument('--tolerance-m', type=float, default=0.001, metavar='M',
                      help='offsets closer than this agree (default 0.001)')
    diff.add_argument('--tolerance-rad', type=float, default=0.001, metavar='RAD')
    diff.add_argument('--rate-tolerance', type=float, default=0.2, metavar='FRACTION',
                      help='rates within this fraction of each other agree (default 0.2)')
    diff.set_defaults(run=cmd_diff)

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


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command; return its exit code."""
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except FrameAuditError as error:
        print('frame-audit: error: {}'.format(error), file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return EXIT_UNUSABLE
