"""Argument types of the ``solo`` command: integers within the range a flag allows.

``bounded(lo, hi)`` is an argparse ``type=``: a value that is not a whole number, or lies outside
``lo``-``hi``, is refused by argparse with a message naming the flag and the range
("argument --turns: expected a whole number from 1 to 99, got 0") and exit status 2.

May import: :mod:`solo.core` and :mod:`solo.data` constants only.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

TQ_MAX = 20
"""The largest TQ a flag accepts (C2 27.5 smoke and TQ checks: counters stay well below it)."""
RANGE_MAX = 999
"""The largest LOS range in hexes a flag accepts."""


def bounded(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi`` (no upper limit when ``hi`` is None)."""
    want = f"from {lo} to {hi}" if hi is not None else f"of {lo} or more"

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number {want}, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"expected a whole number {want}, got {value}")
        return value

    parse.__name__ = "whole number"
    return parse
