"""The example of play at the end of the Combat!2 rules (after 32.3), played through the public API.

The shipped scenario maps/scenarios/example_of_play.yaml (a Panzer IVH against Charlie's Bazooka
team) is played by :func:`solo.playtest.play.new_game` with forced cards and dice, every Friendly decision
answered with ``game.apply`` as the printed player does, and every printed step is checked from
the game's events or from the state at the start of each Impulse.

Choices made here:

* Friendly card f05 "Church Bells" (no effect) gives Charlie the printed Initiative 86.
* Enemy cards in draw order: e33 (73, Commander), e25 (47, Driver), then e01 (43), e17 (45),
  e36 (49) for the Gunner, Loader and Co-driver; the example prints only the first two numbers,
  any number giving the printed orders will do. Forced cards are found by id in the draw pile,
  so the set-up shuffles do not matter.
* EVERY die is scripted (:data:`PLAY`, then one Impulse-4 tail per variant) with the purpose
  the engine gives it; :func:`play` checks each purpose and that no roll fell to the fallback,
  so a change in the order of the rolls fails loudly.
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

import pytest
from conftest import house_data

from solo.core.events import Event
from solo.core.hexes import Hex
from solo.data.friendly_deck import WoundStamp
from solo.engine.game import Decision, DecisionKind, Game
from solo.playtest.play import new_game
from solo.rules.state import Status

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
HE_ROLL = "HE at 20.08: Uffz. Adler (modified TQ 5)"
BLAST_MC = "HE explodes on"

BUTTERMANN_DICE = [3, 4, 9, 8]
"""Four Frag dice at Blast 3 + 0 (Fire Light AT in the Open): the 3 hits, the 4 misses."""
DOUGLAS_DICE = [2, 3, 9]
"""Three Frag dice at Blast 3 - 1 (Load Light AT): the 2 hits, the 3 misses."""


def close_calls(n: int) -> list[str]:
    """``n`` Close Call cards of the house Friendly deck (wound draws that kill nobody)."""
    cards = house_data().friendly_deck.cards
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
"""Impulse 4, 0-5: a direct hit (the 5 is the modified TQ), one hit on each man, both MC."""


def lands_tail(face: int) -> Script:
    """Impulse 4, 6-8: the round lands in the hex and hits nobody; both MC."""
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


# ---------------------------------------------------------------------------
# Playing the example


@dataclass
class Played:
    """A finished example game, with the state at the start of each Impulse (``at[1]``..``at[4]``)."""

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
        """The one event of ``kind`` (in ``impulse``, by ``actor``)."""
        got = self.events(kind, impulse, actor)
        assert len(got) == 1, [e.text for e in got]
        return got[0]


def snapshot(game: Game) -> dict[str, Any]:
    """What the example talks about, now."""
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
    """The printed player's answers; any other question is a deviation from the example."""
    if d.kind is DecisionKind.PLAY_CARD:
        return CHARLIE_CARD
    if d.kind is DecisionKind.GIVE_ORDER:
        return FRIENDLY_ORDERS[d.actor]
    if d.kind is DecisionKind.DUCK_BACK:
        return "no"
    if d.kind is DecisionKind.FIRE_TARGET and d.actor == "buttermann":
        return "vehicle:panzer"
    raise AssertionError(f"the example asks no {d.kind.value} ({d.prompt}; {d.keys})")


def play(tail: Script, wounds: tuple[str, ...] = ()) -> Played:
    """Play the example through Impulse 4 with :data:`PLAY` + ``tail``; check every roll's purpose."""
    script = [*PLAY, *tail]
    game = new_game(
        "example_of_play",
        seed=1,
        data=house_data(),
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
        assert gkind == kind and purpose in gpurpose, (
            f"roll {i}: wanted {kind} {purpose!r}, got {gkind} {gpurpose!r}"
        )
    assert len(got) == len(script), f"{len(got)} rolls for {len(script)} scripted: {got[len(script) :]}"
    assert game.dice.source.remaining == ()
    return Played(game, at, decisions)


@pytest.fixture(scope="module")
def hit() -> Played:
    """The example with Impulse 4's direct hit (the printed 0-5 case)."""
    return play(HIT_TAIL, tuple(close_calls(2)))


# ---------------------------------------------------------------------------
# The Friendly Card Phase and the Friendly Order Phase


def test_card_gives_charlie_86(hit):
    """Example: "the Player plays card 1 from his hand. This gives Charlie Team an Initiative of 86"."""
    assert hit.one("card_played").data["card"] == CHARLIE_CARD
    assert hit.game.state.teams["charlie"].initiative == 86


def test_team_orders_offered_and_given(hit):
    """Example, 32.1: 'Load Light AT' for Douglas (the Assistant) and 'Fire Light AT' for Buttermann."""
    asked = {d.actor: d.keys for d in hit.decisions if d.kind is DecisionKind.GIVE_ORDER}
    assert "fire_light_at" in asked["buttermann"]
    assert "load_light_at" in asked["douglas"] and "fire_light_at" not in asked["douglas"]
    given = {e.actor: e.data["order"] for e in hit.events("friendly_order")}
    assert given == FRIENDLY_ORDERS


# ---------------------------------------------------------------------------
# The Enemy Card and Order Phase (31.1, 31.11.3)


def test_commander_card_73_gives_spot_and_the_initiative(hit):
    """Example, 31.1: card 3 (house e33) gives the AFV's initiative 73; No-Target/Unbuttoned → Spot."""
    d = hit.one("crew_order", actor="panzer_commander").data
    assert (d["card"], d["initiative"], d["column"], d["order"]) == ("e33", 73, "no_target_open", "spot")
    assert hit.one("initiative").data["initiative"] == 73
    assert [tuple(t) for t in hit.one("track").data["track"]] == [("panzer", 73), ("charlie", 86)]


def test_driver_card_47_gives_crawl_1(hit):
    """Example, 31.11.3: "The Driver draws card 6. Its initiative value of 47 ... 'Crawl 1'"."""
    d = hit.one("crew_order", actor="panzer_driver").data
    assert (d["card"], d["initiative"], d["order"], d["directions"]) == ("e25", 47, "crawl", "1")


def test_gunner_loader_co_driver_orders(hit):
    """Example, 31.11.3: the Gunner Fire Main Gun, the Loader Load HE, the Co-driver Aimed Fire (bow MG)."""
    got = {
        e.actor: (e.data["order"], e.data["weapon"])
        for e in hit.events("crew_order")
        if e.actor in ("panzer_gunner", "panzer_loader", "panzer_co_driver")
    }
    assert got == {
        "panzer_gunner": ("fire_main_gun", None),
        "panzer_loader": ("load_he", None),
        "panzer_co_driver": ("aimed_fire", "bow_mg"),
    }


def test_crew_order_assignment_order(hit):
    """Example, 31.11.3: cards are drawn for the Commander, then Driver, Gunner, Loader, Co-driver."""
    assert [e.actor for e in hit.events("crew_order")] == [
        "panzer_commander",
        "panzer_driver",
        "panzer_gunner",
        "panzer_loader",
        "panzer_co_driver",
    ]


# ---------------------------------------------------------------------------
# Impulse 1


def test_impulse_1_crawl_to_15_11_and_nobody_spots(hit):
    """Example, Impulse 1: the Driver moves 1 hex forward to 15.11 (facing 1); nobody can spot."""
    d = hit.one("vehicle_move", 1, "panzer_driver").data
    assert (d["start"], d["end"], d["facing"]) == ("15.12", "15.11", 1)
    assert hit.at[2]["hex"] == Hex.parse("15.11") and hit.at[2]["facing"] == 1
    assert hit.events("spot", 1) == [] and hit.events("roll", 1) == []
    assert all(m is None for m in hit.at[2]["markers"].values())


# ---------------------------------------------------------------------------
# Impulse 2


def test_commander_spots_buttermann_at_7_with_a_6(hit):
    """Example, Impulse 2: "TQ of 5 +1 (Fire Light AT order in the Open) + 1 (Spot) = 7. He rolls a 6"."""
    spots = hit.events("spot", 2, "panzer_commander")
    b = spots[0].data
    assert (b["target"], b["tq"], b["chart"], b["extra"], b["threshold"], b["roll"], b["success"]) == (
        "buttermann",
        5,
        1,
        {"Spot order": 1},
        7,
        6,
        True,
    )
    assert hit.at[3]["revealed"]["buttermann"]


def test_commander_fails_on_douglas_with_a_9(hit):
    """Example, Impulse 2: "The Commander then rolls to Spot Private Douglas but rolls a 9 and fails"."""
    d = hit.events("spot", 2, "panzer_commander")[1].data
    assert (d["target"], d["roll"], d["success"]) == ("douglas", 9, False)
    assert not hit.at[3]["revealed"]["douglas"]


def test_commander_marks_the_light_at_team(hit):
    """Example, 31.7.4 priority 2: "he has LOS to a Friendly Light AT Team so places his Target Marker"."""
    d = hit.one("target_marker", 2, "panzer_commander").data
    assert (d["hex"], d["priority"], d["on"], d["tqc"]) == (str(TEAM_HEX), 2, "light_at", None)
    assert hit.at[3]["markers"]["commander"] == TEAM_HEX
    marked = hit.one("target_marker", 2, "panzer_commander").seq
    assert all(e.seq < marked for e in hit.events("spot", 2, "panzer_commander"))


def test_driver_emergency_stop_tqc_7_passes_on_5(hit):
    """Example, 31.2 (1): "The TQ of the Driver is 5 + 2 (for the Commander's Leadership). He rolls a 5"."""
    d = hit.one("emergency_stop_check", 2, "panzer_driver").data
    assert (d["tq"], d["ldr"], d["target"], d["roll"], d["passed"], d["from"]) == (5, 2, 7, 5, True, "crawl")
    assert hit.at[3]["orders"]["panzer_driver"] == "emergency_stop"
    assert hit.at[3]["hex"] == Hex.parse("15.11")


def test_emergency_stop_keeps_the_crew_orders_once(hit):
    """31.11.2: stopped at 0 hexes, every crewman keeps his order (one retention event, not two)."""
    retention = [e for e in hit.events("emergency_stop", 2) if e.actor is None]
    assert len(retention) == 1 and retention[0].data["hexes"] == 0
    assert hit.at[3]["orders"]["panzer_gunner"] == "fire_main_gun"


def test_gunner_turns_the_turret_one_hexside_to_the_commanders_marker(hit):
    """Example, 31.6: "he will still rotate the turret one hex side because of the Commander's ... Marker"."""
    assert hit.at[2]["turret"] == 1
    assert hit.one("turret_turn", 2, "panzer_gunner").data["turret"] == 2
    assert hit.at[3]["turret"] == 2
    assert hit.one("no_fire", 2, "panzer_gunner").data["reason"] == "turret turned"


def test_gunner_spots_douglas_without_the_closed_hatch_penalty_and_fails(hit):
    """Example, 31.7.3: his closed-hatch -2 "is negated by the Commander's Target Marker"; a 9 fails."""
    d = hit.one("spot", 2, "panzer_gunner").data
    assert (d["target"], d["tq"], d["chart"], d["threshold"], d["roll"], d["success"]) == (
        "douglas",
        5,
        1,
        6,
        9,
        False,
    )
    assert list(d["extra"].values()) == [0] and "negated" in next(iter(d["extra"]))
    turned = hit.one("turret_turn", 2).seq
    assert hit.one("spot", 2, "panzer_gunner").seq > turned


def test_gunner_places_his_marker_on_the_team(hit):
    """Example: "The Gunner still places a Target Marker ... because he has LOS to Private Butterman"."""
    d = hit.one("target_marker", 2, "panzer_gunner").data
    assert (d["hex"], d["priority"], d["on"]) == (str(TEAM_HEX), 2, "light_at")
    assert hit.at[3]["markers"]["gunner"] == TEAM_HEX


def test_loader_does_nothing_as_the_gun_is_loaded(hit):
    """Example: "As the Main gun is loaded, the Loader does nothing" (31.11.2); he places no marker."""
    assert "loaded at the start of Impulse 2" in hit.one("load", 2, "panzer_loader").text
    assert hit.at[3]["loaded"] is not None and hit.at[3]["markers"]["loader"] is None


def test_co_driver_does_nothing(hit):
    """Example: "He has no LOS to any Friendly Characters so will also do nothing" (bow MG, front arc)."""
    assert hit.one("no_fire", 2, "panzer_co_driver").data["reason"].startswith("no target")
    assert hit.events("spot", 2, "panzer_co_driver") == []
    assert hit.at[3]["markers"]["co_driver"] is None


def test_douglas_loads_the_bazooka_with_a_1(hit):
    """Example, 32.1: "the Player makes a TQC to see if Pvt Douglas can load the Bazooka. He rolls a 1"."""
    d = hit.one("light_at_load", 2, "douglas").data
    assert (d["operator"], d["loaded"], d["rockets"]) == ("buttermann", True, 2)
    check = hit.one("check", 2, "douglas").data
    assert (check["roll"], check["target"], check["result"]) == (1, 5, "passed")
    assert hit.at[3]["bazooka"]["loaded"]


def test_buttermann_cannot_fire_on_impulse_2(hit):
    """Example, 32.1: "As the Bazooka was not loaded at the start of the Impulse he may not roll to fire"."""
    d = hit.one("light_at_fire", 2, "buttermann").data
    assert d["fired"] is False and "not loaded at the start" in d["reason"]
    assert hit.events("check", 2, "buttermann") == []


# ---------------------------------------------------------------------------
# Impulse 3


def test_gunner_fire_tqc_7_fails_on_8(hit):
    """Example, Impulse 3 (31.11.2): "His TQ is 5 plus 2 for the Commander = 7. The player rolls an 8"."""
    (check,) = [e.data for e in hit.events("check", 3, "panzer_gunner") if e.data["check"] == "tqc"]
    assert (check["roll"], check["target"], check["modifier"], check["result"]) == (8, 7, 2, "failed")
    assert hit.one("main_gun_fire", 3, "panzer_gunner").data["fired"] is False
    assert hit.at[4]["loaded"] is not None


def test_douglas_does_nothing_on_impulse_3(hit):
    """Example, Impulse 3: "Private Douglas will do nothing (the Bazooka is already loaded)"."""
    d = hit.one("light_at_load", 3, "douglas").data
    assert d["loaded"] is False
    assert hit.events("check", 3, "douglas") == []


def test_buttermann_fires_tqc_2_then_hits_at_7_with_a_4(hit):
    """Example, 32.1: TQC 2 passes; to hit TQ 5 +2 side +1 Emergency Halt -1 range (5 hexes) = 7; a 4 hits."""
    assert hit.one("check", 3, "buttermann").data["roll"] == 2
    d = hit.one("light_at_fire", 3, "buttermann").data
    assert [t[1] for t in d["terms"]] == [5, 2, 1, -1]
    assert (d["range"], d["modified_tq"], d["roll"], d["hit"], d["aspect"]) == (5, 7, 4, True, "side")


def test_hit_location_43_lower_hull_glancing_penetrates(hit):
    """Example, 31.10.4-5: %D 43 → Lower Hull, glancing; armor 5; 7+1d6 with a 1 = 8 penetrates."""
    h = hit.one("light_at_fire", 3, "buttermann").data["hit_report"]
    assert (h["percent"], h["row"]["location"], h["glancing"], h["armor_zone"], h["armor"]) == (
        43,
        "lower_hull",
        True,
        "lower_hull_side",
        5,
    )
    assert h["penetration"] == {"dice": "7+1d6", "faces": [1], "total": 8} and h["penetrated"]


def test_damage_4_kills_driver_and_co_driver(hit):
    """Example, 31.10.8: d10 4 on the lower hull column: Driver and Co-driver KIA; [ALL] take an MC."""
    h = hit.one("light_at_fire", 3, "buttermann").data["hit_report"]
    (dmg,) = h["damage"]
    assert (dmg["column"], dmg["d10"], dmg["kia"], dmg["mc"]) == (
        "lower_hull",
        4,
        ["driver", "co_driver"],
        ["all"],
    )
    status = hit.at[4]["status"]
    assert status["panzer_driver"] is Status.DEAD and status["panzer_co_driver"] is Status.DEAD
    assert hit.game.state.vehicles["panzer"].seats["driver"].kia


def test_crew_morale_checks(hit):
    """Example, 31.10.9: Commander 8 fails (Duck Back, Cautious); Gunner 6 passes (5+2); Loader 9 Panic."""
    mcs = {m["character"]: m for m in hit.one("light_at_fire", 3).data["hit_report"]["mcs"]}
    assert (mcs["panzer_commander"]["roll"], mcs["panzer_commander"]["target"]) == (8, 5)
    gunner = mcs["panzer_gunner"]
    assert (gunner["roll"], gunner["target"], gunner["ldr"], gunner["passed"]) == (6, 7, 2, True)
    assert mcs["panzer_loader"]["roll"] == 9 and not mcs["panzer_loader"]["passed"]
    at4 = hit.at[4]
    assert (at4["orders"]["panzer_commander"], at4["morale"]["panzer_commander"]) == ("duck_back", "cautious")
    assert (at4["orders"]["panzer_gunner"], at4["morale"]["panzer_gunner"]) == ("fire_main_gun", "normal")
    assert (at4["orders"]["panzer_loader"], at4["morale"]["panzer_loader"]) == ("panic", "shaken")


def test_bazooka_unloaded_after_the_shot(hit):
    """Example, 32.1: "Finally the Bazooka Marker is flipped to it's 'Unloaded' side"."""
    assert hit.at[3]["bazooka"]["loaded"] and not hit.at[4]["bazooka"]["loaded"]


# ---------------------------------------------------------------------------
# Impulse 4: the Gunner's HE shot (31.9.4 d ii)


def test_gunner_fires_he_automatically_at_tq_5(hit):
    """Example, Impulse 4: the Gunner fires automatically; TQ 5 + 2 Leader - 2 Emergency Stop = 5."""
    d = hit.one("main_gun_fire", 4, "panzer_gunner").data
    assert (d["ammo"], d["target"], d["automatic"], d["modified_tq"]) == ("he", f"hex:{TEAM_HEX}", True, 5)
    assert sorted(t[1] for t in d["terms"]) == [-2, 2, 5]


def test_he_direct_hit_blast_dice(hit):
    """Example, 0-5: the first target rolls 4 dice at Blast 3 + 0 (Fire Light AT), the other 3 at 3 - 1."""
    he = hit.one("main_gun_fire", 4).data["he"]
    assert (he["roll"], he["hit"], he["blast"], he["frag"]) == (5, True, 3, 4)
    got = [(t["character"], t["dice"], t["cell"], t["target"], t["faces"], t["hits"]) for t in he["targets"]]
    assert got == [
        ("buttermann", 4, 0, 3, BUTTERMANN_DICE, 1),
        ("douglas", 3, -1, 2, DOUGLAS_DICE, 1),
    ]
    assert [e.actor for e in hit.events("wound_draw", 4)] == ["buttermann", "douglas"]


def test_he_direct_hit_morale_checks_for_the_hex(hit):
    """Example, 31.9.4 d ii: everyone in or adjacent to the hex takes an MC after a direct hit."""
    he = hit.one("main_gun_fire", 4).data["he"]
    assert [m["character"] for m in he["mcs"]] == ["buttermann", "douglas"]
    assert [(m["roll"], m["result"]) for m in he["mcs"]] == [(5, "passed"), (6, "failed")]
    assert hit.one("duck_back", 4, "douglas").data  # his failed blast MC: Duck Back
    assert hit.events("light_at_load", 4, "douglas") == []


@pytest.mark.parametrize("face", [6, 8])
def test_he_lands_in_the_hex_hits_nobody_but_everyone_mcs(face):
    """Example: "A roll of 6-8 would mean that the HE round landed in the hex but not close enough"."""
    p = play(lands_tail(face))
    he = p.one("main_gun_fire", 4).data["he"]
    assert (he["roll"], he["hit"], he["targets"]) == (face, False, [])
    assert [m["character"] for m in he["mcs"]] == ["buttermann", "douglas"]
    assert p.events("wound_draw", 4) == []


def test_he_9_scatters_to_an_adjacent_hex_and_the_team_still_mcs():
    """Example: "A roll of 9 would result in the HE round landing in an adjacent hex"; the team still MCs."""
    p = play(scatter_tail())
    he = p.one("main_gun_fire", 4).data["he"]
    landing = Hex.parse(he["landed"])
    assert (he["roll"], he["scatter"], he["targets"]) == (9, SCATTER_DIRECTION, [])
    assert landing == p.game.board.neighbour_hex(TEAM_HEX, SCATTER_DIRECTION)
    assert not p.game.state.at(landing)
    assert [m["character"] for m in he["mcs"]] == ["buttermann", "douglas"]
