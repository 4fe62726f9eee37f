# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Hostile input, round three, as properties: any hostile id in any text output, any output path.

Each example writes its recording (test_damaged.write_tf) and runs the command in this
process, as `frame-audit` runs it; what is expected is told from the input (which characters
must never reach a terminal, which file each spelling of a path leads to), never from the code.
"""
import contextlib
import io
import os
from pathlib import Path
import re
import tempfile
from typing import Optional, Tuple

from hypothesis import given, settings, strategies as st
from test_damaged import odom_drive, T0, tf_message, write_tf


HOSTILE_PIECES = st.sampled_from([
    '\x00', '\x07', '\x08', '\t', '\r', '\n', '\x1b', '\x1b[2J', '\x1b]0;owned\x07', '\x7f',
    '\x85', '\x9b', '\u061c', '\u200e', '\u200f', '\u2028', '\u2029', '\u202a', '\u202e',
    '\u2066', '\u2069', '\ufeff', 'a', 'laser', '/', '_', ' ', '*', '<b>', 'é'])
# what must never reach a terminal or a page raw: C0 and C1 controls (a newline only as the
# report's own), the bidirectional marks and overrides (Trojan Source) and the line and
# paragraph separators that split a line for an editor or a browser
RAW = re.compile('[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e'
                 '\u2066-\u2069]')


def in_process(*args: object) -> Tuple[int, str]:
    """Run the command in this process, its output to a file; return exit code and all text."""
    from frame_audit.cli import main

    errors = io.StringIO()
    with tempfile.TemporaryDirectory() as scratch, contextlib.redirect_stderr(errors):
        output = Path(scratch) / 'out'
        code = main([str(a) for a in args] + ['--output', str(output)])
        text = output.read_text(encoding='utf-8') if output.exists() else ''
    return code, text + errors.getvalue()


@settings(max_examples=40, deadline=None)
@given(frame=st.lists(HOSTILE_PIECES, min_size=1, max_size=6).map(''.join),
       command=st.sampled_from(['text', 'markdown', 'lookup', 'explain']))
def test_no_hostile_character_reaches_a_text_output_raw(frame: str, command: str) -> None:
    """An id from the recording or the pasted text shows escaped in every text output."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = write_tf(Path(scratch) / 'drive', odom_drive(60) + [
            tf_message('base_link', frame, T0 + 0.5)])
        if command in ('text', 'markdown'):
            code, text = in_process('audit', folder, '--format', command)
        elif command == 'lookup':
            code, text = in_process('lookup', folder, 'odom', frame, '--at', '+0.6')
        else:
            code, text = in_process('explain', folder, '"{}" passed to lookupTransform argument '
                                    'target_frame does not exist.'.format(frame))
    assert code in (0, 1, 2) and text and 'Traceback' not in text, (code, text)
    assert not RAW.search(text.replace('\n', '')), repr(text)


# the names a user may give: the recording's folder, its files, links to them, new paths
SPELLINGS = ['drive', 'drive/metadata.yaml', 'drive/drive.mcap', './drive/../drive/drive.mcap',
             'link', 'link/drive.mcap', 'hard.mcap', 'r.dot', './r.dot', 'sub/../r.dot',
             'sub', 'drive/new.txt']
# which file each spelling leads to (None: a new file), told from the layout, not the code
LEADS_TO = {'drive': 'folder', 'link': 'folder', 'drive/metadata.yaml': 'metadata',
            'drive/drive.mcap': 'mcap', './drive/../drive/drive.mcap': 'mcap',
            'link/drive.mcap': 'mcap', 'hard.mcap': 'mcap', 'r.dot': 'r', './r.dot': 'r',
            'sub/../r.dot': 'r', 'sub': 'sub', 'drive/new.txt': 'new', 't.dot': 't'}


@settings(max_examples=60, deadline=None)
@given(command=st.sampled_from(['audit', 'init']),
       read=st.sampled_from(['drive', 'link', 'drive/drive.mcap', 'hard.mcap']),
       output=st.sampled_from(SPELLINGS),
       tree=st.one_of(st.none(), st.sampled_from(['r.dot', './r.dot', 'sub/../r.dot', 't.dot'])))
def test_no_output_path_destroys_an_input_or_another_output(command: str, read: str, output: str,
                                                            tree: Optional[str]) -> None:
    from frame_audit.cli import main

    tree = tree if command == 'audit' else None  # init draws no tree
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        write_tf(root / 'drive', odom_drive(30))
        (root / 'link').symlink_to('drive')
        (root / 'hard.mcap').hardlink_to(root / 'drive' / 'drive.mcap')
        (root / 'sub').mkdir()
        before = {p.name: p.read_bytes() for p in (root / 'drive').iterdir()}
        reads = {'folder', 'metadata', 'mcap'} if LEADS_TO[read] == 'folder' else {'mcap'}
        args = [command, read, '--output', output] + (['--tree', tree] if tree else [])
        cwd = os.getcwd()
        os.chdir(root)
        try:
            with contextlib.redirect_stderr(io.StringIO()) as errors, \
                    contextlib.redirect_stdout(io.StringIO()):
                code = main(args)
        finally:
            os.chdir(cwd)
        onto_input = LEADS_TO[output] in reads
        onto_tree = tree is not None and LEADS_TO[tree] == LEADS_TO[output]
        unwritable = LEADS_TO[output] in ('folder', 'sub')
        if onto_input or onto_tree or unwritable:
            assert code == 2 and errors.getvalue().count('\n') == 1, (args, errors.getvalue())
        else:
            assert code in (0, 1), (args, errors.getvalue())
        kept = {name: data for name, data in before.items()
                if LEADS_TO[read] == 'folder' or name == 'drive.mcap'}
        assert {name: (root / 'drive' / name).read_bytes() for name in kept} == kept, args
