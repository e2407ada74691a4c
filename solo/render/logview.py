"""The player's view of the events: fog of war over hidden information, and the log panel's lines.

The engine's events tell the whole truth (they are the save file and the
replay check). The window shows them to the Friendly player, who must not
learn what the cardboard hides: which Unknown counter is a dummy, an Unknown
enemy's name, TQ or checks. :class:`Fog` cleans texts: an Unknown enemy's
name becomes "Unknown enemy"; an event about an Unknown enemy is shown only
when it shows what the table shows anyway (his moves, his Order card and
order, his alert) — any other is left out, since even its existence can tell
a man from a dummy (a dummy never fires, so it has no "does not fire"
event); and a die roll whose purpose names an Unknown enemy is left out. With
``enabled=False`` (key F in the window: "show hidden information") the texts
are shown as logged.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import attrs

from solo.core.events import Event
from solo.render.words import plain
from solo.rules.state import Side, Status

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.rules.state import Character

UNKNOWN_NAME = "Unknown enemy"
PUBLIC_KINDS_OF_HIDDEN = frozenset({"move", "enemy_order", "alert", "enemy_waiting", "initiative"})
"""Event kinds about an Unknown enemy whose text the table shows anyway (names cleaned)."""
REMOVED_DUMMIES = "removed_dummies"
"""``state.flags`` key of the dummies taken off the map (solo.rules.spotting)."""


def is_hidden(game: Game, ch: Character) -> bool:
    """Whether ``ch``'s identity is hidden from the Friendly player: an Enemy not Known, still in play.

    Dummies count as hidden until removed (base-rules §3); the dead and the
    removed are public; so is every man aboard a vehicle (C2 31.3: crew and
    passengers are placed face up on the display; 31.7: vehicles and crews are
    never hidden).
    """
    if ch.side is not Side.ENEMY or ch.revealed:
        return False
    if getattr(ch, "vehicle", None) is not None:
        return False  # crew and passengers sit face up on the vehicle display (C2 31.3, 31.7)
    if ch.dummy and ch.id in game.state.flags.get(REMOVED_DUMMIES, ()):
        return False
    return ch.status is Status.ACTIVE


class Fog:
    """Cleans texts of hidden information for the Friendly player (see the module docstring)."""

    def __init__(self, game: Game, *, enabled: bool = True) -> None:
        self.enabled = enabled
        self.data = game.data
        self.hidden_ids: frozenset[str] = frozenset()
        self._pattern: re.Pattern[str] | None = None
        if enabled:
            hidden = [c for c in game.state.characters.values() if is_hidden(game, c)]
            self.hidden_ids = frozenset(c.id for c in hidden)
            # Every man with a hidden man's name is cleaned, shown or not: a removed dummy's
            # "Dummy" must not tell which Unknown counters are dummies too.
            names = sorted({c.name for c in hidden if c.name}, key=len, reverse=True)
            if names:
                self._pattern = re.compile("|".join(re.escape(n) for n in names))

    def clean(self, text: str) -> str:
        """``text`` with every hidden enemy's name replaced by "Unknown enemy"."""
        if self._pattern is None:
            return text
        return self._pattern.sub(UNKNOWN_NAME, text)

    def shows(self, ev: Event) -> bool:
        """Whether the Friendly player may see ``ev`` at all (see the module docstring)."""
        if not self.enabled:
            return True
        if ev.actor in self.hidden_ids and ev.kind not in PUBLIC_KINDS_OF_HIDDEN:
            return False
        return not (ev.kind == "roll" and self._pattern is not None and self._pattern.search(ev.text))

    def event_text(self, ev: Event) -> str:
        """The text of ``ev`` as the Friendly player may read it: names of hidden men cleaned, ids
        in plain words (:func:`solo.render.words.plain`: ``long_grass`` → ``Long Grass``)."""
        text = plain(ev.text, self.data)
        if not self.enabled:
            return text
        return self.clean(text)


@attrs.frozen
class LogLine:
    """One event as the log panel shows it."""

    seq: int
    kind: str
    turn: int
    impulse: int
    text: str
    rule: str

    @property
    def when(self) -> str:
        """``"T2 I3"``, ``"T2"`` outside the Action Phase, ``"Set-up"`` before turn 1."""
        if self.turn == 0:
            return "Set-up"
        return f"T{self.turn} I{self.impulse}" if self.impulse else f"T{self.turn}"

    @property
    def sentence(self) -> str:
        """The readable line: the text, then its rule numbers unless the text already gives them."""
        if self.rule and self.rule not in self.text:
            return f"{self.text} [{plain(self.rule)}]"
        return self.text


def mentions(game: Game, ev: Event, unit: str, fog: Fog) -> bool:
    """Whether ``ev`` is about ``unit``: its actor, or (for a unit the player may know) named in it."""
    if ev.actor == unit:
        return True
    ch = game.state.characters.get(unit)
    if ch is None:
        return False
    if unit in fog.hidden_ids:
        return False
    return bool(ch.name) and ch.name in ev.text


def log_lines(
    game: Game,
    fog: Fog,
    *,
    unit: str | None = None,
    show_rolls: bool = False,
    events: list[Event] | None = None,
) -> list[LogLine]:
    """The events the log panel shows, oldest first: shown and cleaned by ``fog``, about ``unit`` if given.

    Roll events are left out unless ``show_rolls``.
    """
    out: list[LogLine] = []
    for ev in game.events if events is None else events:
        if ev.kind == "roll" and not show_rolls:
            continue
        if not fog.shows(ev):
            continue
        if unit is not None and not mentions(game, ev, unit, fog):
            continue
        out.append(LogLine(ev.seq, ev.kind, ev.turn, ev.impulse, fog.event_text(ev), ev.rule))
    return out
