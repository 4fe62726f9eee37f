# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Real tf2 errors, as users pasted them into public issue threads, are read as what they say.

test/data/pasted_tf2_errors.yaml holds 137 texts with their sources (Nav2, AMCL, RViz,
robot_localization, slam_toolbox and message filters around them; ROS 1 and ROS 2 wordings,
prefixes, line wraps). Each is marked with the kind its text states (`reads_as`), judged from
the text, or why nothing could read it (`unread`: cut before its frames, no time, a wrapper
that printed no tf2 text). Reading a text is the first step of `explain`; finding it on a
recording is tested in test_explain.py with recordings whose frames match.
"""
from pathlib import Path

from frame_audit.engine.tf2.parse import parse_tf2_error, PasteError
import pytest
import yaml

DATA = Path(__file__).resolve().parents[1] / 'data' / 'pasted_tf2_errors.yaml'
ENTRIES = yaml.safe_load(DATA.read_text(encoding='utf-8'))


def test_the_texts_are_many_and_each_names_its_source():
    assert len(ENTRIES) >= 40
    assert all(e['source'].startswith('https://') and e['text'].strip() for e in ENTRIES)
    assert sum('reads_as' in e for e in ENTRIES) >= 122  # of 137; 92 before issue 30's work


@pytest.mark.parametrize('entry', ENTRIES, ids=[
    '{}-{}'.format(n, e['family']) for n, e in enumerate(ENTRIES)])
def test_a_pasted_text_is_read_as_what_it_says(entry):
    if 'reads_as' in entry:
        assert parse_tf2_error(entry['text']).kind == entry['reads_as']
    else:
        with pytest.raises(PasteError):
            parse_tf2_error(entry['text'])
