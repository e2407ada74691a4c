"""The board as it was at each event of the stretch on stage (no pygame here).

The stage (:mod:`solo.render.stage`) shows the Enemy's events back one step at a time after the
engine has played them all. To draw a step the board must be *as it was then*: the Initiative
Track, the orders, Alert/Waiting, Morale States, Target Markers, smoke... not the values the
engine reached at the end of the stretch. A :class:`StateRecorder` is a listener on the live game
(:attr:`solo.rules.context.GameContext.listeners`): each time the engine emits an event it keeps
a copy of the state as it is at that moment. :meth:`StateRecorder.before` then gives the state
just before the first event not shown yet was emitted; :func:`solo.render.stage_view.staged_game`
puts back on it what the engine changed just before telling that event (a mover's hex, a morale
check, an Alert, a team's initiative: the ``undone_changes`` of the events not shown).

It only reads the state: the recorder never calls into the rules and changes no roll (the log of
a game played with one is the same as without, tests/test_stage.py). It keeps copies only while
the stage is not at the Instant pace (:attr:`StateRecorder.active`) and only for the stretch
the stage may still show (:meth:`StateRecorder.forget`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from solo.rules.state import GameState, MarkerDict, MarkerList, Markers

if TYPE_CHECKING:
    from solo.core.events import Event
    from solo.rules.context import GameContext

__all__ = ["StateRecorder", "state_copy"]


def _copy(obj: Any, **fields: Any) -> Any:
    """A shallow copy of an attrs object (its slots as they are, ``fields`` replaced), built
    without ``__init__`` or ``__setattr__``: the state's write counts (``solo.rules.state.version``)
    are left alone."""
    cls = type(obj)
    out = object.__new__(cls)
    for name in _names(cls):
        object.__setattr__(out, name, fields[name] if name in fields else getattr(obj, name))
    return out


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in attrs.fields(cls))
    return names


def _vehicle_copy(v: Any) -> Any:
    if not attrs.has(type(v)):
        return copy.deepcopy(v)
    seats = {k: _copy(seat) for k, seat in v.seats.items()}
    return _copy(v, seats=seats, rounds=dict(v.rounds), damage=list(v.damage), acted=dict(v.acted))


def _markers_copy(m: Markers) -> Markers:
    # MarkerDict / MarkerList built from a copy: their constructors count no write
    out: Markers = _copy(
        m,
        smoke=MarkerDict({h: list(v) for h, v in m.smoke.items()}),
        fire=MarkerDict(m.fire),
        fire_started=MarkerDict(m.fire_started),
        grenades=MarkerList([dict(g) for g in m.grenades]),
        illuminated=MarkerList(m.illuminated),
    )
    return out


def state_copy(st: GameState) -> GameState:
    """A copy of ``st`` that later play does not change: its characters, teams, flow, cards,
    markers and vehicles copied (the definitions they point to are shared). For drawing only.
    Counts no write (:func:`solo.rules.state.version` is the same after it): the engine's kept
    answers stay valid while a recorder copies the state between its events."""
    chars = {
        cid: _copy(ch, wounds=MarkerList(ch.wounds, getattr(ch.wounds, "part", 0)), acted=dict(ch.acted))
        for cid, ch in st.characters.items()
    }
    teams = {tid: _copy(team, members=list(team.members)) for tid, team in st.teams.items()}
    return _copy(
        st,
        characters=chars,
        teams=teams,
        flow=_copy(st.flow, track=list(st.flow.track)),
        cards=_copy(
            st.cards,
            hand=list(st.cards.hand),
            plan=list(st.cards.plan),
            enemy_this_turn=dict(st.cards.enemy_this_turn),
        ),
        markers=_markers_copy(st.markers),
        vehicles={vid: _vehicle_copy(v) for vid, v in st.vehicles.items()},
        flags=copy.deepcopy(st.flags),
        vp=dict(st.vp),
        terrain_changes=dict(st.terrain_changes),
        _rosters={},
    )


class StateRecorder:
    """A listener keeping, for each event of the game from :attr:`base` on, the state as it was
    when the event was emitted (in the log's order: an event told in front of others, at a
    ``mark``, takes its place there, as in ``game.events``).

    ``entries[i]`` belongs to ``game.events[base + i]``: ``(n, state)`` where ``n`` counts the
    events in the order they were emitted and ``state`` is a copy (None while not :attr:`active`).
    """

    def __init__(self, game: GameContext, active: Callable[[], bool] = lambda: True) -> None:
        self.game = game
        self.base = len(game.events)
        self.entries: list[tuple[int, GameState | None]] = []
        self.emitted = 0
        self.active = active
        """Whether to copy the state now (the stage may hold steps back: not the Instant pace)."""

    def attach(self) -> StateRecorder:
        """Listen to the game; returns self."""
        if self not in self.game.listeners:
            self.game.listeners.append(self)
        return self

    def detach(self) -> None:
        """Stop listening (the window shows another game)."""
        if self in self.game.listeners:
            self.game.listeners.remove(self)

    def __call__(self, ev: Event) -> None:
        i = ev.seq - self.base
        if i < 0:  # told in front of events older than the recorder: nothing to keep
            return
        snap = state_copy(self.game.state) if self.active() else None
        self.entries.insert(min(i, len(self.entries)), (self.emitted, snap))
        self.emitted += 1

    def forget(self, upto: int) -> None:
        """Drop what is kept for ``game.events[:upto]`` (the stage will not show them again)."""
        n = upto - self.base
        if n > 0:
            del self.entries[:n]
            self.base = upto

    def before(self, index: int) -> GameState | None:
        """The state just before the first-emitted of ``game.events[index:]`` was emitted (a
        copy; do not change it), or None when nothing from there on is kept (then the live state
        is the one to draw)."""
        i = index - self.base
        if i < 0:
            return None
        later = self.entries[i:]
        if not later or len(self.entries) + self.base != len(self.game.events):
            return None
        first = min(later, key=lambda e: e[0])
        return first[1]
