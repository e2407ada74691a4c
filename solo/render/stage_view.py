"""The game as of the beat on stage, for drawing (no pygame here).

While the stage holds beats back (:mod:`solo.render.stage`), the window must not show what
has not been shown yet: a man who moves three beats later must still stand where he was, an
order given by a later card must not be on his counter, a team whose card is not drawn yet is
not on the Initiative Track, the log stops at the step on stage. :func:`staged_game` builds a
read-only copy of the game for the view from the state as it was when the engine told the
first event not shown yet (:class:`~solo.render.stage_states.StateRecorder`: every attribute,
Initiative Track, orders, Alert/Waiting, Morale States, Target Markers, markers), on which
what the engine changed just *before* telling that event is put back as the events say it was
(``path[0]`` of a move, ``morale_before`` of a check, the status before ``killed``, Waiting
before ``alert``, no initiative before ``initiative``, a Target Marker where it was before it
moved: :func:`undone_changes` and its neighbours). The events are
cut after the beat, no decision is pending. The copy is never played: the controller only
answers the live game.

Without a recorder (a game the window did not see played) the live state is the base: then
only what the events say is put back (a vehicle's facing before a turn, who was Known, smoke
placed later are left as they are now).
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

__all__ = [
    "side_of",
    "staged_game",
    "undone_changes",
    "undone_initiatives",
    "undone_target_markers",
    "undone_vehicle_hexes",
]

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

    ``{"hex": Hex, "morale": MoraleState, "status": Status, "wounds_taken": n, "alert": False}``,
    each only
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
        elif ev.kind == "alert" and cid:
            out.setdefault(cid, {})["alert"] = False
        elif ev.kind in GONE_KINDS:
            who = str(d.get("character", cid or ""))
            if who:
                entry = out.setdefault(who, {})
                entry["status"] = Status.ACTIVE
                if d.get("hex"):
                    entry.setdefault("hex_if_gone", Hex.parse(str(d["hex"])))
    return out


def undone_initiatives(future: list[Event]) -> list[str]:
    """The teams whose first card of the turn (an ``initiative`` event, 9.1) is in ``future``:
    before it they had no initiative this turn (the End Phase cleared it, base-rules §5.5)."""
    return list(
        dict.fromkeys(str(ev.data.get("team") or ev.actor) for ev in future if ev.kind == "initiative")
    )


def undone_target_markers(future: list[Event]) -> dict[tuple[str, str], Hex | None]:
    """(vehicle id, seat) → the hex its Target Marker was on before ``future`` (None: none on
    the map), for the seats whose marker an event of ``future`` placed, moved or removed
    (C2 31.7.3-31.7.5; the earliest wins)."""
    out: dict[tuple[str, str], Hex | None] = {}
    for ev in reversed(future):
        d = ev.data
        if ev.kind not in ("target_marker", "target_marker_removed") or not d.get("vehicle"):
            continue
        if not d.get("position") or d.get("moved") is False:
            continue
        if ev.kind == "target_marker_removed":
            before = d.get("hex")
        elif "from" in d or "previous" in d:
            before = d.get("from", d.get("previous"))
        else:
            continue
        out[(str(d["vehicle"]), str(d["position"]))] = Hex.parse(str(before)) if before else None
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

    A shallow copy of ``game`` with its own state: the state kept by ``stage.states`` just
    before the first event not shown was told (else the live state), characters and teams put
    back by :func:`undone_changes` and :func:`undone_initiatives`, the movers of the shown beat
    at their hex along the path at ``now``; ``events`` up to the beat shown, and no pending
    decision. Read-only: drawing only.
    """
    beat = stage.shown
    upto = stage.upto
    if beat is None or upto is None:
        return game
    future = game.events[upto + 1 :]
    kept = stage.states.before(upto + 1) if stage.states is not None and stage.states.game is game else None
    st = kept if kept is not None else game.state
    changes = undone_changes(game, future)
    for cid, label in stage.walked(now).items():
        changes.setdefault(cid, {})["hex"] = Hex.parse(label)
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
        for name in ("morale", "status", "alert"):
            if name in c:
                fields[name] = c[name]
        if c.get("wounds_taken"):
            fields["wounds"] = list(ch.wounds[: max(0, len(ch.wounds) - c["wounds_taken"])])
        chars[cid] = attrs.evolve(ch, **fields)
    staged_state = copy.copy(st)
    unset = [t for t in undone_initiatives(future) if t in st.teams]
    if unset:
        teams = dict(st.teams)
        for tid in unset:
            teams[tid] = attrs.evolve(st.teams[tid], initiative=None, first_card=None)
        staged_state.teams = teams
    vehicles = getattr(st, "vehicles", None)
    if vehicles:
        markers = undone_target_markers(future)
        if markers:
            vehicles = dict(vehicles)
            for (vid, pos), h in markers.items():
                v = vehicles.get(vid)
                if v is not None and pos in v.seats:
                    seats = dict(v.seats)
                    seats[pos] = attrs.evolve(seats[pos], marker=h)
                    vehicles[vid] = attrs.evolve(v, seats=seats)
            staged_state.vehicles = vehicles
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
    flow = st.flow
    if kept is None or (flow.turn, flow.impulse) != (beat.turn, beat.impulse):
        phase = Phase.ACTION if beat.impulse else Phase.ENEMY_CARD_ORDER
    else:
        phase = flow.phase
    staged_state.flow = attrs.evolve(
        flow, turn=beat.turn, impulse=beat.impulse, phase=phase, active_character=actor
    )
    staged = copy.copy(game)
    staged.state = staged_state
    staged.events = game.events[: upto + 1]
    staged.pending = None
    return staged
