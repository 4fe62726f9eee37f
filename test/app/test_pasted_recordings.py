# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Every pasted tf2 error a tool can read, found on a recording of its own frames and times.

For each text of test/data/pasted_tf2_errors.yaml that names a lookup, a stamp or a frame,
test/pasted.py writes a recording (MCAP and SQLite in turn) with a habit that makes tf2 print
it; `explain` must find the moment, name the cause the habit is, and print only fixes that
were applied to the recording and placed the lookup when asked again of tf2 (issue 30).
"""
from pathlib import Path

from frame_audit.app.explain import explain_error
from frame_audit.engine.tf2.parse import parse_tf2_error
from frame_audit.reports.explain import explained_text
from pasted import asked_target, habits, write_for
import pytest
import yaml

DATA = Path(__file__).resolve().parents[1] / 'data' / 'pasted_tf2_errors.yaml'
ENTRIES = yaml.safe_load(DATA.read_text(encoding='utf-8'))
CASES = [(n, habit) for n, entry in enumerate(ENTRIES) if 'reads_as' in entry
         for habit in habits(parse_tf2_error(entry['text']))]
UNPROVABLE = {'nobody_sends': 'the recording holds no sample of the frame to send'}


def test_every_readable_text_has_a_recording():
    readable = sum('reads_as' in entry for entry in ENTRIES)
    assert readable >= 122 and len({n for n, _ in CASES}) == readable


@pytest.mark.parametrize('n,habit', CASES, ids=['{}-{}'.format(n, h.name) for n, h in CASES])
def test_a_pasted_text_is_found_with_its_cause_and_a_proven_fix(tmp_path, n, habit):
    entry = ENTRIES[n]
    pasted = parse_tf2_error(entry['text'])
    path = write_for(tmp_path / ('rec.mcap' if n % 2 else 'rec.db3'), pasted, habit)
    explained = explain_error(path, entry['text'], target=asked_target(habit), tf2='auto')
    text = explained_text(explained)
    e = explained.explanation
    assert e is not None, text
    assert e.cause in habit.causes, text
    if explained.reproduced is not None:
        assert explained.reproduced, text
    if e.cause in UNPROVABLE:
        assert not e.tried, text
    else:
        assert e.tried and all(t.placed == t.refused for t in e.tried), text
        assert 'none proven' not in text
