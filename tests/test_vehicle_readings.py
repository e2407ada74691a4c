"""House options for the vehicle rules that read two ways (README options table).

C2 31.7.2 and 31.11.3 (the Half-Track's VOM column and when it reads Target), 31.7.3 and 31.8
(the tank Gunner without a hatch: his VOM column and the closed-hatch -2 to spot). Each default
is the engine's earlier behaviour; the other value is the other reading.
"""

from __future__ import annotations

import functools
from pathlib import Path

import attrs
import pytest
from conftest import DATA_DIR, house_data, make_game, scenario_yaml

from solo.core.dice import Dice, ScriptedSource
from solo.core.hexes import Hex
from solo.core.options import Options
from solo.data.house import HouseData
from solo.data.maps import load_map
from solo.data.scenario import load_scenario
from solo.enemy import target_markers, vom_orders
from solo.engine.game import Game
from solo.rules.state import Phase
from solo.rules.vehicles import crew

DE_CREW = {
    "commander": "de_cmd_brandt",
    "driver": "de_drv_vogel",
    "gunner": "de_gun_adler",  # TQ 5
    "loader": "de_ldr_baumann",
    "co_driver": "de_cdr_hahn",
}


@functools.cache
def vdata() -> HouseData:
    base = house_data()
    m = load_map(DATA_DIR / "vehicle_open.yaml", base.terrain)
    return attrs.evolve(base, maps={**base.maps, m.id: m})


def man(cid: str, hex_: str, **kw) -> dict:
    return {"id": cid, "name": cid, "tq": 5, "weapons": [{"weapon": "m1_garand", "ws": 5}], "hex": hex_, **kw}


def open_game(tmp_path: Path, vehicle: dict, friendly: list[dict], enemy: list[dict] | None = None) -> Game:
    """A game on the all-open vehicle map in the Action Phase, Impulse 1."""
    sc: dict = {"id": "t", "name": "Test", "map": "vehicle_open", "turns": 3, "hand": 1, "wind": 1}
    sc["friendly"] = [{"id": "able", "name": "Able", "characters": friendly}]
    sc["enemy"] = [{"id": "red", "name": "Red", "alert": True, "characters": enemy or [man("e1", "01.01")]}]
    sc["vehicles"] = [vehicle]
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    game = Game(load_scenario(p, vdata()), vdata(), dice=Dice(1))
    game.state.flow.phase = Phase.ACTION
    game.state.flow.impulse = 1
    return game


def set_options(game: Game, **values) -> None:
    game.options = attrs.evolve(game.options, **values)


def crew_event(game: Game, cid: str):
    got = [e for e in game.events if e.kind == "crew_order" and e.actor == cid]
    assert len(got) == 1, got
    return got[0]


# ---------------------------------------------------------------------------
# The option values


@pytest.mark.parametrize(
    ("name", "default", "other"),
    [
        ("half_track_vom", "own", "afv_open"),
        ("half_track_target", "sees", "never"),
        ("hatchless_gunner_vom", "bu", "open"),
    ],
)
def test_reading_options_take_only_their_two_readings(name, default, other):
    """Each text option takes its two readings; the default is the earlier behaviour."""
    assert getattr(Options(), name) == default
    assert getattr(Options.from_dict({name: other}), name) == other
    with pytest.raises(ValueError, match=f"{name} takes one of {default}, {other}"):
        Options.from_dict({name: "both"})


def test_hatchless_gunner_spot_is_a_switch():
    """hatchless_gunner_spot is true (the -2 applies, default) or false."""
    assert Options().hatchless_gunner_spot is True
    with pytest.raises(ValueError, match="takes bool"):
        Options.from_dict({"hatchless_gunner_spot": "no"})


# ---------------------------------------------------------------------------
# Half-Tracks: C2 31.7.2, 31.11.3


def half_track_game(tmp_path: Path) -> Game:
    """An Enemy half-track in 10.10 facing 1 driven by red_1; Spotted able_1 ahead in 10.05."""
    ht = {
        "id": "ht",
        "type": "m3a1_half_track",
        "side": "enemy",
        "name": "SdKfz",
        "hex": "10.10",
        "facing": 1,
        "crew": {"driver": "red_1"},
    }
    game = open_game(tmp_path, ht, [man("able_1", "10.05")], [man("red_1", "10.10")])
    game.char("able_1").revealed = True
    game.dice.source = ScriptedSource([], cards={"enemy": ["e25"]}, fallback=1)
    return game


@pytest.mark.parametrize(
    ("vom", "target", "column"),
    [
        ("own", "sees", "half_track_target"),
        ("afv_open", "sees", "target_open"),
        ("own", "never", "half_track_no_target"),
        ("afv_open", "never", "no_target_open"),
    ],
)
def test_half_track_driver_column_by_the_options(tmp_path, vom, target, column):
    """C2 31.11.3 "Half-Tracks ... always use the Open columns" (afv_open) or the house columns;
    31.7.2 no markers: Target when he sees a Spotted Friendly [house] or never."""
    game = half_track_game(tmp_path)
    set_options(game, half_track_vom=vom, half_track_target=target)
    vom_orders.enemy_vehicle_orders(game)
    d = crew_event(game, "red_1").data
    assert d["column"] == column
    assert d["target"] is (target == "sees")


# ---------------------------------------------------------------------------
# The tank Gunner without a hatch: C2 31.8, 31.11.3, 31.7.3


@pytest.mark.parametrize(("value", "column"), [("bu", "no_target_bu"), ("open", "no_target_open")])
def test_hatchless_gunner_vom_column(tmp_path, value, column):
    """C2 31.8: the Panzer Gunner has no hatch; he reads BU (default) or OPEN (the option)."""
    game = make_game(tmp_path, "example_of_play", cards={"enemy": ["e33", "e25", "e01"]})
    set_options(game, hatchless_gunner_vom=value)
    vom_orders.enemy_vehicle_orders(game)
    assert crew_event(game, "panzer_gunner").data["column"] == column


def test_hatchless_gunner_vom_leaves_a_closed_hatch_on_bu(tmp_path):
    """hatchless_gunner_vom=open changes only the hatchless Gunner: the Driver's closed hatch stays BU."""
    game = make_game(tmp_path, "example_of_play", cards={"enemy": ["e33", "e25", "e01"]})
    set_options(game, hatchless_gunner_vom="open")
    vom_orders.enemy_vehicle_orders(game)
    assert crew_event(game, "panzer_driver").data["column"] == "no_target_bu"


def test_vom_column_follows_hatches_and_options_turn_by_turn(tmp_path):
    """C2 31.11.3: each turn a crewman reads the column of his hatch and the options as they are
    then (the column readings are kept a game: a hatch opened or options changed read anew)."""
    from solo.rules.vehicles.state import Hatch

    game = make_game(tmp_path, "example_of_play")
    v = game.state.vehicles["panzer"]
    crew_ids = v.crew_ids()

    def columns() -> dict[str, str]:
        for cid in crew_ids:
            ch = game.state.characters[cid]
            ch.order = None
            ch.acted.clear()
        v.acted.clear()
        game.state.teams["panzer"].first_card = None
        for card in list(game.state.cards.enemy_this_turn.values()):
            game.enemy_deck.discard(card)
        game.state.cards.enemy_this_turn.clear()
        before = len(game.events)
        vom_orders.enemy_vehicle_orders(game)
        got = {e.actor: e.data["column"] for e in game.events[before:] if e.kind == "crew_order"}
        return {cid: got.get(cid) for cid in ("panzer_driver", "panzer_gunner")}

    assert columns() == {"panzer_driver": "no_target_bu", "panzer_gunner": "no_target_bu"}
    v.seats["driver"].hatch = Hatch.OPEN
    assert columns() == {"panzer_driver": "no_target_open", "panzer_gunner": "no_target_bu"}
    set_options(game, hatchless_gunner_vom="open")
    assert columns() == {"panzer_driver": "no_target_open", "panzer_gunner": "no_target_open"}
    v.seats["driver"].hatch = Hatch.JAMMED_CLOSED
    assert columns() == {"panzer_driver": "no_target_bu", "panzer_gunner": "no_target_open"}


def spot_game(tmp_path: Path) -> Game:
    """A Panzer in 17.10 facing 1; hidden able_1 4 hexes ahead with Aimed Fire (spot threshold
    TQ 5 + range 4 +1 = 6 before the closed hatch)."""
    pz = {
        "id": "pz",
        "type": "panzer_ivh",
        "side": "enemy",
        "name": "Panzer",
        "hex": "17.10",
        "facing": 1,
        "loaded": "he",
        "hatches": {"commander": "open"},
        "crew": dict(DE_CREW),
    }
    game = open_game(tmp_path, pz, [man("able_1", "17.06"), man("able_2", "17.15")])
    game.set_order(game.char("able_1"), "aimed_fire")
    game.set_order(game.char("pz_gunner"), "fire_main_gun")
    return game


def gunner_spots(game: Game, roll: int) -> dict:
    game.dice.source = ScriptedSource([roll], cards={}, fallback=9)
    gen = crew.activate(game, game.char("pz_gunner"))
    try:
        d = next(gen)
        while True:
            d = gen.send(d.keys[0])
    except StopIteration:
        pass
    return [e for e in game.events if e.kind == "spot"][-1].data


@pytest.mark.parametrize(("roll", "seen"), [(4, True), (5, False)])
def test_hatchless_gunner_spots_at_minus_2_by_default(tmp_path, roll, seen):
    """C2 31.7.3: the Gunner (no hatch, inside the armor) spots at -2: 4 passes, 5 fails."""
    game = spot_game(tmp_path)
    d = gunner_spots(game, roll)
    assert d["extra"] == {"closed hatch": -2} and d["threshold"] == 4
    assert d["success"] is seen and game.char("able_1").revealed is seen


@pytest.mark.parametrize(("roll", "seen"), [(6, True), (7, False)])
def test_hatchless_gunner_spot_false_drops_the_minus_2(tmp_path, roll, seen):
    """Option hatchless_gunner_spot=false (31.8: only a Closed Hatch): 6 passes, 7 fails."""
    game = spot_game(tmp_path)
    set_options(game, hatchless_gunner_spot=False)
    d = gunner_spots(game, roll)
    assert "extra" not in d and d["threshold"] == 6
    assert d["success"] is seen and game.char("able_1").revealed is seen


def test_hatchless_gunner_spot_false_keeps_a_closed_hatch_penalty(tmp_path):
    """The option concerns the hatchless Gunner only: the Co-driver's closed hatch still gives -2."""
    game = spot_game(tmp_path)
    set_options(game, hatchless_gunner_spot=False)
    game.set_order(game.char("pz_co_driver"), "no_order")
    game.dice.source = ScriptedSource([9], cards={}, fallback=9)
    gen = crew.activate(game, game.char("pz_co_driver"))
    try:
        d = next(gen)
        while True:
            d = gen.send(d.keys[0])
    except StopIteration:
        pass
    assert [e for e in game.events if e.kind == "spot"][-1].data["extra"] == {"closed hatch": -2}


@pytest.mark.parametrize(("value", "tq"), [(True, 3), (False, 5)])
def test_hatchless_gunner_marker_tqc(tmp_path, value, tq):
    """C2 31.7.4: the marker TQC "is also modified by Open/Closed Hatches": the Gunner's TQ 5 is 3
    with the -2 (default) and 5 without it (hatchless_gunner_spot=false)."""
    game = spot_game(tmp_path)
    set_options(game, hatchless_gunner_spot=value)
    vehicle = game.state.vehicles["pz"]
    got, parts = target_markers._marker_tqc_target(
        game, vehicle, "gunner", game.char("pz_gunner"), Hex.parse("17.06")
    )
    assert got == tq and ("closed hatch -2" in parts) is value


@pytest.mark.parametrize(("marker", "tq"), [("17.06", 4), ("17.05", 3)])
def test_marker_tqc_reads_closed_hatch_marker_minus_1(tmp_path, marker, tq):
    """C2 31.7.4 "also modified by ... Target Markers ... as above": with closed_hatch_marker=minus_1
    (31.8) the Co-driver's marker TQC is TQ 5 - 1 with the Commander's marker on the target hex, and
    TQ 5 - 2 with it only adjacent."""
    game = spot_game(tmp_path)
    set_options(game, closed_hatch_marker="minus_1")
    vehicle = game.state.vehicles["pz"]
    vehicle.seats["commander"].marker = Hex.parse(marker)
    game.set_order(game.char("pz_co_driver"), "no_order")
    got, _parts = target_markers._marker_tqc_target(
        game, vehicle, "co_driver", game.char("pz_co_driver"), Hex.parse("17.06")
    )
    assert got == tq


def test_marker_tqc_default_negates_with_an_adjacent_marker(tmp_path):
    """The default (negated, 31.7.3): the Commander's marker next to the target negates the -2."""
    game = spot_game(tmp_path)
    vehicle = game.state.vehicles["pz"]
    vehicle.seats["commander"].marker = Hex.parse("17.05")
    game.set_order(game.char("pz_co_driver"), "no_order")
    got, _parts = target_markers._marker_tqc_target(
        game, vehicle, "co_driver", game.char("pz_co_driver"), Hex.parse("17.06")
    )
    assert got == 5
