"""Events: what happened, and why. The log is a list of them (DESIGN.md "The log is the save file").

An :class:`Event` is a frozen record with a ``kind`` (``"enemy_order"``,
``"fire"``, ``"roll"``...), the turn and impulse it happened in, a plain-words
``text`` a player can read, the ``rule`` numbers applied, and ``data`` with the
machine-readable details (card id, row and column read, dice faces...).
``automatic`` is False only for the player's own inputs (choices, and table-mode
results), which is what a save keeps; everything else is derived and must come
out the same on replay.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Event:
    """One thing that happened in a game."""

    seq: int
    """Position in the game's event list, from 0."""
    kind: str
    turn: int
    impulse: int
    """1–4 in the Action Phase, else 0."""
    text: str
    """Plain words: 'Sch. Ziegler (Normal, Cover) draws e07: Sneak 5/6 (row Normal, Cover table).'"""
    rule: str = ""
    """Rule numbers applied, e.g. '9.1, 5.3 step 7'."""
    actor: str | None = None
    """The character (or team) the event is about, for filtering."""
    data: dict[str, Any] = attrs.field(factory=dict)
    automatic: bool = True

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (for the JSON Lines log)."""
        out: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "turn": self.turn,
            "impulse": self.impulse,
            "text": self.text,
        }
        if self.rule:
            out["rule"] = self.rule
        if self.actor is not None:
            out["actor"] = self.actor
        if self.data:
            out["data"] = self.data
        if not self.automatic:
            out["automatic"] = False
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        """Read back :meth:`to_dict`."""
        return cls(
            seq=d["seq"],
            kind=d["kind"],
            turn=d["turn"],
            impulse=d["impulse"],
            text=d["text"],
            rule=d.get("rule", ""),
            actor=d.get("actor"),
            data=d.get("data", {}),
            automatic=d.get("automatic", True),
        )
