"""The game as of the beat on stage, for drawing (no pygame here).

While the stage holds beats back (:mod:`solo.render.stage`), the window must not show what
has not been shown yet: a man who moves three beats later must still stand where he was, a
wound drawn later must not be on his counter yet, the log must stop at the step on stage.
:func:`staged_game` builds a read-only copy of the game for the view: the same game, with a
copy of its state where the men the events after the beat shown moved, wounded, broke or
killed are put back as those events say they were (``path[0]`` of a move, ``morale_before``
of a check, the status before ``killed``), the events cut after the beat, no decision
pending, and the turn and Impulse of the beat. The copy is never played: the controller only
answers the live game.

What the events do not say is left as it is now: a vehicle's facing before a turn, who was
Known (the fog is the live game's), smoke and fire markers placed later.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Hex
from solo.render.stage import Stage
from solo.rules.state import MoraleState, Phase, Status

if TYPE_CHECKING:
    from solo.core.events import Event
    from solo.engine.game import Game

__all__ = ["side_of", "staged_game", "undone_changes", "undone_vehicle_hexes"]

GONE_KINDS = frozenset({"killed", "incapacitated", "captured", "surrender", "routed_off", "dummy_removed"})
"""Events that take a man off the board (or lay him down): before them he stood, active."""


def side_of(game: Game, actor: str | None) -> str:
    """``"enemy"``, ``"friendly"`` or ``""`` for a character, team or vehicle id (None: ``""``)."""
    if actor is None:
        return ""
    st = game.state
    ch = st.characters.get(actor)
    if ch is not None:
        return ch.side.value
    team = st.teams.get(actor)
    if team is not None:
        return team.side.value
    v = getattr(st, "vehicles", {}).get(actor)
    side = getattr(v, "side", None)
    return str(getattr(side, "value", side or ""))


def undone_changes(game: Game, future: list[Event]) -> dict[str, dict[str, Any]]:
    """Character id → the fields to put back so the state reads as before ``future`` happened.

    ``{"hex": Hex, "morale": MoraleState, "status": Status, "wounds_taken": n}``, each only
    when an event of ``future`` says so (walked from the last to the first, so the earliest
    value wins).
    """
    out: dict[str, dict[str, Any]] = {}
    for ev in reversed(future):
        d = ev.data
        cid = ev.actor
        if ev.kind == "move" and cid and d.get("path"):
            out.setdefault(cid, {})["hex"] = Hex.parse(str(d["path"][0]))
        elif ev.kind in ("check", "rally", "morale") and cid:
            before = d.get("morale_before", d.get("before"))
            if isinstance(before, str) and before in MoraleState._value2member_map_:
                out.setdefault(cid, {})["morale"] = MoraleState(before)
        elif ev.kind == "wound":
            who = str(d.get("character", cid or ""))
            if who:
                entry = out.setdefault(who, {})
                entry["wounds_taken"] = entry.get("wounds_taken", 0) + 1
        elif ev.kind in GONE_KINDS:
            who = str(d.get("character", cid or ""))
            if who:
                entry = out.setdefault(who, {})
                entry["status"] = Status.ACTIVE
                if d.get("hex"):
                    entry.setdefault("hex_if_gone", Hex.parse(str(d["hex"])))
    return out


def undone_vehicle_hexes(future: list[Event]) -> dict[str, tuple[Hex, int | None]]:
    """Vehicle id → (the hex it stood in before ``future``, None): the ``start`` of its first
    move there (its facing before is not in the events, so it is left as it is now)."""
    out: dict[str, tuple[Hex, int | None]] = {}
    for ev in reversed(future):
        if ev.kind == "vehicle_move" and ev.data.get("vehicle") and ev.data.get("start"):
            out[str(ev.data["vehicle"])] = (Hex.parse(str(ev.data["start"])), None)
    return out


def staged_game(game: Game, stage: Stage, now: float) -> Game:
    """The game to draw while ``stage`` shows a beat: ``game`` itself when nothing is held back.

    A shallow copy of ``game`` with its own state copy (characters put back by
    :func:`undone_changes`, the movers of the shown beat at their hex along the path at ``now``),
    ``events`` up to the beat shown, and no pending decision. Read-only: drawing only.
    """
    beat = stage.shown
    upto = stage.upto
    if beat is None or upto is None:
        return game
    future = game.events[upto + 1 :]
    changes = undone_changes(game, future)
    for cid, label in stage.walked(now).items():
        changes.setdefault(cid, {})["hex"] = Hex.parse(label)
    st = game.state
    chars = dict(st.characters)
    for cid, ch in st.characters.items():
        c = changes.get(cid)
        if not c:
            continue
        fields: dict[str, Any] = {}
        if "hex" in c:
            fields["hex"] = c["hex"]
        elif "hex_if_gone" in c and ch.hex is None:
            fields["hex"] = c["hex_if_gone"]
        if "morale" in c:
            fields["morale"] = c["morale"]
        if "status" in c:
            fields["status"] = c["status"]
        if c.get("wounds_taken"):
            fields["wounds"] = list(ch.wounds[: max(0, len(ch.wounds) - c["wounds_taken"])])
        chars[cid] = attrs.evolve(ch, **fields)
    staged_state = copy.copy(st)
    vehicles = getattr(st, "vehicles", None)
    if vehicles:
        moved = undone_vehicle_hexes(future)
        for vid, (label, facing) in stage.walked_vehicles(now).items():
            moved[vid] = (Hex.parse(label), facing)
        if moved:
            staged_vehicles = dict(vehicles)
            for vid, (h, facing) in moved.items():
                v = vehicles.get(vid)
                if v is not None:
                    staged_vehicles[vid] = attrs.evolve(v, hex=h, **({"facing": facing} if facing else {}))
            staged_state.vehicles = staged_vehicles
    staged_state.characters = chars
    staged_state._rosters = {}
    actor = beat.actor if beat.actor in st.characters else None
    phase = Phase.ACTION if beat.impulse else Phase.ENEMY_CARD_ORDER
    staged_state.flow = attrs.evolve(
        st.flow, turn=beat.turn, impulse=beat.impulse, phase=phase, active_character=actor
    )
    staged = copy.copy(game)
    staged.state = staged_state
    staged.events = game.events[: upto + 1]
    staged.pending = None
    return staged
