# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
`frame-audit lint WORKSPACE`: a workspace's launch, parameter and URDF files checked for frames.

A thin use case: the lint (frame_audit.lint) reads and judges; this reads the --launch
arguments and the config the command names, so the command line stays parsing and printing.
"""
from pathlib import Path
from typing import Optional, Sequence

from .config import command_config
from ..errors import UsageError
from ..reports.report import Report


def lint(path: Path, config_path: Optional[str],
         launches: Sequence[Sequence[str]] = ()) -> Report:
    """
    Lint the workspace at path; each launch is an entry file and its NAME:=VALUE arguments.

    UsageError names a malformed argument; LintError, a workspace that cannot be read.
    """
    from ..lint import lint_workspace, parse_arguments  # the lint loads for this command only

    try:
        given = parse_arguments([word for launch in launches for word in launch[1:]])
    except ValueError as error:
        raise UsageError(str(error)) from None
    return lint_workspace(Path(path), command_config(config_path),
                          [launch[0] for launch in launches], given,
                          measured=config_path is not None)
