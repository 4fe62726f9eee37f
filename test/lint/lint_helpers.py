# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Tiny workspaces for the lint's stage tests, collected and planned as the pipeline does."""
import ast
from pathlib import Path
import textwrap
from typing import Dict, Mapping, Sequence

from frame_audit.lint.bringups.plan import Plan, plan
from frame_audit.lint.model import LaunchRead
from frame_audit.lint.readers.launch_python import read_python_launch
from frame_audit.lint.readers.workspace import collect, Collected


def write(root: Path, files: Dict[str, str]) -> Path:
    """Write a small workspace: each file's text, dedented."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip('\n'), encoding='utf-8')
    return root


def package(name: str) -> str:
    """Return a package.xml for a made-up package."""
    return '<?xml version="1.0"?>\n<package format="3"><name>{}</name></package>\n'.format(name)


def collected(tmp_path: Path, files: Dict[str, str]) -> Collected:
    """Return the collect stage's result for a workspace of these files."""
    share = tmp_path / 'share'
    share.mkdir(parents=True)
    return collect(write(tmp_path / 'ws', files), share)


def planned(tmp_path: Path, files: Dict[str, str], entries: Sequence[str] = (),
            given: Mapping[str, str] = None) -> Plan:
    """Return the plan stage's result for a workspace of these files."""
    return plan(collected(tmp_path, files), entries, given or {})


def python_launch(*parts: str, given: Mapping[str, str] = None) -> LaunchRead:
    """Return what a Python launch file of these texts starts, with these launch arguments."""
    text = ''.join(textwrap.dedent(part) for part in parts).lstrip('\n')
    return read_python_launch(ast.parse(text), 'launch/x.launch.py', {}, given or {},
                              '/nowhere/launch/x.launch.py')


def names(nodes: Sequence) -> list:
    """Return the nodes' names, in order."""
    return [node.name for node in nodes]
