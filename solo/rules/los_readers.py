"""The spotting scan's readers of :class:`~solo.rules.los.LineOfSight` answers (base-rules §9 step 6,
§16; C2 29.2, 29.5; issue 10): one Python call a target, the LOS's caches read without
:meth:`~solo.rules.los.LineOfSight.check_index` where they answer.

May import: the rooms below rules (nothing at run time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Sight = Any
"""A :class:`~solo.rules.los.Sight` (not imported: :mod:`solo.rules.los` imports this module)."""


def viewer_reader(
    los: Any,
    ia: int,
    low_a: bool,
    viewer_tq: int | None,
    max_range: int | None,
    night_range: int | None,
    clear_only: bool = False,
) -> Callable[[int, bool], Sight]:
    """:meth:`~solo.rules.los.LineOfSight.from_viewer` of ``los`` (a
    :class:`~solo.rules.los.LineOfSight`; its contract, ``clear_only`` included)."""
    check = los.check_index
    if max_range is not None or night_range is not None:
        return lambda ib, low_b: check(ia, ib, low_a, low_b, viewer_tq, max_range, night_range, False)
    n = los._n
    static, cache = los._static, los._cache
    codes, sights = los._codes, los._sights
    smoke, fire = los._smoke, los._fire
    from_base = los._from_base
    cells = los._lines.cells
    row = ia * n

    def one(ib: int, low_b: bool) -> Sight:
        if ia <= ib:
            key = ((row + ib) << 2) | (low_a << 1) | low_b
        else:
            key = ((ib * n + ia) << 2) | (low_b << 1) | low_a
        if not (smoke or fire):
            sight = sights[codes[key]]
            if sight is not None:
                return sight  # marker-free answers carry no smoke (C2 29.5 needs smoke)
        else:
            entry = cache.get(key)
            if entry is not None and not entry.sight.smoke:
                return entry.sight  # no smoke on the line: no C2 29.5 test, as check_index
        return check(ia, ib, low_a, low_b, viewer_tq, None, None, False)

    def one_changed(ib: int, low_b: bool) -> Sight:  # the same on a board with changed terrain
        if ia <= ib:
            key = ((row + ib) << 2) | (low_a << 1) | low_b
        else:
            key = ((ib * n + ia) << 2) | (low_b << 1) | low_a
        if not (smoke or fire):
            sight = static.get(key)
            if sight is None:
                sight = from_base(key)  # check_index's next step, without its call
            if sight is not None:
                return sight
        else:
            entry = cache.get(key)
            if entry is not None and not entry.sight.smoke:
                return entry.sight
        return check(ia, ib, low_a, low_b, viewer_tq, None, None, False)

    if not clear_only:
        return one if codes is not None else one_changed

    def scan(ib: int, low_b: bool) -> Sight:  # one, answering "blocked" from the marker-free answer
        if ia <= ib:
            key = ((row + ib) << 2) | (low_a << 1) | low_b
        else:
            key = ((ib * n + ia) << 2) | (low_b << 1) | low_a
        if not (smoke or fire):
            if codes is not None:
                sight = sights[codes[key]]
            else:
                sight = static.get(key)
                if sight is None:
                    sight = from_base(key)  # check_index's next step, without its call
            if sight is not None:
                return sight
            return check(ia, ib, low_a, low_b, viewer_tq, None, None, False)
        entry = cache.get(key)
        if entry is not None:
            sight = entry.sight
            if not sight.smoke or not sight.clear:
                return sight  # blocked, or no smoke on the line for the C2 29.5 test
        else:
            if codes is not None:
                sight = sights[codes[key]]
            else:
                sight = static.get(key)
                if sight is None:
                    sight = from_base(key)
            if (
                sight is not None
                and not sight.clear
                and (not fire or fire.keys().isdisjoint(cells(*divmod(key >> 2, n))))
            ):
                return sight  # blocked without markers, no fire on the line: blocked with them
        return check(ia, ib, low_a, low_b, viewer_tq, None, None, False)

    return scan
