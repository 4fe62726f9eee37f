# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
xacro run in a child process, so a description built to expand without end meets a bound.

xacro evaluates macros that can call themselves twice per level: a few lines can ask for
millions of elements. The lint runs it here, under a time, memory and output limit, and
reads the URDF text back. `$(find pkg)` is answered from the workspace's share folder: xacro
asks ament_index for it at call time, and ament_index is not needed (nor installed) here.
"""
import contextlib
import io
import json
import os
import subprocess
import sys
from typing import Iterator, List, Mapping, Tuple

TIMEOUT_S = 20.0
MEMORY_BYTES = 1 << 30
MAX_OUTPUT_BYTES = 4 << 20


class ExpandError(Exception):
    """xacro could not expand a description (its own message), or met a bound."""


@contextlib.contextmanager
def _packages_from(share: Mapping[str, str]) -> Iterator[None]:
    """Answer xacro's $(find pkg) and ${find('pkg')} from the workspace."""
    from xacro import substitution_args

    def find(package: str) -> str:
        if package not in share:
            raise substitution_args.SubstitutionException(
                'package {} is not in the workspace'.format(package))
        return share[package]

    substitution_args._eval_find = find
    substitution_args._eval_dict['find'] = find
    yield


def _run(request: dict) -> dict:
    import xacro

    with _packages_from(request['share']), contextlib.redirect_stderr(io.StringIO()):
        document = xacro.process_file(request['path'], mappings=request['args'])
    return {'urdf': document.toxml(), 'files': [request['path']] + list(xacro.all_includes)}


def _limit() -> None:  # in the child, before xacro runs
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def expand(path: str, args: Mapping[str, str], share: Mapping[str, str]) -> Tuple[str, List[str]]:
    """Return the URDF text xacro makes of a file, and the files it read; ExpandError if not."""
    request = json.dumps({'path': path, 'args': dict(args), 'share': dict(share)})
    try:
        done = subprocess.run([sys.executable, __file__], input=request.encode(),  # stdlib only
                              capture_output=True, timeout=TIMEOUT_S,
                              preexec_fn=_limit if os.name == 'posix' else None)
    except subprocess.TimeoutExpired:
        raise ExpandError('xacro ran past {:.0f} s (macros that expand without end?)'.format(
            TIMEOUT_S)) from None
    if len(done.stdout) > MAX_OUTPUT_BYTES:
        raise ExpandError('xacro made more than {} MB of URDF'.format(MAX_OUTPUT_BYTES >> 20))
    try:
        answer = json.loads(done.stdout.decode('utf-8'))
    except ValueError:
        raise ExpandError('xacro stopped ({})'.format(
            done.stderr.decode('utf-8', 'replace').strip().splitlines()[-1:] or
            'exit {}'.format(done.returncode))) from None
    if 'error' in answer:
        raise ExpandError(answer['error'])
    return answer['urdf'], answer['files']


def _said(error: BaseException) -> str:
    """Return the error xacro met, once: a XacroException wraps it and repeats its text."""
    inner = getattr(error, 'exc', None)  # xacro's exception, not typed: any exception
    while inner is not None:
        error, inner = inner, getattr(inner, 'exc', None)
    return ' '.join(str(error).split()) or type(error).__name__


def main() -> None:
    """Expand the description the request on stdin names; print the answer as JSON."""
    request = json.loads(sys.stdin.read())
    try:
        answer = _run(request)
    except MemoryError:
        answer = {'error': 'xacro needed more than {} MB'.format(MEMORY_BYTES >> 20)}
    except RecursionError:
        answer = {'error': 'macros nested without end (RecursionError)'}
    except Exception as error:  # xacro's own: XacroException, NameError, SubstitutionException
        answer = {'error': _said(error)}
    text = json.dumps(answer)
    if len(text) > MAX_OUTPUT_BYTES:
        text = json.dumps({'error': 'xacro made more than {} MB of URDF'.format(
            MAX_OUTPUT_BYTES >> 20)})
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
