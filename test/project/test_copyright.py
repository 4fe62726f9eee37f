# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""Every source file carries the project's license header (ament_copyright's job, done here)."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = ('# Copyright 2026 frame_audit developers', '# SPDX-License-Identifier: Apache-2.0')
SKIP = {'.venv', 'build', 'install', 'log', '.git'}


def source_files():
    """Return the project's Python and shell sources, not the environment's."""
    files = []
    for path in sorted(ROOT.rglob('*')):
        if SKIP.intersection(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in ('.py', '.sh') or path.parent.name == '.ci':
            files.append(path)
    return files


def missing_header(path: Path) -> bool:
    """Return whether the two header lines are absent from the file's first lines."""
    head = path.read_text(encoding='utf-8').splitlines()[:4]
    return not all(line in head for line in HEADER)


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright():
    assert len(source_files()) > 3
    offenders = [str(path.relative_to(ROOT)) for path in source_files() if missing_header(path)]
    assert offenders == [], 'files without the license header: {}'.format(offenders)
