"""Who can see whom, kept between activations (base-rules §9 step 6, §16; C2 27.8, 28.1, 29.2, 29.5).

The spotting scan (:meth:`~solo.rules.context.GameContext.opponents_in_sight`) asks at every
activation whether the active character sees any opponent still to spot; almost always the answer
is no. :class:`KeptSight` answers that question with a few mask operations over hex indices
(Python ints as bitsets) instead of one LOS look-up a target:

- the opponents still to spot, per side: the hexes of the active, on-map, Hidden/Unknown ones as
  two masks (targets with a low order and without, C2 27.8), made again only when a character of
  that side changed (the side's :func:`~solo.rules.state.version`);
- per viewer (hex index, low order, TQ for heavy smoke, maximum and night LOS): which target hexes
  were asked (``known``) and which of them are in clear LOS (``clear``), one pair of masks per
  target low order, kept while the LOS's markers and board are the same (``LineOfSight.marks``
  and the LOS object) and filled only for the hexes not asked yet (the pieces that moved). The
  viewer's TQ is part of the key only while smoke is on the map (C2 29.5 heavy smoke); without
  smoke an answer is the same from either end, so each one asked is also kept for the target's view
  of the viewer.

It only says "no opponent to spot is in sight" when that is exactly what the scan would find;
otherwise the scan runs as before, so the rolls, their order and the logs are unchanged.

May import: solo.core, solo.data, solo.rules.state, solo.rules.los.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solo.rules.state import _WRITES, ENEMY_PIECES, FRIENDLY_PIECES, Character, Side, Status

_Unspotted = tuple[int, Sequence[Character], Any, tuple[tuple[int, bool], ...], int, int]
"""A side's targets still to spot: (its version, the roster read, the LOS, (index, low) per target,
the mask of the targets without a low order, the mask of those with one)."""


class KeptSight:
    """The kept masks of one game (see the module's docstring); held by the game's context."""

    __slots__ = ("_los", "_marks", "_seen", "_unspotted")

    def __init__(self) -> None:
        self._los: Any = None
        self._marks = -1
        self._seen: dict[tuple[int, bool, int | None, int | None, int | None], list[int]] = {}
        """Per viewer key: ``[known, clear, known_low, clear_low]`` masks over target hex indices."""
        self._unspotted: dict[
            int, tuple[int, Sequence[Character], Any, tuple[tuple[int, bool], ...], int, int]
        ] = {}
        """Per side part: (its version, the roster read, the LOS, (index, low) per target, masks)."""

    def none_in_sight(
        self,
        viewer: Character,
        targets: Sequence[Character],
        los: Any,
        low_orders: frozenset[str],
        max_los: int | None,
        night: int | None,
        reader: Callable[[Character], Callable[[int, bool], Any] | None],
    ) -> bool:
        """True when no character of ``targets`` (one side's whole roster, roster order) that is
        active, on the map and not Spotted/Known is in clear LOS of ``viewer`` now: the spotting scan
        would yield nothing. False when some is, or when the masks cannot tell (an illuminated hex,
        a piece off the map's indices): the caller then runs the scan. ``reader`` is the context's
        ``_viewer_line`` (its ``.clear`` is the scan's)."""
        if reader(viewer) is None and viewer.hex is not None and viewer.status is Status.ACTIVE:
            return False  # an illuminated hex (§15): masks kept without it cannot tell; the scan decides
        if los is not self._los or los.marks != self._marks:
            self._los, self._marks = los, los.marks
            self._seen = {}
            self._unspotted = {}
        side = targets[0].side if targets else Side.FRIENDLY
        part = ENEMY_PIECES if side is Side.ENEMY else FRIENDLY_PIECES
        ver = _WRITES[part]
        kept = self._unspotted.get(part)
        if kept is None or kept[0] != ver or kept[1] is not targets:
            kept = self._unspotted_of(part, ver, targets, los, low_orders)
            if kept is None:
                return False
        items = kept[3]
        if not items:
            return True
        active = Status.ACTIVE
        if viewer.status is not active or viewer.hex is None:
            return True  # the scan stops before its first answer
        ia = los.board.index.get(viewer.hex)
        if ia is None:
            return False
        vo = viewer.order
        low_a = vo is not None and vo.order in low_orders
        # The viewer's TQ matters only for heavy smoke (C2 29.5): without smoke on the map the
        # answers are symmetric, and each one asked is kept for the target's view of the viewer too.
        smokeless = not los._smoke
        viewer_tq = None if smokeless else (viewer.tq if not viewer.wounds else viewer.effective_tq)
        all_seen = self._seen
        key = (ia, low_a, viewer_tq, max_los, night)
        seen = all_seen.get(key)
        if seen is None:
            seen = all_seen[key] = [0, 0, 0, 0]
        m_high, m_low = kept[4], kept[5]
        if m_high & ~seen[0] or m_low & ~seen[2]:
            one = reader(viewer)
            if one is None:  # illuminated (§15): the full sight, not kept
                return False
            back_at = 2 if low_a else 0
            back_bit = 1 << ia
            for ib, low_b in items:
                at = 2 if low_b else 0
                bit = 1 << ib
                if seen[at] & bit:
                    continue
                seen[at] |= bit
                clear = one(ib, low_b).clear
                if clear:
                    seen[at + 1] |= bit
                if smokeless:  # the same line seen from the target's end (ends sorted in the LOS key)
                    back = all_seen.get((ib, low_b, None, max_los, night))
                    if back is None:
                        back = all_seen[(ib, low_b, None, max_los, night)] = [0, 0, 0, 0]
                    back[back_at] |= back_bit
                    if clear:
                        back[back_at + 1] |= back_bit
        return not (m_high & seen[1]) and not (m_low & seen[3])

    def _unspotted_of(
        self, part: int, ver: int, targets: Sequence[Character], los: Any, low_orders: frozenset[str]
    ) -> _Unspotted | None:
        """The side's targets still to spot as (index, low) pairs and masks, kept for ``ver``;
        None when one stands on a hex the board has no index for (the scan decides)."""
        index = los.board.index
        active = Status.ACTIVE
        items: list[tuple[int, bool]] = []
        m_high = m_low = 0
        for t in targets:
            h = t.hex
            if t.revealed or h is None or t.status is not active:
                continue
            ib = index.get(h)
            if ib is None:
                return None
            to = t.order
            low_b = to is not None and to.order in low_orders
            items.append((ib, low_b))
            if low_b:
                m_low |= 1 << ib
            else:
                m_high |= 1 << ib
        kept = (ver, targets, los, tuple(items), m_high, m_low)
        self._unspotted[part] = kept
        return kept
