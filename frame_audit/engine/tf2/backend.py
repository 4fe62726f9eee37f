# Copyright 2026 frame_audit developers
# SPDX-License-Identifier: Apache-2.0
"""
Which tf2 answers a lookup: the one small interface the callers use, and its two sides.

The model (buffer.Buffer) answers everywhere. Where tf2 itself is installed (tf2_py, the C++
BufferCore the car's nodes run), an adapter outside the engine (frame_audit.ros.real_tf2)
answers instead, fed the same transforms: its answer or its exception is what tf2 said. The
engine never imports it; the callers hand it in as a Real. The model keeps running beside it,
as the diagnosis reads the limiting edge's history from the model's caches.
"""
from dataclasses import dataclass
from typing import Callable, Protocol

from .buffer_core import Answer, Tf2Error
from .cache import Quat, Vector
from .parse import parse_tf2_error, PasteError

CHOICES = ('auto', 'model', 'tf2_py')  # --tf2 and lookups.tf2: tf2_py where importable (auto)
# a real tf2's exception, when its text names no kind parse_tf2_error reads
KIND_OF_EXCEPTION = {'ExtrapolationException': 'empty', 'LookupException': 'no_frame',
                     'ConnectivityException': 'two_trees', 'InvalidArgumentException': 'invalid'}


class Tf2(Protocol):
    """What a caller needs of a tf2 buffer: take a transform, forget, answer a lookup."""

    def set_transform(self, parent: str, child: str, stamp: int, translation: Vector,
                      rotation: Quat, authority: str = 'default_authority',
                      static: bool = False) -> object:
        """Take one transform (stamp in nanoseconds), as BufferCore::setTransform."""

    def clear(self) -> None:
        """Forget the dynamic history, as tf2_ros does when its clock jumps back."""

    def lookup(self, target: str, source: str, time: int = 0) -> Answer:
        """Return target <- source at time (ns; 0: the latest common time), or tf2's error."""


@dataclass(frozen=True)
class Real:
    """A real tf2: its name as reports say which tf2 answered, and how to make a buffer."""

    name: str
    make: Callable[[float], Tf2]  # cache_time_s -> an empty buffer


def model_name(distro: str) -> str:
    """Return the model's name as reports give it: 'tf2 (kilted model)'."""
    return 'tf2 ({} model)'.format(distro)


def refusal(exception: str, text: str) -> Tf2Error:
    """Return a real tf2's exception as a Tf2Error: its kind and times read from its text."""
    try:
        said = parse_tf2_error(text)
    except PasteError:
        return Tf2Error(exception, KIND_OF_EXCEPTION.get(exception, 'invalid'), text)
    frame = said.frame if said.kind == 'no_frame' else ''
    return Tf2Error(exception, said.kind, text, frame, said.requested, said.nearest)


def with_facts(real: Answer, model: Answer) -> Answer:
    """
    Return a real tf2's answer, a refusal with the limiting frame the model found.

    A real tf2's text does not name the edge whose cache fell short; where the model refused
    the same way, its frame is that edge's child. Where they disagree it stays unknown ('').
    """
    error, modelled = real.error, model.error
    if error is None or error.frame or modelled is None or modelled.kind != error.kind:
        return real
    return Answer(error=Tf2Error(error.exception, error.kind, error.text, modelled.frame,
                                 error.requested or modelled.requested,
                                 error.nearest or modelled.nearest))
