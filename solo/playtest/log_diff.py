"""What differs between a logged event and the replayed one, field by field, in the player's words.

:func:`event_differences` names each field that differs, logged value first:
``faces [1] vs [5]``, ``total 1 vs 5``, ``text "..." vs "..."``. :func:`replay_log` (used by
:func:`solo.playtest.play.replay`) compares the events as the replay produces them, so the
first difference is named at its own event and line (line = event number + 2), a changed
choice at the choice itself, and a header that does not give the game the events were played
from (scenario, seed, options, forced results edited) as a header difference, before any event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from solo.core.events import Event
from solo.core.log_schema import show

if TYPE_CHECKING:
    from solo.engine.game import Game

_FIELDS = ("kind", "turn", "impulse", "actor", "rule")
MARKED_KINDS = frozenset({"fire", "vehicle_fire", "main_gun_fire", "throw"})
"""Events an action writes at its mark (GameContext.mark), in front of the dice and effects
logged before it ends: base-rules §10 fire, §12 throws, C2 31.9 vehicle fire and main gun."""


def _plain(value: Any) -> Any:
    """``value`` as it reads back from the log (tuples as lists, other objects as text)."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _same(value: Any) -> str:
    """``value`` as JSON text, so that ``true`` and ``1``, ``1`` and ``1.0`` differ."""
    return json.dumps(value, sort_keys=True)


def event_differences(logged: Event, replayed: Event) -> list[str]:
    """The fields that differ, ``name logged vs replayed`` each; empty when the events match.

    Compared: kind, turn, impulse, actor, rule, every key of ``data`` (named by its key) and the
    text, as :func:`solo.core.log.comparable` compares them.
    """
    out = []
    for name in _FIELDS:
        a, b = getattr(logged, name), getattr(replayed, name)
        if a != b:
            out.append(f"{name} {show(a)} vs {show(b)}")
    da, db = _plain(logged.data), _plain(replayed.data)
    for key in sorted(set(da) | set(db)):
        # as the file writes them: a key with null is not a missing key, true is not 1
        if key not in da or key not in db or _same(da[key]) != _same(db[key]):
            a = show(da[key]) if key in da else "(none)"
            b = show(db[key]) if key in db else "(none)"
            out.append(f"{key} {a} vs {b}")
    if logged.text != replayed.text:
        out.append(f"text {show(logged.text, 90)} vs {show(replayed.text, 90)}")
    return out


def _line(i: int) -> int:
    """The line of event ``i`` in its log (line 1 is the header)."""
    return i + 2


def _is_input(ev: Event) -> bool:
    return ev.kind == "choice" and not ev.automatic


def replay_log(
    source: str, logged: Sequence[Event], game: Game, before_choice: Callable[[], None]
) -> tuple[str | None, int]:
    """Feed the logged choices to ``game`` and compare its events with ``logged`` as they come.

    ``before_choice`` runs before each choice is read (forced results due at that point).
    Returns ``(message, compared)``: the first difference as ``source:line: ...`` or None when
    every logged event matched, and how many events were compared.
    """
    first_choice = next((i for i, ev in enumerate(logged) if _is_input(ev)), None)
    header_msg = _header_difference(source, logged, game.events, first_choice)
    if header_msg is not None:
        return header_msg, 0
    done = 0
    while True:
        got = game.events
        deferred = False
        for i in range(done, min(len(got), len(logged))):
            diffs = event_differences(logged[i], got[i])
            if diffs and game.pending is not None and logged[i].kind in MARKED_KINDS:
                # an action asked the player mid-way (a Tough or Deadly wound card): its own
                # line goes in at its mark once it ends; compare from there after the choice
                got, deferred = got[:i], True
                break
            if diffs:
                ev = logged[i]
                return (
                    f"{source}:{_line(i)}: replay differs at event {i} ({ev.kind}, turn {ev.turn} "
                    f"impulse {ev.impulse}): {'; '.join(diffs)} (logged vs replayed)",
                    i,
                )
        done = min(len(got), len(logged))
        if done >= len(logged):
            return None, done
        before_choice()
        at = done
        if deferred:  # the player's choice asked mid-way comes after the action's dice so far
            at = next((j for j in range(done, len(logged)) if _is_input(logged[j])), done)
        ev = logged[at]
        if game.pending is None:
            return (
                f"{source}:{_line(done)}: the log goes on after the end of the game: event {done} "
                f"({ev.kind}) and {len(logged) - done - 1} more are not in the replay",
                done,
            )
        if not _is_input(ev):
            return (
                f"{source}:{_line(done)}: replay differs at event {done}: the log has a {ev.kind} event "
                f"where the game waits for the player's choice ({game.pending.prompt})",
                done,
            )
        choice = ev.data["choice"]
        legal = game.legal()
        if choice not in legal:
            shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
            return (
                f"{source}:{_line(at)}: the player's choice {show(choice)} at event {at} is not one "
                f"the game offers here ({game.pending.prompt}: {shown})",
                done,
            )
        game.apply(choice)


def _header_difference(
    source: str, logged: Sequence[Event], got: Sequence[Event], first_choice: int | None
) -> str | None:
    """A header that does not give the game of these events: two or more of the events before
    the first choice (which only the header decides: scenario, seed, options, forced results)
    differ. One differing event there is that event's own difference."""
    upto = first_choice if first_choice is not None else len(logged)
    n = min(upto, len(got))
    differing = [i for i in range(n) if event_differences(logged[i], got[i])]
    if len(differing) < 2:
        return None
    i = differing[0]
    what = "; ".join(event_differences(logged[i], got[i]))
    return (
        f"{source}:1: the header does not give the game this log was played from (its scenario, seed, "
        f"options, turns or forced results changed?): {len(differing)} of the {n} events before the "
        f"first choice differ, the first at event {i} (line {_line(i)}): {what} (logged vs replayed)"
    )
