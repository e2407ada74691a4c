"""What the Friendly player sees of a game at a point: hidden enemies, the positions of a log, the summary.

- :func:`is_hidden`: an Enemy whose identity the player does not know (not Known, still in play;
  dummies until removed; crews and passengers sit face up on their vehicle, C2 31.3, 31.7), whose
  name reads :data:`UNKNOWN` in prompts and labels;
- :class:`Position`: one point of a log as the window lists it (turn, Impulse, phase, the decision
  and the choice logged), with what stays the same within a step (:data:`STEPS`);
- :func:`summary_at`: the game now in plain lines (``solo inspect``).

May import: :mod:`solo.engine` and below (it reads a game; it never plays one).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from solo.engine.game import Game
from solo.rules.state import Character, Side, Status

__all__ = ["STEPS", "UNKNOWN", "Point", "Position", "is_hidden", "summary_at"]


Point = tuple[int, int]
"""``(turn, impulse)``: turn 1+, impulse 0-4 (0: before Impulse 1)."""

STEPS = ("decision", "activation", "impulse", "turn")
"""What :meth:`History.next` and :meth:`History.prev` (:mod:`solo.playtest.history`) step by."""

UNKNOWN = "Unknown enemy"
"""What a hidden enemy's name reads as (without spoilers)."""


# ---------------------------------------------------------------------------
# Hidden information


def is_hidden(game: Game, ch: Character) -> bool:
    """Whether ``ch``'s identity is hidden from the Friendly player: an Enemy not Known, still in play.

    As the window shows it (solo.render.logview): dummies are hidden until
    removed; crews and passengers sit face up on their vehicle (C2 31.3, 31.7).
    """
    if ch.side is not Side.ENEMY or ch.revealed or ch.vehicle is not None:
        return False
    if ch.dummy and ch.id in game.state.flags.get("removed_dummies", ()):
        return False
    return ch.status is Status.ACTIVE


def _fog(game: Game) -> re.Pattern[str] | None:
    """A pattern matching the names of hidden enemies (None when none is hidden)."""
    names = sorted({c.name for c in game.state.characters.values() if c.name and is_hidden(game, c)}, key=len)
    if not names:
        return None
    return re.compile("|".join(re.escape(n) for n in reversed(names)))


def _clean(pattern: re.Pattern[str] | None, text: str) -> str:
    return pattern.sub(UNKNOWN, text) if pattern is not None else text


# ---------------------------------------------------------------------------
# Positions and navigation


@attrs.frozen
class Position:
    """One point of a log: decision ``index`` (after ``index`` inputs), where it stands, what it asks."""

    index: int
    """Inputs given before this point (0 .. the number of inputs; the last is the log's end)."""
    turn: int
    impulse: int
    """1-4 in the Action Phase, else 0."""
    phase: str
    """The phase of the sequence of play (a solo.rules.state.Phase value: ``"friendly_order"``,
    ``"action"``...)."""
    kind: str | None
    """The decision's kind (solo.engine.game.DecisionKind value), or None where the game is over."""
    actor: str | None
    """The character the decision is about, if any."""
    active: str | None
    """Whose activation it is: the active character, else the decision's actor, else None."""
    prompt: str
    """The decision's question ("" where the game is over), hidden names cleaned."""
    choice: str | None
    """The input the log gives here (None at its end)."""
    label: str
    """One line for a list: ``"#41 3.2 Pvt Diaz (Sneak): Duck Back? → no"``."""
    activation: str
    """The activation it belongs to: ``"3.2 Pvt Diaz"``, ``"1.0 Friendly Order Phase"``."""

    @property
    def point(self) -> Point:
        """``(turn, impulse)``."""
        return (self.turn, self.impulse)

    def key(self, by: str) -> Any:
        """What stays the same within one ``by`` step (see :data:`STEPS`)."""
        if by == "decision":
            return self.index
        if by == "activation":
            return (self.turn, self.impulse, self.phase, self.active)
        if by == "impulse":
            return (self.turn, self.impulse)
        if by == "turn":
            return self.turn
        raise ValueError(f"cannot step by {by!r} (expected one of: {', '.join(STEPS)})")


_PHASE_NAMES = {
    "setup": "Set-up",
    "friendly_card": "Friendly Card Phase",
    "friendly_order": "Friendly Order Phase",
    "enemy_card_order": "Enemy Card and Order Phase",
    "action": "Action Phase",
    "end": "End Phase",
    "over": "game over",
}


def _position(game: Game, index: int, choice: str | None) -> Position:
    st = game.state
    d = game.pending
    fl = st.flow
    fog = _fog(game)
    turn, impulse = (d.turn, d.impulse) if d is not None else (fl.turn, fl.impulse)
    active = fl.active_character or (d.actor if d is not None else None)
    if active is not None and active in st.characters:
        ch = st.characters[active]
        who = UNKNOWN if is_hidden(game, ch) else ch.name
    else:
        who = _PHASE_NAMES.get(fl.phase.value, fl.phase.value)
    prompt = _clean(fog, d.prompt) if d is not None else ""
    if d is None:
        text = "end of the log: game over" if game.over else "end of the log"
    else:
        label = next((o.label for o in d.options if o.key == choice), choice) if choice is not None else None
        text = prompt + (f" → {_clean(fog, label)}" if label is not None else " (no choice logged)")
    return Position(
        index=index,
        turn=turn,
        impulse=impulse,
        phase=fl.phase.value,
        kind=d.kind.value if d is not None else None,
        actor=d.actor if d is not None else None,
        active=active,
        prompt=prompt,
        choice=choice,
        label=f"#{index} {turn}.{impulse} {text}",
        activation=f"{turn}.{impulse} {who}",
    )


# ---------------------------------------------------------------------------
# The summary


def summary_at(game: Game, *, spoilers: bool = False) -> str:
    """What the game looks like now, in plain lines (``solo inspect``).

    Turn, Impulse and phase; the pending decision; the Initiative Track;
    weather; the Friendly hand; every character (hex, Morale State, order,
    wounds, ammo, Spotted/Hidden or Known/Unknown, Alert/Waiting) and vehicle
    (hex, hull and turret facing, hatches, Target Markers, damage); map
    markers; victory points. An Unknown enemy (or a dummy not yet removed)
    shows only as ``?`` with his team and hex unless ``spoilers``.
    """
    st = game.state
    fl = st.flow
    fog = None if spoilers else _fog(game)
    lines = []
    where = f"Turn {fl.turn}" + (f", Impulse {fl.impulse}" if fl.impulse else "")
    lines.append(
        f"{where} · {_PHASE_NAMES.get(fl.phase.value, fl.phase.value)} · scenario {game.scenario.name}"
    )
    d = game.pending
    if d is not None:
        opts = ", ".join(_clean(fog, o.label) for o in d.options[:8]) + (" ..." if len(d.options) > 8 else "")
        lines.append(f"Pending: {_clean(fog, d.prompt)} [{opts}]")
    elif game.over:
        lines.append(f"Game over: winner {st.winner or 'undecided'}.")
    if fl.track:
        track = []
        for tid in fl.track:
            t = st.teams[tid]
            mark = "*" if tid == fl.active_team else ""
            ini = f" {t.initiative:02d}" if t.initiative is not None else ""
            track.append(f"{mark}{t.name}{ini}")
        lines.append("Initiative Track: " + " · ".join(track))
    if fl.active_character and fl.active_character in st.characters:
        ch = st.characters[fl.active_character]
        lines.append(f"Active: {ch.name if spoilers or not is_hidden(game, ch) else UNKNOWN}")
    los = f", max LOS {st.max_los}" if st.max_los is not None else ""
    lines.append(f"Weather {st.weather}, ground {st.ground}, wind {st.wind}{los}.")
    cards = st.cards
    hand = ", ".join(cards.hand) or "none"
    lines.append(f"Friendly hand: {hand}" + (f"; played {cards.played}" if cards.played else "") + ".")
    for side in (Side.FRIENDLY, Side.ENEMY):
        lines.append(f"{side.value.capitalize()}:")
        for ch in st.roster(side):
            line = _character_line(game, ch, spoilers=spoilers)
            if line:
                lines.append("  " + line)
    if st.vehicles:
        lines.append("Vehicles:")
        for v in st.vehicles.values():
            lines.append("  " + _vehicle_line(game, v, spoilers=spoilers))
    marks = _marker_lines(game)
    if marks:
        lines.append("Markers: " + "; ".join(marks) + ".")
    lines.append(f"Victory points: Friendly {st.vp.get('friendly', 0)}, Enemy {st.vp.get('enemy', 0)}.")
    return "\n".join(lines)


def _character_line(game: Game, ch: Character, *, spoilers: bool) -> str:
    st = game.state
    team = st.teams.get(ch.team)
    team_name = team.name if team is not None else ch.team
    if not spoilers and is_hidden(game, ch):
        return f"? ({team_name}) at {ch.hex}" if ch.hex is not None else ""
    if ch.dummy and ch.id in st.flags.get("removed_dummies", ()):
        return f"{ch.name} ({ch.id}): dummy, removed"
    where = str(ch.hex) if ch.hex is not None else "off map"
    if ch.vehicle is not None:
        where += f" in {ch.vehicle}" + (f" ({ch.seat})" if ch.seat else "")
    bits = [f"{ch.name} ({ch.id}, {team_name}) {where}"]
    if ch.status is not Status.ACTIVE:
        bits.append(ch.status.value.replace("_", " "))
        return " · ".join(bits)
    bits.append(ch.morale.value.capitalize())
    if ch.order is not None:
        o = game.data.orders.get(ch.order.order)
        text = o.name if o is not None else ch.order.order
        if ch.order.directions:
            text += f" {ch.order.directions}"
        if ch.order.target:
            tgt = st.characters.get(ch.order.target)
            shown = UNKNOWN if tgt is not None and not spoilers and is_hidden(game, tgt) else ch.order.target
            text += f" at {shown}"
        bits.append(text)
    else:
        bits.append("no order")
    if ch.wounds:
        bits.append("wounds " + ", ".join(w.value for w in ch.wounds))
    if ch.ammo.value != "full":
        bits.append(f"ammo {ch.ammo.value}")
    if ch.side is Side.FRIENDLY:
        bits.append("Spotted" if ch.revealed else "Hidden")
    else:
        state = "Known" if ch.revealed else "Unknown"
        if ch.dummy:
            state += ", dummy"
        bits.append(state)
        bits.append("Alert" if ch.alert else "Waiting")
        if not ch.prepared:
            bits.append("Unprepared")
    return " · ".join(bits)


def _vehicle_line(game: Game, v: Any, *, spoilers: bool) -> str:
    where = str(v.hex) if v.hex is not None else "off map"
    text = f"{v.name} ({v.id}, {v.side.value}) {where} facing {v.facing}"
    if v.turret is not None:
        text += f", turret {v.turret}"
    state = [
        s for s, on in (("destroyed", v.destroyed), ("abandoned", v.abandoned), ("on fire", v.on_fire)) if on
    ]
    state += list(v.damage)
    if state:
        text += " · " + ", ".join(state)
    hatches = [f"{p} {s.hatch.value}" for p, s in v.seats.items() if s.hatch.value != "none"]
    if hatches:
        text += " · hatches: " + ", ".join(hatches)
    markers = [f"{p} → {h}" for p, h in v.markers()]
    if markers:
        text += " · Target Markers: " + ", ".join(markers)
    return text


def _marker_lines(game: Game) -> list[str]:
    m = game.state.markers
    out = []
    for h, kinds in m.smoke.items():
        if kinds:
            out.append(f"smoke {h} ({', '.join(kinds)})")
    for h, kind in m.fire.items():
        out.append(f"{kind} {h}")
    for g in m.grenades:
        out.append(f"{g.get('kind', 'grenade')} {g.get('hex')}")
    for h in m.illuminated:
        out.append(f"illumination {h}")
    return out
