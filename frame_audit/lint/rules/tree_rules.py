# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
The declared tree's shape and names: the audit's tree checks, with a file and line for each.

parent_uniqueness, chain_order, transform_values and connectivity, as the audit checks them on
a live tree.
"""
from dataclasses import replace
import difflib
from fractions import Fraction
import math
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .laser_rules import laser_problems
from ..model import are_exclusive, DeclaredEdge, NodeParams, Param, Where
from ..publishers.declared import Declared
from ..publishers.table import frame_params, outside_edge, publisher_of, reads_frames, \
    sent_edges, switch_of
from ..readers.params import is_frame_key, leaf, yaml_text
from ...engine.admission import is_finite, is_unit, SAID
from ...engine.check_ids import CHAIN, CONNECTIVITY, PARENTS, VALUES
from ...engine.checks.chain import not_above
from ...engine.checks.common import arrow, describe, first_of
from ...engine.checks.parents import two_parents
from ...engine.config import AuditConfig
from ...engine.findings import CheckResult, Finding, fmt, Level
from ...engine.geometry import distance, normalized, quat_from_rpy, rotation_angle, rpy_of

PUBLISHERS = ('no static transform, robot description or publisher the lint read declares it '
              '(docs/lint.md lists those it knows)')
LASER_NAMES = ('laser', 'lidar', 'base_scan', 'laser_frame', 'laser_link', 'lidar_link',
               'scan', 'hokuyo_link', 'velodyne')
MAX_NAMED = 3  # senders, bringups or places named in one message


def rep105_parents(config: AuditConfig) -> Dict[str, str]:
    """Return each configured frame's parent as REP 105 orders them (the LiDAR on the base)."""
    return {config.laser_frame: config.base_frame, config.base_frame: config.odom_frame,
            config.odom_frame: config.map_frame}


def _is_expected(edge: DeclaredEdge, declared: Declared) -> bool:
    """Return whether an edge is the car's: REP 105's parent, the measured LiDAR offset."""
    config = declared.config
    parent_of = rep105_parents(config)
    parent, child = edge.key
    if child in parent_of and parent != parent_of[child]:
        return False
    return not (declared.measured and edge.key == (config.base_frame, config.laser_frame)
                and edge.value is not None and laser_problems(edge.value, config))


def _suspect(edges: Sequence[DeclaredEdge], declared: Declared) -> DeclaredEdge:
    """
    Return the declaration that most likely is the slip.

    The first that breaks REP 105 or the measured LiDAR; else a moving edge onto a frame that
    a fixed one already holds (a localizer aimed at a body frame); else the last.
    """
    moving = [e for e in edges if not e.static] if any(e.static for e in edges) else []
    return next((e for e in edges if not _is_expected(e, declared)),
                moving[0] if moving else edges[-1])


def are_alternatives(edges: Sequence[DeclaredEdge]) -> bool:
    """Return whether no two of these edges run together (each pair on opposite sides)."""
    return all(are_exclusive(a.branch, b.branch)
               for i, a in enumerate(edges) for b in edges[i + 1:])


def _second_parents(declared: Declared) -> List[Finding]:
    findings = []
    for child, edges in sorted(declared.parents().items()):
        parents = sorted({e.key[0] for e in edges})
        if len(parents) < 2 or are_alternatives(edges):
            continue
        suspect = _suspect(edges, declared)
        described = ' and '.join('{} ({})'.format(e.key[0], e.describe(suspect.at('parent')))
                                 for e in edges)
        findings.append(Finding(
            PARENTS, Level.ERROR,
            '{}: {}; keep one'.format(suspect.at('parent'),
                                      two_parents(child, len(parents), described)),
            'parents:' + child, frames=(child,) + tuple(parents), values=dict(
                suspect.at('parent').values(), parents=', '.join(parents))))
    return findings


def parents_across(trees: Sequence[Tuple[str, Declared]]) -> List[Finding]:
    """
    Report a configured frame that gets REP 105's parent in one bringup and another elsewhere.

    Bringups are often alternatives (a robot model, a mode, another robot), so only the frames
    the config orders (map, odom, base, laser) are asked, and only when one bringup gives
    the parent REP 105 expects: if the two run together, tf2 keeps whichever came last. A
    WARN naming both, for the person who knows which bringups run together.
    """
    if not trees:
        return []
    expected = rep105_parents(trees[0][1].config)
    parents: Dict[str, Dict[str, List[Tuple[str, DeclaredEdge]]]] = {}
    for name, tree in trees:
        for child, edges in tree.parents().items():
            if child in expected and not tree.has_two_parents(child):
                parents.setdefault(child, {}).setdefault(edges[0].key[0], []).append(
                    (name, edges[0]))
    findings = []
    for child, found in sorted(parents.items()):
        if len(found) < 2 or expected[child] not in found:
            continue
        sides = sorted(found.items())
        edge = _suspect([side[0][1] for _, side in sides], trees[0][1])
        findings.append(Finding(
            PARENTS, Level.WARN,
            '{}: {} gets the parent {}. If these bringups run together, tf2 keeps whichever '
            'came last and {} jumps between them; if they are alternatives, this is as '
            'meant'.format(edge.where, child, '; '.join(
                '{} ({}) when {} launched'.format(
                    parent, side[0][1].describe(edge.where), when_launched([n for n, _ in side]))
                for parent, side in sides), child),
            'across:' + child, frames=(child,) + tuple(found), values=edge.where.values()))
    return findings


def when_launched(bringups: Sequence[str]) -> str:
    """Return 'a is' or 'a, b and 3 more are', for 'when ... launched'."""
    return '{} {}'.format(first_of(bringups, MAX_NAMED), 'is' if len(bringups) == 1 else 'are')


def why_no_edges(declared: Declared) -> str:
    """
    Say why the files declare no transform, or '' when they declare one.

    A tree check over no edge would agree with nothing: its verdict is STALE, with this reason.
    """
    if declared.edges:
        return ''
    started = sorted({node.node for node in declared.nodes})
    why = ('no launch file the lint follows starts a node it can read' if not started else
           'none of the nodes the launch files start sends one the lint knows of ({})'.format(
               first_of(started, MAX_NAMED)))
    return 'not judged: the files declare no transform: {}{}{}'.format(
        why, not_read(declared), as_link(sorted(declared.links)[:MAX_NAMED], declared))


def not_read(declared: Declared) -> str:
    """
    Say what may send transforms the lint cannot read, or '' when it read every sender.

    A verdict over the edges it read holds for those alone: an include it could not open
    (a package outside the workspace) may send a second parent, so the verdict names it.
    """
    unread = unread_senders(declared)
    return '; {} may send some, but the lint does not know what'.format(unread) \
        if unread else ''


def unread_senders(declared: Declared) -> str:
    """Return the includes and nodes the lint could not read, each once at its first place."""
    return named_senders(declared.possible)


def named_senders(possible: Iterable[Tuple[str, Optional[Where]]]) -> str:
    """Return senders the lint cannot read, each once, with its place."""
    return first_of(list(dict.fromkeys('{} at {}'.format(what, where) if where else what
                                       for what, where in possible)), MAX_NAMED)


def _same_value(edges: Sequence[DeclaredEdge], declared: Declared) -> bool:
    """
    Return whether every sender declares one value: equal statics, or one joint declared twice.

    Two robot_state_publishers of one description send its moving joints alike, from the
    same /joint_states (tf2 drops the repeat): redundant, no jump (round L9).
    """
    if edges[0].via.startswith('URDF ') and all(
            e.value is None and (e.where, e.via) == (edges[0].where, edges[0].via) for e in edges):
        return True
    values = [e.value for e in edges if e.static and e.value is not None]
    if len(values) < len(edges):  # one moves, or its value is unknown
        return False
    first = values[0]
    return all(
        distance(value.translation, first.translation) <= declared.config.tolerance_m
        and rotation_angle(value.rotation, first.rotation) <= declared.config.tolerance_rad
        for value in values)


def _two_sources(declared: Declared) -> List[Finding]:
    by_edge: dict = {}
    for edge in declared.edges:
        by_edge.setdefault(edge.key, []).append(edge)
    findings = []
    for (parent, child), edges in sorted(by_edge.items()):
        if len(edges) < 2 or are_alternatives(edges):
            continue
        same = _same_value(edges, declared)
        suspect = _suspect(edges, declared)
        described = '; '.join('{} with {}'.format(e.describe(suspect.where), describe(e.value))
                              if e.value else e.describe(suspect.where) for e in edges)
        findings.append(Finding(
            PARENTS, Level.WARN if same else Level.ERROR,
            '{}: {} is declared by {} sources: {}. {}'.format(
                suspect.where, arrow(parent, child), len(edges), described,
                'The same value twice: if both start together, one is redundant' if same else
                'Two senders of one edge make the frame jump between them; keep one'),
            'sources:' + arrow(parent, child), frames=(parent, child),
            values=suspect.where.values()))
    return findings


def check_parent_uniqueness(declared: Declared) -> CheckResult:
    """Check that no frame is given two parents, and no edge two senders, across the files."""
    if not declared.edges:
        return CheckResult(PARENTS, why_no_edges(declared), stale=True)
    return CheckResult(PARENTS, 'each of {} declared frames has one parent and one source{}'
                       .format(len(declared.frames), ' among the senders the lint read' +
                               not_read(declared) if declared.possible else ''),
                       _second_parents(declared) + _two_sources(declared))


def _chain(declared: Declared) -> List[str]:
    config = declared.config
    return [config.map_frame, config.odom_frame, config.base_frame]


def _reversed(declared: Declared) -> List[Finding]:
    chain = _chain(declared)
    return [Finding(
        CHAIN, Level.ERROR,
        '{}: {} is declared ({}), but REP 105 orders {}: the edge is inverted. Send {} '
        'instead'.format(edge.where, arrow(*edge.key), edge.via, ' → '.join(chain),
                         arrow(edge.key[1], edge.key[0])),
        'reversed:' + arrow(*edge.key), frames=edge.key, values=edge.where.values())
        for edge in declared.edges
        if set(edge.key) <= set(chain) and chain.index(edge.key[0]) > chain.index(edge.key[1])]


def _switched_off(declared: Declared, upper: str, lower: str) -> Optional[Param]:
    """Return the switch that keeps a known publisher from sending upper → lower, if one does."""
    for node in declared.nodes:
        would = sent_edges(node, declared.table, switched=False) or []
        if any(e.key == (upper, lower) for e in would) \
                and not sent_edges(node, declared.table):
            return switch_of(node, declared.table)
    return None


def as_link(frames: Sequence[str], declared: Declared) -> str:
    """Say where frames nothing publishes are links of a description: held back, or unread."""
    held = [frame for frame in frames if frame in declared.waiting]
    found = ['{} at {}'.format(frame, declared.links[frame]) for frame in frames
             if frame in declared.links and frame not in held]
    said = ''
    if held:
        edge = declared.waiting[held[0]]
        said += ('; {} {} of a moving joint robot_state_publisher holds back ({}, {}): it sends '
                 'a moving joint only once /joint_states gives its position, and nothing here '
                 'publishes /joint_states (joint_state_publisher, a ros2_control '
                 'joint_state_broadcaster, a simulator)').format(
                     ', '.join(held), 'is a frame' if len(held) == 1 else 'are frames',
                     edge.via, edge.where)
    if found:
        said += ('; {} {} of a robot description that no launch the lint can follow loads, or '
                 'that cannot be expanded (lint_files says which)').format(
                     ', '.join(found), 'is a link' if len(found) == 1 else 'are links')
    return said


def unknown_senders(declared: Declared) -> Tuple[Level, str]:
    """Return the level of a 'nothing sends it' finding, and the senders the lint cannot read."""
    if not declared.possible:
        return Level.ERROR, ''
    possible = list({what: (what, where) for what, where in reversed(declared.possible)}
                    .values())[::-1]  # each sender once, at its first place
    places = {where: (what, where) for what, where in reversed(possible) if where}
    possible = [(what, where) for what, where in possible  # one node, one name: its first
                if not where or places[where] == (what, where)]
    named = first_of(['{} at {}'.format(what, where) if where else what
                      for what, where in possible], MAX_NAMED)
    return Level.WARN, ('; {} may send it: the lint does not know {}. Say what a node of yours '
                        'sends under lint.publishers in the frame_audit config'.format(
                            named, 'what they send' if len(possible) > 1 else 'what it sends'))


def _out_of_order(declared: Declared, reported: List[Finding]) -> List[Finding]:
    chain = [f for f in _chain(declared) if f in (declared.config.required_frames or ())]
    findings = []
    for upper, lower in zip(chain, chain[1:]):
        ancestry = declared.ancestry(lower)
        if upper in ancestry or not {upper, lower} <= declared.frames \
                or declared.has_two_parents(ancestry[-1]) \
                or any(set(f.frames) >= {upper, lower} for f in reported):
            continue
        switch = _switched_off(declared, upper, lower)
        top = ancestry[-1]  # a base_footprint above the base: upper belongs above it
        off = '{} is {} there, so nothing sends {}'.format(
            switch.name, yaml_text(switch.value), arrow(upper, lower)) \
            if switch else 'Nothing declares {}{}'.format(arrow(upper, top), '' if top == lower
                                                          else ', the top of that ancestry')
        level, possible = unknown_senders(declared)
        findings.append(Finding(
            CHAIN, level,
            '{}{}. {} (REP 105 orders {}){}'.format(
                '{}: '.format(switch.where) if switch else '',
                not_above(upper, lower, ancestry, 'in the declared tree'), off,
                ' → '.join(_chain(declared)), possible),
            'order:{}:{}'.format(upper, lower), frames=(upper, lower),
            values=switch.where.values() if switch else {}))  # nothing declared has no place
    return findings


def _place_of(frame: str, declared: Declared) -> Where:
    """Return where the tree places a declared frame: the edge giving it a parent, or below."""
    edges = declared.parents().get(frame) or [e for e in declared.edges if e.key[0] == frame]
    return edges[0].where


def _config_key(frame: str, declared: Declared) -> str:
    config = declared.config
    keys = {config.map_frame: 'frames.map', config.odom_frame: 'frames.odom',
            config.base_frame: 'frames.base', config.laser_frame: 'frames.laser'}
    return keys.get(frame, 'frames.required')


def _renamed(frame: str, declared: Declared) -> Optional[str]:
    """Return the declared frame a missing one probably is: prefixed, or the LiDAR renamed."""
    frames = sorted(declared.frames)
    found = [f for f in frames if f.endswith('/' + frame)]
    if not found and frame == declared.config.laser_frame:
        found = [f for f in frames if f.rsplit('/', 1)[-1] in LASER_NAMES]
    return found[0] if len(found) == 1 else None


def _missing(declared: Declared) -> List[Finding]:
    """Report required frames no declaration names: renamed ones once, with the keys to set."""
    missing = [f for f in declared.config.required_frames or () if f not in declared.frames]
    if not declared.measured:
        return []  # without --config nothing says which frames this robot has (the summary)
    renamed = {frame: _renamed(frame, declared) for frame in missing}
    hinted = {frame: found for frame, found in renamed.items() if found}
    findings = []
    if hinted:
        senders = {e.key[1]: e for e in declared.edges}
        findings.append(Finding(
            CHAIN, Level.WARN,
            "{} {} in no declared transform, but the workspace declares {}: the robot's "
            'frames are probably named otherwise here. If so, set {} in the frame_audit '
            'config'.format(
                ', '.join(hinted), 'is' if len(hinted) == 1 else 'are',
                ', '.join('{} ({})'.format(found, senders[found].describe())
                          if found in senders else found for found in hinted.values()),
                ', '.join('{}: {}'.format(_config_key(frame, declared), found)
                          for frame, found in hinted.items())),
            'renamed', frames=tuple(hinted) + tuple(hinted.values()),
            values=_place_of(next(iter(hinted.values())), declared).values()))
    sent = declared.left_out.frames
    rest = [frame for frame in missing if frame not in hinted and frame not in sent]
    findings += _sent_by_a_bringup_left_out(
        [frame for frame in missing if frame not in hinted and frame in sent], declared)
    if rest:
        _, possible = unknown_senders(declared)
        if declared.left_out.possible:  # a launch file not given may start its sender
            possible += '; in launch files not given with --launch, {} may send it'.format(
                named_senders(declared.left_out.possible))
        # nothing here sending a frame is no fault of this workspace: on a car the map often
        # comes from the particle filter's own workspace (issue 31, class K)
        findings.append(Finding(
            CHAIN, Level.WARN, '{} {} in no declared transform (frames.required lists {}): '
            '{}{}{}. {}'.format(', '.join(rest), 'is' if len(rest) == 1 else 'are',
                                'it' if len(rest) == 1 else 'them', PUBLISHERS, possible,
                                as_link(rest, declared), _usual_senders(rest, declared)),
            'missing', frames=tuple(rest)))
    return findings


def _usual_senders(frames: Sequence[str], declared: Declared) -> str:
    """Say who usually sends each frame's edge, so a person can tell where it should come from."""
    config = declared.config
    usual = {config.map_frame: 'localization or SLAM, often from a workspace of its own (a '
             'particle filter, amcl, slam_toolbox, cartographer)',
             config.odom_frame: 'the odometry node (vesc_to_odom, a diff_drive_controller, '
             "robot_localization's EKF)",
             config.base_frame: "the odometry node's odom → base edge, or the robot "
             'description',
             config.laser_frame: 'a static transform in the bringup, or the robot '
             'description (URDF)'}
    said = ['{} usually comes from {}'.format(frame, usual.get(frame, 'the robot description '
                                                               'or a static transform'))
            for frame in frames]
    return '; '.join(said) + ': if none of them runs with this workspace, nothing sends it'


def _sent_by_a_bringup_left_out(frames: List[str], declared: Declared) -> List[Finding]:
    """
    Report required frames only launch files left out of --launch declare: a WARN, no proof.

    The user named what runs together; a map sent by cartographer's launch file, started by
    hand beside the bringup, is missing from the named files but not from the robot.
    """
    return [Finding(
        CHAIN, Level.WARN, '{} is in no transform the launch files given with --launch '
        'declare ({} lists it), but {} of the workspace declares it: if it runs beside them on '
        'the robot, give it with --launch too; if not, nothing sends {}{}'.format(
            frame, _config_key(frame, declared),
            first_of(list(declared.left_out.frames[frame]), MAX_NAMED), frame,
            unknown_senders(declared)[1]),
        'left_out:{}'.format(frame), frames=(frame,)) for frame in frames]


def _odom_users(declared: Declared) -> List[str]:
    """Return who uses the odom frame: each edge that names it, each parameter set to it."""
    config = declared.config
    odom, skipping = config.odom_frame, (config.map_frame, config.base_frame)
    edges = ['{} ({})'.format(arrow(*e.key), e.describe()) for e in declared.edges
             if odom in e.key]
    params = ["{}'s {} at {}".format(node.node, leaf(p.name), p.where)
              for node, p in frame_parameters(declared)
              if isinstance(p.value, str) and p.value.lstrip('/') == odom and not any(
                  e.key == skipping for e in sent_edges(node, declared.table) or [])]
    return edges + params  # not the sender's own unused odom_frame option


def _odom_beside(declared: Declared) -> List[Finding]:
    """
    Report map → base declared directly while the odom frame is used: odom is not above it.

    cartographer with published_frame = the base and provide_odom_frame = false sends
    map → base_link; a node that works in odom (a costmap, an EKF, odometry) then sees a
    frame beside the base, never connected above it as REP 105 orders.
    """
    config = declared.config
    users = _odom_users(declared)
    if not users or declared.has_two_parents(config.base_frame):  # parent_uniqueness says it
        return []
    return [Finding(
        CHAIN, Level.ERROR,
        '{}: {} is declared directly ({}), but {} is used ({}): REP 105 orders {}, and here '
        '{} is beside {}, not above it. Send {} and {} instead (cartographer: '
        'provide_odom_frame = true, or published_frame = {} with odometry sending {})'.format(
            edge.at('child'), arrow(*edge.key), edge.via, config.odom_frame,
            first_of(users, MAX_NAMED), ' → '.join(_chain(declared)), config.odom_frame,
            config.base_frame, arrow(config.map_frame, config.odom_frame),
            arrow(config.odom_frame, config.base_frame), config.odom_frame,
            arrow(config.odom_frame, config.base_frame)),
        'beside:{}'.format(edge.where), frames=(config.map_frame, config.odom_frame,
                                                config.base_frame),
        values=edge.at('child').values())
        for edge in declared.edges if edge.key == (config.map_frame, config.base_frame)]


def check_chain_order(declared: Declared) -> CheckResult:
    """Check REP 105 in the declared tree: map above odom above base_link, none inverted."""
    findings = _reversed(declared) + _odom_beside(declared)
    findings += _out_of_order(declared, findings)
    findings += _missing(declared)
    ancestry = declared.ancestry(declared.config.base_frame)
    missing = [f for f in declared.config.required_frames or () if f not in declared.frames]
    unasked = '; not declared here: {} (no --config, so no frame is required)'.format(
        ', '.join(missing)) if missing and not declared.measured else ''
    chain = [f for f in _chain(declared) if f in declared.frames]
    if not declared.measured and len(chain) < 2:  # no two of the chain: no order to judge
        return CheckResult(CHAIN, why_no_edges(declared) or (
            'not judged: of {} the files declare {}, so their order cannot be known{}'.format(
                ' → '.join(_chain(declared)), 'only ' + chain[0] if chain else 'none',
                unasked)), findings, stale=True)
    base = declared.config.base_frame
    if base not in declared.frames and not declared.measured:  # its ancestry is itself alone
        return CheckResult(CHAIN, '{} is not declared here (no --config, so no frame is '
                           'required), so its place below {} is not judged'.format(
                               base, ' and '.join(chain)), findings, stale=True)
    return CheckResult(CHAIN, '{} ancestry: {}{}'.format(base, ' ← '.join(ancestry), unasked),
                       findings)


def _edge_values(edge: DeclaredEdge) -> List[Finding]:
    problems = []
    if not all(edge.key):
        problems.append(_said('empty_frame_id'))
    elif edge.key[0] == edge.key[1]:
        problems.append(_said('self_parent'))
    if edge.value is not None and not is_finite(edge.value):
        problems.append(_said('not_finite'))
    elif edge.value is not None and not is_unit(edge.value.rotation):
        problems.append((Level.ERROR, _not_unit(edge.value.rotation)))
    slashed = [name for name in (edge.parent, edge.child) if name.startswith('/')]
    if slashed:
        problems.append((Level.WARN, "{} {} with '/': tf2 strips it, so the transform lands on "
                         '{}'.format(' and '.join(repr(s) for s in slashed),
                                     'start' if len(slashed) > 1 else 'starts',
                                     arrow(*edge.key))))
    return [Finding(VALUES, level, '{}: {} ({}): {}'.format(
        edge.where, arrow(repr(edge.parent), repr(edge.child)), edge.via, what),
        '{}:{}'.format(what, edge.where), frames=tuple(f for f in edge.key if f),
        values=edge.where.values()) for level, what in problems]


def _said(reason: str) -> Tuple[Level, str]:
    """Return a fault of a value as the audit says it (admission.SAID): level, and words."""
    level, what, action = SAID[reason]
    return level, '{}; {}'.format(what, action)


def _not_unit(q: Tuple[float, float, float, float]) -> str:
    """Say what tf2 does with a non-unit quaternion, and what it would be if meant otherwise."""
    norm = math.sqrt(sum(c * c for c in q))
    text = ('the quaternion (qx, qy, qz, qw) = ({}) has length {}, not 1: tf2 drops the '
            'transform, so the edge never exists'.format(', '.join(fmt(c, 4) for c in q),
                                                         fmt(norm, 4)))
    axes = [i for i in range(3) if q[i]]
    if len(axes) == 1 and q[3] in (0.0, 1.0):  # an angle written in a quaternion slot
        axis, angle = axes[0], q[axes[0]]
        name = ('roll', 'pitch', 'yaw')[axis]
        meant = quat_from_rpy(*(angle if i == axis else 0.0 for i in range(3)))
        text += ('. A {} of {} rad ({} degrees) given in the quaternion slots? That rotation is '
                 '(qx, qy, qz, qw) = ({}), or write it as --{} {} (or x y z yaw pitch roll '
                 'parent child, 8 arguments)'.format(
                     name, fmt(angle, 4), fmt(math.degrees(angle), 1),
                     ', '.join(fmt(c, 4) for c in meant), name, fmt(angle, 4)))
    elif norm > 0:  # a slip in the digits (0.7171 for 0.7071), or an angle in a slot
        unit = normalized(q)
        text += ('. Scaled to length 1 it would be {}, (qx, qy, qz, qw) = ({})'.format(
            ', '.join('{} {} degrees'.format(name, fmt(math.degrees(a), 1))
                      for name, a in zip(('roll', 'pitch', 'yaw'), rpy_of(unit))),
            ', '.join(fmt(c, 4) for c in unit)))
        angles = [(slot, c) for slot, c in zip(('qx', 'qy', 'qz', 'qw'), q) if abs(c) > 1
                  and abs(c / (math.pi / 4) - round(c / (math.pi / 4))) < 0.002]
        for slot, angle in angles:  # no unit quaternion holds a component past 1
            text += ('; {} = {} is {} ({} degrees), an angle in radians in a quaternion '
                     'slot? Give a rotation as --roll/--pitch/--yaw (or x y z yaw pitch roll '
                     'parent child), or as its quaternion'.format(
                         slot, fmt(angle, 4), _of_pi(Fraction(round(angle / (math.pi / 4)), 4)),
                         fmt(math.degrees(angle), 1)))
    return text


def _of_pi(fraction: Fraction) -> str:
    """Return a multiple of π as written by hand: π/2, -π, 3π/4."""
    top = {1: '', -1: '-'}.get(fraction.numerator, str(fraction.numerator))
    return '{}π{}'.format(top, '' if fraction.denominator == 1 else '/{}'.format(
        fraction.denominator))


def frame_parameters(declared: Declared) -> List[Tuple[NodeParams, Param]]:
    """
    Return the parameters that name frames: the table's, for the nodes it knows.

    Of other nodes, a *_frame parameter counts when its value is a frame elsewhere (declared,
    or named by a known node) or nearly one (a misspelling): an IMU filter's world_frame: enu
    is a convention, not a frame.
    """
    known = [(node, param) for node in declared.nodes
             for param in frame_params(node, declared.table)]
    frames = declared.every_frame | {p.value.lstrip('/') for _, p in known
                                     if isinstance(p.value, str)}  # not one known at launch
    found = list(known)
    for node in declared.nodes:
        if reads_frames(node, declared.table):
            continue
        for param in node.params.values():
            value = str(param.value).lstrip('/')
            if is_frame_key(param.name) and isinstance(param.value, str) and param.value and (
                    value in frames or difflib.get_close_matches(value, frames, 1, 0.8)):
                found.append((node, param))
    return found


def _param_slashes(declared: Declared) -> List[Finding]:
    return [Finding(VALUES, Level.WARN, "{}: {}'s {} is {!r}: tf2 strips the leading '/', so "
                    'write {!r}'.format(p.where, node.node, p.name, p.value, p.value.lstrip('/')),
                    'slash:{}'.format(p.where), frames=(p.value.lstrip('/'),),
                    values=p.where.values())
            for node, p in frame_parameters(declared)
            if isinstance(p.value, str) and p.value.startswith('/')]


def check_transform_values(declared: Declared) -> CheckResult:
    """Check for declared transforms that tf2 drops or renames, and slashed frame names."""
    findings = [f for edge in declared.edges for f in _edge_values(edge)]
    said = {f.values.get('line') and (f.values['file'], f.values['line']) for f in findings}
    findings += [f for f in _param_slashes(declared)  # one cause, one finding
                 if (f.values['file'], f.values['line']) not in said]
    return CheckResult(VALUES, why_no_edges(declared) or 'every declared transform is finite '
                       'and well named', findings, stale=not declared.edges)


def _unjoined(declared: Declared) -> List[Finding]:
    """
    Report a robot description whose root link has no parent while a prefixed twin has one.

    A simulator or localizer places ego_racecar/base_link; a description read without
    frame_prefix sends base_link → laser: the model's links never join the tree.
    """
    parents = declared.parents()
    below_of: Dict[str, DeclaredEdge] = {}  # a link -> the first URDF edge hanging from it
    for edge in declared.edges:
        if edge.via.startswith('URDF '):
            below_of.setdefault(edge.key[0], edge)
    twins_of: Dict[str, List[DeclaredEdge]] = {}  # a name -> the prefixed frames ending in it
    for child, edges in sorted(parents.items()):
        if edges and not edges[0].via.startswith('URDF '):
            parts = child.split('/')
            for start in range(1, len(parts)):
                twins_of.setdefault('/'.join(parts[start:]), []).append(edges[0])
    findings = []
    for root in sorted(below_of):  # one pass over the links: a 10,000-link chain in linear time
        twins = twins_of.get(root, [])
        if root in parents or not twins:
            continue
        below = below_of[root]
        prefix = twins[0].key[1][:-len(root)]
        findings.append(Finding(
            CONNECTIVITY, Level.WARN,
            '{}: the robot description hangs from {} ({}), which has no parent, while {} '
            'places {} ({}): the model never joins the tree, and its links have no parent. '
            'Give robot_state_publisher frame_prefix: {} (or name the links as the tree '
            'does)'.format(below.where, root, below.via, twins[0].describe(), twins[0].key[1],
                           arrow(*twins[0].key), prefix),
            'unjoined:{}'.format(root), frames=(root, twins[0].key[1]),
            values=below.where.values()))
    return findings


def _bridge_frame(frame: str, declared: Declared) -> str:
    """
    Say that an undeclared frame is the F1TENTH gym bridge's, which no bringup here starts.

    Whether the bridge runs beside (started from another workspace) the files cannot say; where
    it puts the frame, they can: under map, so a consumer's odom frame never reaches it.
    """
    edge = outside_edge(frame)
    if edge is None or frame in declared.frames or any(
            p is not None and p.label == 'gym_bridge'
            for p in (publisher_of(n, declared.table) for n in declared.nodes)):
        return ''
    return ('no bringup here starts the F1TENTH gym bridge, whose frame it is: if the bridge '
            'runs beside it, {} hangs from {} ({}); whether it runs, the files cannot '
            'say'.format(frame, edge[0], arrow(*edge)))


def check_connectivity(declared: Declared) -> CheckResult:
    """Check that every frame a node's parameters name is declared and reaches the base."""
    frames, (components, undecided) = declared.frames, declared.component_of()
    base = components.get(declared.config.base_frame)
    chain = [f for f in _chain(declared) if f in components]
    broken = {components[f] for f in chain if components[f] != base}  # chain_order's finding
    unknown, possible = unknown_senders(declared)  # the same for every parameter
    findings = _unjoined(declared)
    config = declared.config
    beside = config.odom_frame if any(  # chain_order says why odom is not there: one cause
        e.key == (config.map_frame, config.base_frame) for e in declared.edges) else None
    apart: Dict[str, int] = {}  # each other tree said once, at its first finding: one cause
    also: Dict[int, List[str]] = {}
    unsent: Dict[str, int] = {}  # each frame nothing sends said once, naming every user
    too: Dict[int, List[str]] = {}
    named = frame_parameters(declared)
    for node, param in named:
        if not isinstance(param.value, str) or not param.value \
                or param.value.lstrip('/') == beside:
            continue
        frame = param.value.lstrip('/')
        level, bridge = unknown, _bridge_frame(frame, declared)
        if bridge:
            level, what = Level.WARN, bridge
        elif frame not in frames:
            if frame in unsent:
                too.setdefault(unsent[frame], []).append("{}'s {} ({})".format(
                    node.node, leaf(param.name), param.where))
                continue
            unsent[frame] = len(findings)
            close = difflib.get_close_matches(frame, sorted(frames), 1, 0.8)
            what = 'nothing {} publishes it: {}{}{}{}'.format(
                declared.scope, PUBLISHERS, possible, as_link([frame], declared),
                "; did you mean '{}'?".format(close[0]) if close else '')
        elif base is not None and components[frame] != base \
                and components[frame] not in broken | undecided:
            if components[frame] in apart:
                also.setdefault(apart[components[frame]], []).append("{}'s {} {} ({})".format(
                    node.node, leaf(param.name), frame, param.where))
                continue
            apart[components[frame]] = len(findings)
            what = 'that frame is in another tree than {}: nothing connects them{}'.format(
                declared.config.base_frame, possible)
        else:
            continue
        findings.append(Finding(
            CONNECTIVITY, level, "{}: {}'s {} is {}, but {}".format(
                param.where, node.node, leaf(param.name), frame, what),
            'frame:{}'.format(param.where), frames=(frame,), values=param.where.values()))
    summary = 'every frame the parameters name is declared and reaches {}'.format(
        declared.config.base_frame) if named else (
        "not judged: no parameter of a started node names a frame, so no consumer's frame "
        'can be followed to {}'.format(declared.config.base_frame))
    return CheckResult(CONNECTIVITY, summary, [
        _named_too(f, also.get(i, []), too.get(i, [])) for i, f in enumerate(findings)],
        stale=not named)


def _named_too(finding: Finding, tree: List[str], frame: List[str]) -> Finding:
    """Return a connectivity finding with the other parameters of its one cause named."""
    if tree:
        finding = replace(finding, message='{}; in that tree too: {}'.format(
            finding.message, ', '.join(tree)))
    if frame:
        finding = replace(finding, message='{}; also named by {}'.format(
            finding.message, first_of(frame, MAX_NAMED)))
    return finding
