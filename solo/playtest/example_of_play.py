"""The example of play at the end of the Combat!2 rules (after 32.3), scripted: every card and die forced.

The shipped scenario maps/scenarios/example_of_play.yaml (a Panzer IVH against Charlie's Bazooka
team) is played by :func:`solo.playtest.play.new_game` with forced cards and dice, every Friendly
decision answered with ``game.apply`` as the printed player does (:func:`answer`). The tests of
the example (tests/test_example_of_play.py) check every printed step from the played game;
``tools/docs_pictures`` draws it.

Choices made here:

* Friendly card f05 "Church Bells" (no effect) gives Charlie the printed Initiative 86.
* Enemy cards in draw order: e33 (73, Commander), e25 (47, Driver), then e01 (43), e17 (45),
  e36 (49) for the Gunner, Loader and Co-driver; the example prints only the first two numbers,
  any number giving the printed orders will do. Forced cards are found by id in the draw pile,
  so the set-up shuffles do not matter.
* EVERY die is scripted (:data:`PLAY`, then one Impulse-4 tail per variant) with the purpose
  the engine gives it; :func:`play` checks each purpose and that no roll fell to the fallback,
  so a change in the order of the rolls fails loudly (:class:`ScriptMismatch`).
* Rolls the example does not print (the rules require them; the example leaves them out) are
  failures that change nothing: the Loader spots on Impulse 2 (C2 31.7.3: "the Enemy Driver and
  Loader may still roll to spot"; his closed-hatch LOS is the turret front, which the turret
  turn has just brought onto the team); the Commander, Gunner and Loader try again for the
  still Hidden Douglas on Impulses 3 and 4 (base-rules §9.6, once per activation). A 9 always
  fails (C2 23.1).
* The printed "15.12" for the Target Markers is a typo: the team is in 20.08 (scenario header).
* Charlie activates in roster order (house rule, base-rules "Order within a team"): Buttermann
  before Douglas, where the printed player takes Douglas first; neither of their Impulse-2 or
  Impulse-3 outcomes depends on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solo.core.dice import ScriptedSource
from solo.core.events import Event
from solo.core.hexes import Hex
from solo.data.friendly_deck import WoundStamp
from solo.data.house import HouseData, load_data
from solo.engine.game import Decision, DecisionKind, Game
from solo.playtest.play import new_game

SCENARIO = "example_of_play"
"""The shipped scenario id (maps/scenarios/example_of_play.yaml)."""
ENEMY_CARDS = ["e33", "e25", "e01", "e17", "e36"]
"""Commander 73, Driver 47, Gunner 43, Loader 45, Co-driver 49 (cards/enemy_orders.yaml)."""
CHARLIE_CARD = "f05"
"""Church Bells: Able 24, Baker 6, Charlie 86 (the printed card 1 gives Charlie 86)."""
FRIENDLY_ORDERS = {"buttermann": "fire_light_at", "douglas": "load_light_at"}
CREW = tuple(f"panzer_{pos}" for pos in ("commander", "driver", "gunner", "loader", "co_driver"))
TEAM_HEX = Hex.parse("20.08")
"""The Bazooka team's hex (the printed "15.12" is a typo: see the scenario header)."""

Script = list[tuple[str, str, "int | None"]]
"""Chance records in order: (die kind, purpose fragment, physical face or None for a pick
among one option, which is recorded without a die)."""

PLAY: Script = [
    # Impulse 2
    ("d10", "spot: Ofw. Brandt -> Pvt Buttermann", 6),
    ("d10", "spot: Ofw. Brandt -> Pvt Douglas", 9),
    ("d10", "TQC: Uffz. Vogel Emergency Stop", 5),
    ("d10", "spot: Uffz. Adler -> Pvt Douglas", 9),
    ("d10", "spot: Gefr. Baumann -> Pvt Douglas", 9),  # not printed (31.7.3)
    ("d10", "TQC: Pvt Douglas (load Pvt Buttermann's Bazooka", 1),
    # Impulse 3
    ("d10", "spot: Ofw. Brandt -> Pvt Douglas", 9),  # not printed (§9.6)
    ("d10", "spot: Uffz. Adler -> Pvt Douglas", 9),  # not printed (§9.6)
    ("d10", "TQC: Uffz. Adler (fire the main gun?", 8),
    ("d10", "spot: Gefr. Baumann -> Pvt Douglas", 9),  # not printed (§9.6)
    ("d10", "TQC: Pvt Buttermann (fire the Bazooka?", 2),
    ("d10", "Bazooka: Pvt Buttermann -> Panzer IVH (modified TQ 7)", 4),
    ("%D", "hit location: Bazooka -> Panzer IVH, side", 43),
    ("7+1d6", "penetration: Bazooka vs Panzer IVH lower hull side glancing armor 5", 1),
    ("d10", "damage: Panzer IVH, lower hull column", 4),
    ("d10", "MC: Ofw. Brandt", 8),
    ("d10", "MC: Uffz. Adler", 6),
    ("d10", "MC: Gefr. Baumann", 9),
    # Impulse 4, before the Gunner fires
    ("d10", "spot: Ofw. Brandt -> Pvt Douglas", 9),  # not printed (§9.6)
    ("d10", "spot: Uffz. Adler -> Pvt Douglas", 9),  # not printed (§9.6)
]
"""Impulses 1-3 and the start of Impulse 4, every die with the purpose the engine gives it."""
HE_ROLL = "HE at 20.08: Uffz. Adler (modified TQ 5)"
BLAST_MC = "HE explodes on"

BUTTERMANN_DICE = [3, 4, 9, 8]
"""Four Frag dice at Blast 3 + 0 (Fire Light AT in the Open): the 3 hits, the 4 misses."""
DOUGLAS_DICE = [2, 3, 9]
"""Three Frag dice at Blast 3 - 1 (Load Light AT): the 2 hits, the 3 misses."""


class ScriptMismatch(Exception):
    """The played game does not follow the script: a roll with another kind or purpose, more or
    fewer rolls than scripted, or an answer the example never gives."""


def close_calls(n: int, data: HouseData | None = None) -> list[str]:
    """``n`` Close Call card ids of the house Friendly deck (wound draws that kill nobody)."""
    cards = (data or load_data()).friendly_deck.cards
    return [c.id for c in cards if c.stamp is WoundStamp.CLOSE_CALL and c.id != CHARLIE_CARD][:n]


HIT_TAIL: Script = [
    ("d10", HE_ROLL, 5),
    ("choice", "HE on 20.08: target 1 at random", 1),
    *[
        ("d10", f"HE on 20.08: die {i + 1}/4 for Pvt Buttermann (<= 3)", f)
        for i, f in enumerate(BUTTERMANN_DICE)
    ],
    ("d10", "MC: Pvt Buttermann (Close Call", 5),
    ("choice", "HE on 20.08: target 2 at random", None),  # one left: recorded, no die
    *[("d10", f"HE on 20.08: die {i + 1}/3 for Pvt Douglas (<= 2)", f) for i, f in enumerate(DOUGLAS_DICE)],
    ("d10", "MC: Pvt Douglas (Close Call", 5),
    ("d10", f"MC: Pvt Buttermann ({BLAST_MC} 20.08", 5),
    ("d10", f"MC: Pvt Douglas ({BLAST_MC} 20.08", 6),
]
"""Impulse 4, 0-5: a direct hit (the 5 is the modified TQ), one hit on each man, both MC
(two Close Call wound cards: :func:`close_calls`)."""


def lands_tail(face: int) -> Script:
    """Impulse 4, 6-8 (``face``): the round lands in the hex and hits nobody; both MC."""
    return [
        ("d10", HE_ROLL, face),
        ("d10", f"MC: Pvt Buttermann ({BLAST_MC} 20.08", 5),
        ("d10", f"MC: Pvt Douglas ({BLAST_MC} 20.08", 6),
        ("d10", "spot: Gefr. Baumann -> Pvt Douglas", 9),  # not printed (§9.6)
    ]


SCATTER_DIRECTION = 4
"""The d6 of the scatter: the round lands in the hex below the team's (direction 4)."""


def scatter_tail() -> Script:
    """Impulse 4, 9: the round scatters 1d6 into an adjacent (empty) hex; the team still MCs."""
    return [
        ("d10", HE_ROLL, 9),
        ("d6", "HE scatter from 20.08", SCATTER_DIRECTION),
        ("d10", f"MC: Pvt Buttermann ({BLAST_MC}", 5),
        ("d10", f"MC: Pvt Douglas ({BLAST_MC}", 6),
        ("d10", "spot: Gefr. Baumann -> Pvt Douglas", 9),  # not printed (§9.6)
    ]


@dataclass
class Played:
    """A finished example game, with the state at the start of each Impulse (``at[1]``..``at[4]``,
    as :func:`snapshot` gives it) and the decisions asked, in order."""

    game: Game
    at: dict[int, dict[str, Any]]
    decisions: list[Decision]

    def events(self, kind: str, impulse: int | None = None, actor: str | None = None) -> list[Event]:
        """Events of ``kind`` (in ``impulse`` of turn 1, by ``actor``), in order."""
        return [
            e
            for e in self.game.events
            if e.kind == kind
            and (impulse is None or (e.turn, e.impulse) == (1, impulse))
            and (actor is None or e.actor == actor)
        ]

    def one(self, kind: str, impulse: int | None = None, actor: str | None = None) -> Event:
        """The one event of ``kind`` (in ``impulse``, by ``actor``); raises :class:`ScriptMismatch`
        when there are none or several."""
        got = self.events(kind, impulse, actor)
        if len(got) != 1:
            raise ScriptMismatch(f"{len(got)} {kind} events, wanted one: {[e.text for e in got]}")
        return got[0]


def snapshot(game: Game) -> dict[str, Any]:
    """What the example talks about, now: the Panzer's hex, facing, turret, load and Target
    Markers by crew position, and each man's Order, Morale State, status and the Bazooka."""
    st = game.state
    pz = st.vehicles["panzer"]
    chars = {cid: st.characters[cid] for cid in ("buttermann", "douglas", *CREW)}
    bazooka = dict(st.flags.get("light_at", {}).get("buttermann", {}))
    return {
        "hex": pz.hex,
        "facing": pz.facing,
        "turret": pz.turret,
        "loaded": pz.loaded,
        "markers": {pos: seat.marker for pos, seat in pz.seats.items()},
        "orders": {cid: c.order.order if c.order else None for cid, c in chars.items()},
        "morale": {cid: c.morale.value for cid, c in chars.items()},
        "status": {cid: c.status for cid, c in chars.items()},
        "revealed": {cid: chars[cid].revealed for cid in ("buttermann", "douglas")},
        "bazooka": bazooka,
    }


def answer(game: Game, d: Decision) -> str:
    """The printed player's answer to ``d``; raises :class:`ScriptMismatch` for any other question
    (a deviation from the example)."""
    if d.kind is DecisionKind.PLAY_CARD:
        return CHARLIE_CARD
    if d.kind is DecisionKind.GIVE_ORDER and d.actor in FRIENDLY_ORDERS:
        return FRIENDLY_ORDERS[d.actor]
    if d.kind is DecisionKind.DUCK_BACK:
        return "no"
    if d.kind is DecisionKind.FIRE_TARGET and d.actor == "buttermann":
        return "vehicle:panzer"
    raise ScriptMismatch(f"the example asks no {d.kind.value} ({d.prompt}; {d.keys})")


def play(tail: Script, wounds: tuple[str, ...] = (), data: HouseData | None = None) -> Played:
    """Play the example through Impulse 4 with :data:`PLAY` + ``tail`` (``wounds``: the Friendly
    wound cards forced after Charlie's card); check every roll's kind and purpose.

    Raises :class:`ScriptMismatch` when a roll differs from the script, when there are more or
    fewer rolls than scripted, or when the game asks a question the example does not answer.
    """
    script = [*PLAY, *tail]
    game = new_game(
        SCENARIO,
        seed=1,
        data=data or load_data(),
        dice=[face for _kind, _purpose, face in script if face is not None],
        cards={"friendly": [CHARLIE_CARD, *wounds], "enemy": ENEMY_CARDS},
    )
    at: dict[int, dict[str, Any]] = {}

    def listen(ev: Event) -> None:
        if ev.kind == "impulse":
            at[ev.impulse] = snapshot(game)

    game.listeners.append(listen)
    decisions: list[Decision] = []
    while game.pending is not None:
        decisions.append(game.pending)
        game.apply(answer(game, game.pending))
    rolls = [e.data for e in game.events if e.kind == "roll" and e.data.get("type") in ("roll", "pick")]
    got = [("choice" if r["type"] == "pick" else r["kind"], r["purpose"]) for r in rolls]
    for i, ((kind, purpose, _face), (gkind, gpurpose)) in enumerate(zip(script, got, strict=False)):
        if gkind != kind or purpose not in gpurpose:
            raise ScriptMismatch(f"roll {i}: wanted {kind} {purpose!r}, got {gkind} {gpurpose!r}")
    if len(got) != len(script):
        raise ScriptMismatch(f"{len(got)} rolls for {len(script)} scripted: {got[len(script) :]}")
    source = game.dice.source
    if not isinstance(source, ScriptedSource) or source.remaining != ():
        raise ScriptMismatch(f"scripted dice left over or not scripted: {source!r}")
    return Played(game, at, decisions)


def play_hit(data: HouseData | None = None) -> Played:
    """The example with Impulse 4's direct hit (the printed 0-5 case): :data:`HIT_TAIL` and two
    Close Calls."""
    data = data or load_data()
    return play(HIT_TAIL, tuple(close_calls(2, data)), data)
