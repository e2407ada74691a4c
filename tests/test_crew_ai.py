"""Enemy vehicle crews: VOM orders and their overrides, Target Markers, Emergency Stop, turret, smoke.

C2 31.1, 31.2, 31.6, 31.7.3-31.7.4, 31.9.2, 31.10.8-31.10.9, 31.11.1-31.11.3 and the example
of play at the end of rule 32. Maps: the town (example of play) and tests/data/vehicle_open.yaml
(all open). On vehicle_open a vehicle in 10.10 facing 1 has 10.05-10.09, 11.07, 11.08 and
09.07 straight ahead (hull wedge 0), 12.08, 13.09 and 15.10 on its right side (direction 2)
and 10.15 behind it.
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
from solo.data import vom as vom_data
from solo.data.house import HouseData
from solo.data.maps import load_map
from solo.data.scenario import load_scenario
from solo.data.tables import MoraleState
from solo.data.vehicle_types import Speed, VehicleTypes
from solo.enemy import bail_out, emergency_stop, target_markers, turret_and_smoke, vom, vom_orders
from solo.engine.game import Game
from solo.rules.state import Character, Status, Wound
from solo.rules.vehicles import crew_sight
from solo.rules.vehicles import emergency_stop as stop_rules
from solo.rules.vehicles.state import Hatch

# ---------------------------------------------------------------------------
# Helpers

EXAMPLE_CARDS = ["e33", "e25", "e01", "e17", "e36"]
"""Commander 73, Driver 47, Gunner 43, Loader 45, Co-driver 49 (all of the last three <= 54)."""
PANZER_CREW = {
    "commander": "de_cmd_brandt",
    "driver": "de_drv_vogel",
    "gunner": "de_gun_adler",
    "loader": "de_ldr_baumann",
    "co_driver": "de_cdr_hahn",
}


@functools.cache
def vdata() -> HouseData:
    """The house data plus the all-open vehicle test map."""
    base = house_data()
    m = load_map(DATA_DIR / "vehicle_open.yaml", base.terrain)
    return attrs.evolve(base, maps={**base.maps, m.id: m})


def man(cid: str, hex_: str, *, weapon: str = "m1_garand", tq: int = 5, **kw) -> dict:
    """A character spec."""
    return {
        "id": cid,
        "name": kw.pop("name", cid),
        "tq": tq,
        "weapons": [{"weapon": weapon, "ws": 5}],
        "hex": hex_,
        **kw,
    }


def panzer(hex_: str = "10.10", facing: int = 1, **kw) -> dict:
    """An Enemy Panzer IVH with the example's crew, Commander's hatch open, HE loaded."""
    return {
        "id": "panzer",
        "type": "panzer_ivh",
        "side": "enemy",
        "name": "Panzer IVH",
        "hex": hex_,
        "facing": facing,
        "loaded": "he",
        "hatches": kw.pop("hatches", {"commander": "open"}),
        "crew": PANZER_CREW,
        **kw,
    }


def sherman(hex_: str, facing: int = 4) -> dict:
    """A Friendly M4A3 Sherman (crew drawn at random)."""
    return {
        "id": "sherman",
        "type": "m4a3_sherman",
        "side": "friendly",
        "name": "Sherman",
        "hex": hex_,
        "facing": facing,
    }


def half_track(hex_: str, facing: int = 4) -> dict:
    """A Friendly M3A1 half-track driven by able_9 (who must be in the roster)."""
    return {
        "id": "halftrack",
        "type": "m3a1_half_track",
        "side": "friendly",
        "name": "Half-track",
        "hex": hex_,
        "facing": facing,
        "crew": {"driver": "able_9"},
    }


def vgame(
    tmp_path: Path,
    *,
    friendly: list[dict] | None = None,
    enemy: list[dict] | None = None,
    vehicles: list[dict] | None = None,
    options: Options | None = None,
    data: HouseData | None = None,
    **extra,
) -> Game:
    """A game on vehicle_open at turn 1 (set-up done with seed 1)."""
    sc: dict = {
        "id": "t",
        "name": "Test",
        "map": "vehicle_open",
        "turns": 3,
        "hand": 1,
        "wind": 1,
        "friendly": [{"id": "able", "name": "Able", "characters": friendly or [man("able_1", "30.18")]}],
        "vehicles": vehicles if vehicles is not None else [panzer()],
        **extra,
    }
    if enemy:
        sc["enemy"] = [{"id": "red", "name": "Red", "alert": True, "characters": enemy}]
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    d = data or vdata()
    return Game(load_scenario(p, d), d, dice=Dice(1), options=options)


def force(game: Game, rolls: list[int] = (), cards: list[str] = ()) -> ScriptedSource:
    """Force the next d10 rolls and Enemy cards (then seed 1)."""
    src = ScriptedSource(list(rolls), cards={"enemy": list(cards)}, fallback=1)
    game.dice.source = src
    return src


def crew(game: Game, pos: str, vid: str = "panzer") -> Character:
    return game.char(game.state.vehicles[vid].seats[pos].occupant)


def events(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


def order_of(game: Game, pos: str, vid: str = "panzer") -> str | None:
    o = crew(game, pos, vid).order
    return o.order if o is not None else None


def crew_event(game: Game, cid: str):
    """The one crew_order event of ``cid``."""
    got = [e for e in events(game, "crew_order") if e.actor == cid]
    assert len(got) == 1, got
    return got[0]


def reveal(game: Game, *cids: str) -> None:
    for c in cids:
        game.char(c).revealed = True


def set_impulse(game: Game, impulse: int) -> None:
    game.state.flow.impulse = impulse


def give(game: Game, cid: str, order: str) -> None:
    game.set_order(game.char(cid), order)


def example(tmp_path: Path, cards: list[str] = EXAMPLE_CARDS) -> Game:
    """The example of play with the Enemy cards forced."""
    return make_game(tmp_path, "example_of_play", cards={"enemy": cards})


# ---------------------------------------------------------------------------
# The example of play (C2 rule 32)


def test_example_orders(tmp_path):
    """C2 example of play: 73 -> Spot, 47 -> Crawl 1, Fire Main Gun, Load HE, Aimed Fire (bow MG)."""
    game = example(tmp_path)
    vom_orders.enemy_vehicle_orders(game)
    got = {p: order_of(game, p) for p in ("commander", "driver", "gunner", "loader", "co_driver")}
    assert got == {
        "commander": "spot",
        "driver": "crawl",
        "gunner": "fire_main_gun",
        "loader": "load_he",
        "co_driver": "aimed_fire",
    }
    assert str(crew(game, "driver").order.directions) == "1"
    assert crew(game, "co_driver").acted[vom_orders.MOUNT_KEY] == "bow_mg"


def test_example_initiative(tmp_path):
    """C2 31.1: the Commander's card (e33, 73) is the vehicle's initiative."""
    game = example(tmp_path)
    vom_orders.enemy_vehicle_orders(game)
    team = game.state.teams["panzer"]
    assert (team.initiative, team.first_card) == (73, "e33")
    assert game.state.cards.enemy_this_turn["panzer_commander"] == "e33"


def test_house_cards_of_the_example():
    """C2 example of play: the house cards e33 and e25 carry 73 and 47 (cards/enemy_orders.yaml)."""
    deck = house_data().enemy_deck
    assert deck.card("e33").initiative == 73
    assert deck.card("e25").initiative == 47
    assert deck.card("e01").initiative == 43


def test_example_commander_event_explains(tmp_path):
    """C2 31.11.3 / DESIGN: one crew_order event per crewman with card, initiative, morale, column, rows."""
    game = example(tmp_path)
    vom_orders.enemy_vehicle_orders(game)
    assert len(events(game, "crew_order")) == 5
    d = crew_event(game, "panzer_commander").data
    assert (d["card"], d["initiative"], d["morale_modifier"], d["modified"]) == ("e33", 73, 0, 73)
    assert (d["column"], d["rows"], d["order"]) == ("no_target_open", "00-84", "spot")


def test_example_driver_event_reads_bu(tmp_path):
    """C2 31.11.3: the Driver (hatch closed, no marker on the board) reads No Target BU."""
    game = example(tmp_path)
    vom_orders.enemy_vehicle_orders(game)
    d = crew_event(game, "panzer_driver").data
    assert (d["column"], d["rows"], d["directions"]) == ("no_target_bu", "38-53", "1")


def test_example_through_the_engine(tmp_path):
    """C2 31.1: run by the engine, Step 3 puts the Panzer on the Initiative Track at 73."""
    game = example(tmp_path)
    for _ in range(30):
        if events(game, "track"):
            break
        game.apply(game.legal()[0])
    track = dict(events(game, "track")[0].data["track"])
    assert track["panzer"] == 73


# ---------------------------------------------------------------------------
# Morale and the VOM column (31.11.3, 31.7.3)


def test_morale_modifies_the_row(tmp_path):
    """C2 31.11.3: the card's number is modified by morale (house: Shaken +10) before reading a row."""
    game = example(tmp_path, ["e33", "e25"])
    crew(game, "driver").morale = MoraleState.SHAKEN
    vom_orders.enemy_vehicle_orders(game)
    d = crew_event(game, "panzer_driver").data
    assert (d["morale_modifier"], d["modified"], d["rows"]) == (10, 57, "54-59")
    assert order_of(game, "driver") == "ahead_slow"


def test_commander_marker_gives_target_column(tmp_path):
    """C2 31.11.3: the Commander's Target Marker on the board sends the Gunner to a Target column."""
    game = example(tmp_path, ["e33", "e25", "e01"])
    game.state.vehicles["panzer"].seats["commander"].marker = Hex.parse("20.08")
    vom_orders.enemy_vehicle_orders(game)
    assert crew_event(game, "panzer_gunner").data["column"] == "target_bu"
    assert crew_event(game, "panzer_commander").data["column"] == "target_open"


def test_driver_uses_any_other_marker(tmp_path):
    """C2 31.7.3: the Driver reads a Target column when another crewman (the Co-driver) has a marker."""
    game = example(tmp_path, ["e33", "e25"])
    game.state.vehicles["panzer"].seats["co_driver"].marker = Hex.parse("20.08")
    vom_orders.enemy_vehicle_orders(game)
    d = crew_event(game, "panzer_driver").data
    assert d["column"] == "target_bu"
    assert order_of(game, "driver") == "emergency_stop"  # target_bu 42-63


def test_gunner_own_marker_not_driver_own(tmp_path):
    """C2 31.7.3: a Gunner with no marker but the Co-driver's on the board stays on No Target."""
    game = example(tmp_path, ["e33", "e25", "e01"])
    game.state.vehicles["panzer"].seats["co_driver"].marker = Hex.parse("20.08")
    vom_orders.enemy_vehicle_orders(game)
    assert crew_event(game, "panzer_gunner").data["column"] == "no_target_bu"


def test_vom_tables_match_vom_order():
    """C2 31.11.3: the module's cached VOM rows are the cells vom_data.vom_order gives, every row."""

    class _G:
        data = house_data()

    tables, mods = vom._vom_tables(_G())
    matrix = house_data().vom
    for (role, column), rows in tables.items():
        for n in range(100):
            assert rows[n].cell == str(vom_data.vom_order(matrix, role, column, n))
    assert mods == {m.value: matrix.morale_modifier(m) for m in MoraleState}


def test_half_track_target_column_by_sight(tmp_path):
    """[house] C2 31.7.2, 31.11.3: a Half-Track Driver who sees a Spotted Friendly reads Target."""
    ht = {
        "id": "ht",
        "type": "m3a1_half_track",
        "side": "enemy",
        "name": "SdKfz",
        "hex": "10.10",
        "facing": 1,
        "crew": {"driver": "red_1"},
    }
    game = vgame(tmp_path, friendly=[man("able_1", "10.05")], enemy=[man("red_1", "10.10")], vehicles=[ht])
    reveal(game, "able_1")
    force(game, cards=["e25"])
    vom_orders.enemy_vehicle_orders(game)
    assert crew_event(game, "red_1").data["column"] == "half_track_target"


def test_assign_on_activation_ignores_non_crew(tmp_path):
    """C2 23.5: assign_on_activation does nothing for a Friendly or an ordered man."""
    game = vgame(tmp_path, options=Options(optional_enemy_activation=True))
    assert vom_orders.assign_on_activation(game, game.char("able_1")) is None
    give(game, crew(game, "driver").id, "crawl")
    assert vom_orders.assign_on_activation(game, crew(game, "driver")) is None
    assert order_of(game, "driver") == "crawl"


# ---------------------------------------------------------------------------
# Overrides (31.11.2-31.11.3, 31.10.9)


def test_commander_bail_out_reaches_whole_crew(tmp_path):
    """C2 31.11.3: the Commander's Bail Out (open hatch, 99) -> the whole crew bails out, without cards."""
    game = example(tmp_path, ["e13"])
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "commander") == "bail_out"
    assert crew_event(game, "panzer_driver").data["card"] is None
    assert crew_event(game, "panzer_driver").data["overrides"][-1]["to"] == "button_open_up"


def test_closed_hatch_bail_out_opens_hatch(tmp_path):
    """C2 31.11.3: a Bail Out with a closed hatch becomes Button/Open Up (Open Hatch)."""
    game = example(tmp_path, ["e13"])
    vom_orders.enemy_vehicle_orders(game)
    assert [order_of(game, p) for p in ("driver", "loader", "co_driver")] == ["button_open_up"] * 3


def test_gunner_bail_out_panics_without_empty_position(tmp_path):
    """C2 31.11.2: a Gunner (no hatch) with Bail Out and no empty position -> Panic."""
    game = example(tmp_path, ["e13"])
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "gunner") == "panic"


def test_gunner_bail_out_relocates_to_empty_hatch(tmp_path):
    """C2 31.11.2: a Gunner with Bail Out relocates to an empty position with a hatch (the Loader's)."""
    game = example(tmp_path, ["e13"])
    crew(game, "loader").status = Status.DEAD
    vom_orders.enemy_vehicle_orders(game)
    g = crew(game, "gunner")
    assert (g.order.order, g.order.target) == ("relocate", "loader")


def test_rout_commander_bails_out_whole_crew(tmp_path):
    """C2 31.10.9: a Commander in Rout -> Bail Out for all; his card still sets the initiative (31.1)."""
    game = example(tmp_path, ["e33"])
    crew(game, "commander").morale = MoraleState.ROUT
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "commander") == "bail_out"
    assert order_of(game, "co_driver") == "button_open_up"
    assert game.state.teams["panzer"].initiative == 73


def test_rout_crewman_bails_out(tmp_path):
    """C2 31.11.2: a crewman in Rout gets Bail Out (open hatch, stationary AFV: it stands)."""
    game = example(tmp_path, ["e33", "e05"])  # Driver 61: Emergency Stop
    game.state.vehicles["panzer"].seats["co_driver"].hatch = Hatch.OPEN
    crew(game, "co_driver").morale = MoraleState.ROUT
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "driver") == "emergency_stop"
    assert order_of(game, "co_driver") == "bail_out"
    assert crew_event(game, "panzer_co_driver").data["card"] is None


def test_no_bail_out_of_moving_afv(tmp_path):
    """C2 31.11.2: AFV crew may not bail out of a moving AFV: Bail Out -> Panic."""
    game = example(tmp_path, ["e33", "e25", "e01", "e13"])  # Loader 99: Bail Out; Driver Crawl
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "loader") == "panic"
    assert crew_event(game, "panzer_loader").data["overrides"][0]["rule"] == "31.11.2"


def test_jammed_hatch_button_up_becomes_spot(tmp_path):
    """C2 31.11.3: Button/Open Up with a jammed hatch -> Spot."""
    game = example(tmp_path, ["e33", "e40"])  # Driver 91: Button/Open Up
    game.state.vehicles["panzer"].seats["driver"].hatch = Hatch.JAMMED_CLOSED
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "driver") == "spot"


def test_jammed_hatch_bail_out_relocates(tmp_path):
    """C2 31.11.2: Bail Out with a jammed hatch -> Relocate to an empty position whose hatch works."""
    game = example(tmp_path, ["e33", "e13"])  # Driver 99: Bail Out
    v = game.state.vehicles["panzer"]
    v.seats["driver"].hatch = Hatch.JAMMED_CLOSED
    crew(game, "co_driver").status = Status.DEAD
    vom_orders.enemy_vehicle_orders(game)
    d = crew(game, "driver")
    assert (d.order.order, d.order.target) == ("relocate", "co_driver")


def test_jammed_hatch_bail_out_panics_without_position(tmp_path):
    """C2 31.11.2: Bail Out with a jammed hatch and no empty position with a working hatch -> Panic."""
    game = example(tmp_path, ["e33", "e13"])
    v = game.state.vehicles["panzer"]
    v.seats["driver"].hatch = Hatch.JAMMED_CLOSED
    crew(game, "co_driver").status = Status.DEAD
    v.seats["co_driver"].hatch = Hatch.JAMMED_OPEN
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "driver") == "panic"


def test_forced_button_up_from_periscope_hit(tmp_path):
    """C2 31.10.8: a periscope hit forces Button/Open Up next turn; the flag is used up."""
    game = example(tmp_path)
    v = game.state.vehicles["panzer"]
    v.damage.append("force_button_up:co_driver")
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "co_driver") == "button_open_up"
    assert crew_event(game, "panzer_co_driver").data["card"] is None
    assert "force_button_up:co_driver" not in v.damage


def test_forced_crew_bail_out_from_track_hit(tmp_path):
    """C2 31.10.8: a failed Track TQC forces Bail Out for all crew next turn (then the hatch rules)."""
    game = example(tmp_path, ["e33"])
    game.state.vehicles["panzer"].damage.append("force_bail_out:crew")
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "commander") == "bail_out"
    assert order_of(game, "driver") == "button_open_up"


def test_road_orders_keep_speed(tmp_path):
    """C2 31.11.1: under Road Orders a speed order becomes its Road Move variant (same order id, noted)."""
    game = example(tmp_path, ["e33", "e25"])
    game.state.vehicles["panzer"].road_orders = True
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "driver") == "crawl"
    d = crew_event(game, "panzer_driver")
    assert d.data["road"] is True
    assert "31.11.1" in d.rule


def test_immobilized_speed_becomes_emergency_stop(tmp_path):
    """C2 31.2 (3): the Driver of an immobilized vehicle gets Emergency Stop instead of a speed."""
    game = example(tmp_path, ["e33", "e25"])
    game.state.vehicles["panzer"].damage.append("immobilized")
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "driver") == "emergency_stop"


def test_top_speed_caps_driver(tmp_path):
    """[house] C2 31.11.2: a speed above the type's Top Speed is reduced to it (a Panzer without Forward)."""
    base = vdata()
    pz = base.vehicles.get("panzer_ivh")
    slow = attrs.evolve(pz, speeds=(Speed.CRAWL, Speed.AHEAD_SLOW, Speed.REVERSE))
    types = VehicleTypes(tuple(slow if t.id == "panzer_ivh" else t for t in base.vehicles))
    game = vgame(tmp_path, data=attrs.evolve(base, vehicles=types))
    force(game, cards=["e33", "e35"])  # Driver 03: Forward 1
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "driver") == "ahead_slow"
    assert crew_event(game, "panzer_driver").data["overrides"][0]["from"] == "forward"


def truck(hex_: str = "10.10", **kw) -> dict:
    """An Enemy Opel truck: red_1 drives, red_2 is the Co-driver, red_3.. ride as passengers."""
    return {
        "id": "truck",
        "type": "opel_truck",
        "side": "enemy",
        "name": "Opel",
        "hex": hex_,
        "facing": 1,
        "crew": {"driver": "red_1", "co_driver": "red_2"},
        **kw,
    }


def test_mud_turns_fast_into_forward(tmp_path):
    """C2 28.2: in Mud an Enemy Driver's Fast becomes Forward."""
    game = vgame(tmp_path, enemy=[man("red_1", "10.10"), man("red_2", "10.10")], vehicles=[truck()])
    game.state.ground = "mud"
    force(game, cards=["e18"])  # Truck column 07: Fast 1
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "driver", "truck") == "forward"
    assert crew_event(game, "red_1").data["overrides"][0]["rule"] == "C2 28.2"


# ---------------------------------------------------------------------------
# The Loader's ammunition choice (31.11.3)


def loader_game(tmp_path, *, friendly=None, vehicles=None) -> Game:
    return vgame(tmp_path, friendly=friendly, vehicles=vehicles)


def test_loader_ap_on_friendly_afv_in_los(tmp_path):
    """C2 31.11.3 Loader: LOS to a Friendly AFV -> Load AP (over the VOM's Load HE)."""
    game = loader_game(tmp_path, vehicles=[panzer(), sherman("10.05")])
    force(game, cards=["e17"])  # 45: Load HE
    vom_orders.assign_crew_order(game, crew(game, "loader"))
    assert order_of(game, "loader") == "load_ap"


def test_loader_he_on_friendly_men_in_los(tmp_path):
    """C2 31.11.3 Loader: no AFV/half-track in LOS but Spotted Friendly characters -> Load HE."""
    game = loader_game(tmp_path, friendly=[man("able_1", "10.05")])
    reveal(game, "able_1")
    force(game, cards=["e07"])  # 71: Load AP
    vom_orders.assign_crew_order(game, crew(game, "loader"))
    assert order_of(game, "loader") == "load_he"


def test_loader_ap_on_friendly_afv_on_map(tmp_path):
    """C2 31.11.3 Loader: nothing in LOS but a Friendly AFV on the map -> Load AP."""
    game = loader_game(tmp_path, vehicles=[panzer(), sherman("30.05")])
    game.state.max_los = 3
    force(game, cards=["e17"])
    vom_orders.assign_crew_order(game, crew(game, "loader"))
    assert order_of(game, "loader") == "load_ap"


def test_loader_he_otherwise(tmp_path):
    """C2 31.11.3 Loader: nothing in LOS and no Friendly AFV -> Load HE (a Hidden man does not count)."""
    game = loader_game(tmp_path, friendly=[man("able_1", "10.05")])
    force(game, cards=["e07"])
    vom_orders.assign_crew_order(game, crew(game, "loader"))
    assert order_of(game, "loader") == "load_he"


# ---------------------------------------------------------------------------
# Truck Co-driver (31.9.2) and passengers (31.11.3)


def truck_game(tmp_path, *, codriver_weapon: str = "mp40", passengers: int = 0, friendly=None) -> Game:
    enemy = [man("red_1", "10.10", weapon="kar98k"), man("red_2", "10.10", weapon=codriver_weapon)]
    seats = {}
    for i in range(passengers):
        enemy.append(man(f"red_{i + 3}", "10.10", weapon="kar98k"))
        seats[f"passenger_{i + 1}"] = f"red_{i + 3}"
    return vgame(
        tmp_path,
        friendly=friendly or [man("able_1", "10.05")],
        enemy=enemy,
        vehicles=[truck(passengers=seats)],
    )


def test_truck_codriver_aimed_fire_on_passed_tqc(tmp_path):
    """C2 31.9.2: Truck Co-driver, LOS to a Spotted Friendly, TQC 5 vs TQ 5 passes -> Aimed Fire."""
    game = truck_game(tmp_path)
    reveal(game, "able_1")
    force(game, rolls=[5])
    vom_orders.assign_crew_order(game, game.char("red_2"))
    assert game.char("red_2").order.order == "aimed_fire"


def test_truck_codriver_fails_tqc(tmp_path):
    """C2 31.9.2: TQC 6 vs TQ 5 fails -> No Order."""
    game = truck_game(tmp_path)
    reveal(game, "able_1")
    force(game, rolls=[6])
    vom_orders.assign_crew_order(game, game.char("red_2"))
    assert game.char("red_2").order.order == "no_order"
    assert crew_event(game, "red_2").data["checks"][0]["roll"] == 6


def test_truck_codriver_no_spotted_friendly(tmp_path):
    """C2 31.9.2: no Spotted Friendly in LOS -> No Order, no roll."""
    game = truck_game(tmp_path)
    src = force(game, rolls=[0])
    vom_orders.assign_crew_order(game, game.char("red_2"))
    assert game.char("red_2").order.order == "no_order"
    assert src.remaining == (0,)


def test_truck_codriver_needs_pistol_or_smg(tmp_path):
    """C2 31.9.2: a Co-driver with only a rifle gets No Order."""
    game = truck_game(tmp_path, codriver_weapon="kar98k")
    reveal(game, "able_1")
    force(game, rolls=[0])
    vom_orders.assign_crew_order(game, game.char("red_2"))
    assert game.char("red_2").order.order == "no_order"


def test_passengers_ride_without_condition(tmp_path):
    """C2 31.11.3: passengers with no Bail Out condition get No Order (they ride)."""
    game = truck_game(tmp_path, passengers=2)
    bail_out.passenger_orders(game, game.state.vehicles["truck"])
    assert game.char("red_3").order.order == "no_order"


@pytest.mark.parametrize(
    "condition",
    ["on_fire", "immobilized", "destroyed", "driver_killed", "driver_bad_wound", "cautious"],
)
def test_passenger_bail_out_conditions(tmp_path, condition):
    """C2 31.11.3: the five passenger Bail Out conditions (fire, immobile, destroyed, driver, morale)."""
    game = truck_game(tmp_path, passengers=1)
    v = game.state.vehicles["truck"]
    if condition == "on_fire":
        v.on_fire = True
    elif condition == "immobilized":
        v.damage.append("immobilized")
    elif condition == "destroyed":
        v.destroyed = True
    elif condition == "driver_killed":
        game.char("red_1").status = Status.DEAD
    elif condition == "driver_bad_wound":
        game.char("red_1").wounds.append(Wound.BAD)
    else:
        game.char("red_3").morale = MoraleState.CAUTIOUS
    bail_out.passenger_orders(game, v)
    assert game.char("red_3").order.order == "bail_out"


def test_passengers_of_an_abandoned_vehicle_bail_out(tmp_path):
    """[house] 31.11.3 #4: the crew bailed out (31.11.2 abandoned), so the riders get Bail Out in Step 3."""
    game = truck_game(tmp_path, passengers=1)
    v = game.state.vehicles["truck"]
    for pos in ("driver", "co_driver"):
        ch = game.char(v.seats[pos].occupant)
        v.seats[pos].occupant = None
        ch.vehicle, ch.seat, ch.order = None, None, None
        game.set_order(ch, "hide", source="test")
    v.abandoned = True
    vom_orders.enemy_vehicle_orders(game)
    assert game.char("red_3").order.order == "bail_out"
    assert "abandoned" in events(game, "passenger_order")[-1].data["reason"]


def test_passengers_ride_while_the_crew_is_aboard(tmp_path):
    """31.11.3: the same riders, crew aboard and no condition, keep riding (No Order) in Step 3."""
    game = truck_game(tmp_path, passengers=1)
    vom_orders.enemy_vehicle_orders(game)
    assert game.char("red_3").order.order == "no_order"


def test_passenger_bail_out_limit(tmp_path):
    """C2 31.11.2: at most 4 bail out, highest positions first; the fifth Relocates."""
    game = truck_game(tmp_path, passengers=5)
    v = game.state.vehicles["truck"]
    v.on_fire = True
    bail_out.passenger_orders(game, v)
    assert game.char("red_3").order.order == "relocate"  # passenger_1
    assert [game.char(f"red_{i}").order.order for i in (4, 5, 6, 7)] == ["bail_out"] * 4


def test_bailed_out_crew_moves_rout_direction(tmp_path):
    """C2 31.11.2: a bailed-out crewman with no Spotted Friendly in LOS moves in the card's Rout direction."""
    game = example(tmp_path, ["e33"])
    v = game.state.vehicles["panzer"]
    ch = crew(game, "loader")
    v.seats["loader"].occupant = None
    ch.vehicle, ch.seat = None, None
    bail_out.bailed_out_order(game, ch)
    card = house_data().enemy_deck.card("e33")
    assert (ch.order.order, ch.order.directions) == ("sprint", card.rout)


# ---------------------------------------------------------------------------
# C2 23.5: orders on activation


def test_optional_activation_draws_one_initiative_card(tmp_path):
    """C2 31.1 with 23.5: one separate initiative card per vehicle; crew orders wait."""
    game = vgame(tmp_path, options=Options(optional_enemy_activation=True))
    force(game, cards=["e25"])
    vom_orders.enemy_vehicle_orders(game)
    assert game.state.teams["panzer"].initiative == 47
    assert order_of(game, "commander") is None


def test_optional_activation_assigns_on_activation(tmp_path):
    """C2 23.5: assign_on_activation draws the crewman's own card and reads the VOM."""
    game = vgame(tmp_path, options=Options(optional_enemy_activation=True))
    force(game, cards=["e25", "e33"])
    vom_orders.enemy_vehicle_orders(game)
    vom_orders.assign_on_activation(game, crew(game, "commander"))
    assert order_of(game, "commander") == "spot"
    assert game.state.teams["panzer"].first_card == "e25"


# ---------------------------------------------------------------------------
# LOS from a seat (31.7.3)


def test_seat_sees_closed_driver_front_only(tmp_path):
    """C2 31.7.3: a closed-hatch Driver sees the front arc only; the open Commander sees all round."""
    game = vgame(tmp_path)
    v = game.state.vehicles["panzer"]
    assert crew_sight.seat_sees(game, v, "driver", Hex.parse("10.05"))
    assert not crew_sight.seat_sees(game, v, "driver", Hex.parse("15.10"))
    assert crew_sight.seat_sees(game, v, "commander", Hex.parse("10.15"))


def test_seat_sees_open_driver_sides(tmp_path):
    """C2 31.7.3: an open-hatch Driver also sees the sides."""
    game = vgame(tmp_path, vehicles=[panzer(hatches={"commander": "open", "driver": "open"})])
    v = game.state.vehicles["panzer"]
    assert crew_sight.seat_sees(game, v, "driver", Hex.parse("15.10"))
    assert not crew_sight.seat_sees(game, v, "driver", Hex.parse("10.15"))


def test_seat_sees_gunner_turns_with_turret(tmp_path):
    """C2 31.6, 31.7.3: the Gunner's front arc is the turret's."""
    game = vgame(tmp_path)
    v = game.state.vehicles["panzer"]
    assert not crew_sight.seat_sees(game, v, "gunner", Hex.parse("15.10"))
    v.turret = 2
    assert crew_sight.seat_sees(game, v, "gunner", Hex.parse("15.10"))


def test_seat_sees_respects_los_range(tmp_path):
    """C2 28.1: the weather's maximum LOS limits a seat's LOS too."""
    game = vgame(tmp_path)
    game.state.max_los = 3
    assert not crew_sight.seat_sees(game, game.state.vehicles["panzer"], "commander", Hex.parse("10.05"))


# ---------------------------------------------------------------------------
# Target Markers (31.7.3-31.7.4)


def markers(game: Game) -> list:
    return events(game, "target_marker")


def test_priority_1_vehicle_placed_without_roll(tmp_path):
    """C2 31.7.4 priority 1: a Friendly vehicle in LOS, no marker yet: placed with no roll."""
    game = vgame(tmp_path, vehicles=[panzer(), sherman("10.05")])
    src = force(game, rolls=[9])
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    seat = game.state.vehicles["panzer"].seats["commander"]
    assert (seat.marker, seat.marker_priority) == (Hex.parse("10.05"), 1)
    assert src.remaining == (9,)
    assert markers(game)[-1].data["priority"] == 1


def priority_1_move(tmp_path, roll: int, *, spot: bool = False) -> Game:
    """The Commander (open hatch, TQ 5) has a priority-4 marker on a man; a Sherman comes into LOS."""
    game = vgame(tmp_path, friendly=[man("able_1", "13.09")], vehicles=[panzer(), sherman("10.05")])
    reveal(game, "able_1")
    cmd = crew(game, "commander")
    give(game, cmd.id, "spot" if spot else "direct_firing")
    seat = game.state.vehicles["panzer"].seats["commander"]
    seat.marker, seat.marker_priority = Hex.parse("13.09"), 4
    force(game, rolls=[roll])
    target_markers.place_enemy_marker(game, cmd)
    return game


def test_priority_1_move_passes_at_tq(tmp_path):
    """C2 31.7.4: moving a marker to a priority-1 vehicle needs a TQC: 5 vs TQ 5 passes."""
    game = priority_1_move(tmp_path, 5)
    assert game.state.vehicles["panzer"].seats["commander"].marker == Hex.parse("10.05")
    assert markers(game)[-1].data["tqc"]["target"] == 5


def test_priority_1_move_fails_above_tq(tmp_path):
    """C2 31.7.4: 6 vs TQ 5 fails: the marker stays."""
    game = priority_1_move(tmp_path, 6)
    assert game.state.vehicles["panzer"].seats["commander"].marker == Hex.parse("13.09")
    assert markers(game)[-1].data["moved"] is False


def test_priority_1_move_natural_9_fails(tmp_path):
    """C2 23.1: a natural 9 fails even with a Spot order (TQ 6)."""
    game = priority_1_move(tmp_path, 9, spot=True)
    assert game.state.vehicles["panzer"].seats["commander"].marker == Hex.parse("13.09")


def test_spot_order_adds_one(tmp_path):
    """C2 31.7.3: a Spot order gives +1: 6 vs TQ 5 + 1 passes."""
    game = priority_1_move(tmp_path, 6, spot=True)
    assert game.state.vehicles["panzer"].seats["commander"].marker == Hex.parse("10.05")
    assert "Spot order +1" in markers(game)[-1].data["tqc"]["parts"]


def gunner_move(tmp_path, roll: int, *, commander_marker: str | None = None) -> Game:
    """The Gunner (closed: no hatch, TQ 5) has a priority-4 marker; a bazooka man in his front arc."""
    game = vgame(
        tmp_path,
        friendly=[man("able_1", "11.07"), man("able_2", "10.05", weapon="bazooka")],
    )
    reveal(game, "able_1", "able_2")
    v = game.state.vehicles["panzer"]
    v.seats["gunner"].marker, v.seats["gunner"].marker_priority = Hex.parse("11.07"), 4
    if commander_marker:
        v.seats["commander"].marker, v.seats["commander"].marker_priority = Hex.parse(commander_marker), 2
    give(game, crew(game, "gunner").id, "fire_main_gun")
    force(game, rolls=[roll])
    target_markers.place_enemy_marker(game, crew(game, "gunner"))
    return game


def test_closed_hatch_minus_two_passes(tmp_path):
    """C2 31.7.3-31.7.4 priority 2: closed hatch -2: 3 vs TQ 5 - 2 passes."""
    game = gunner_move(tmp_path, 3)
    seat = game.state.vehicles["panzer"].seats["gunner"]
    assert (seat.marker, seat.marker_priority) == (Hex.parse("10.05"), 2)


def test_closed_hatch_minus_two_fails(tmp_path):
    """C2 31.7.3: closed hatch -2: 4 vs TQ 3 fails."""
    game = gunner_move(tmp_path, 4)
    assert game.state.vehicles["panzer"].seats["gunner"].marker == Hex.parse("11.07")


def test_closed_hatch_penalty_negated_by_commander_marker(tmp_path):
    """C2 31.7.3: the -2 is negated by another crewman's marker adjacent to the target: 5 vs TQ 5 passes."""
    game = gunner_move(tmp_path, 5, commander_marker="10.06")
    assert game.state.vehicles["panzer"].seats["gunner"].marker == Hex.parse("10.05")
    assert markers(game)[-1].data["tqc"]["target"] == 5


def test_priority_2_placed_first_time(tmp_path):
    """C2 31.7.4 priority 2 (example of play): a Light AT man in LOS: the Commander places on him, no roll."""
    game = vgame(tmp_path, friendly=[man("able_1", "11.07"), man("able_2", "13.09", weapon="bazooka")])
    reveal(game, "able_1", "able_2")
    force(game, rolls=[])
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    seat = game.state.vehicles["panzer"].seats["commander"]
    assert (seat.marker, seat.marker_priority) == (Hex.parse("13.09"), 2)


def test_light_at_by_order(tmp_path):
    """C2 31.7.4 priority 2: the assistant (a Load Light AT order) counts as Light AT."""
    game = vgame(tmp_path, friendly=[man("able_1", "11.07"), man("able_2", "13.09")])
    reveal(game, "able_1", "able_2")
    give(game, "able_2", "load_light_at")
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    assert game.state.vehicles["panzer"].seats["commander"].marker == Hex.parse("13.09")


def test_priority_4_single_man(tmp_path):
    """C2 31.7.4 priority 4: a single Spotted Friendly, no marker yet: the marker goes on him."""
    game = vgame(tmp_path, friendly=[man("able_1", "13.09")])
    reveal(game, "able_1")
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    seat = game.state.vehicles["panzer"].seats["commander"]
    assert (seat.marker, seat.marker_priority) == (Hex.parse("13.09"), 4)


def test_priority_3_group_placed(tmp_path):
    """C2 31.7.4 priority 3: with no marker, the hex covering most Spotted Friendlies (two in a hex)."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05"), man("able_2", "10.05"), man("able_3", "15.10")])
    reveal(game, "able_1", "able_2", "able_3")
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    seat = game.state.vehicles["panzer"].seats["commander"]
    assert (seat.marker, seat.marker_priority) == (Hex.parse("10.05"), 3)


def test_priority_3_move_needs_tqc(tmp_path):
    """C2 31.7.4 priority 3: a marker on a lone man moves to a bigger group on a TQC (6 vs 5 fails)."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05"), man("able_2", "10.05"), man("able_3", "15.10")])
    reveal(game, "able_1", "able_2", "able_3")
    give(game, crew(game, "commander").id, "direct_firing")
    seat = game.state.vehicles["panzer"].seats["commander"]
    seat.marker, seat.marker_priority = Hex.parse("15.10"), 4
    force(game, rolls=[6])
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    assert seat.marker == Hex.parse("15.10")
    assert markers(game)[-1].data["tqc"]["roll"] == 6


def test_priority_3_one_hex_move_automatic(tmp_path):
    """C2 31.7.4 priority 3: a move of 1 hex that covers more men needs no TQC."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05"), man("able_2", "10.05"), man("able_3", "10.06")])
    reveal(game, "able_1", "able_2", "able_3")
    seat = game.state.vehicles["panzer"].seats["commander"]
    seat.marker, seat.marker_priority = Hex.parse("10.04"), 3  # covers able_1 and able_2, not able_3
    src = force(game, rolls=[9])
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    assert (seat.marker, seat.marker_priority) == (Hex.parse("10.05"), 3)
    assert src.remaining == (9,)


def test_priority_4_not_when_marker_exists(tmp_path):
    """C2 31.7.4: a lower priority never moves a marker: a marker on a Sherman stays with a man in view."""
    game = vgame(tmp_path, friendly=[man("able_1", "13.09")], vehicles=[panzer(), sherman("10.05")])
    reveal(game, "able_1")
    seat = game.state.vehicles["panzer"].seats["commander"]
    seat.marker, seat.marker_priority = Hex.parse("10.05"), 1
    src = force(game, rolls=[0])
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    assert seat.marker == Hex.parse("10.05")
    assert src.remaining == (0,)


def test_codriver_ignores_priority_1(tmp_path):
    """C2 31.7.4: the Co-driver ignores priority 1: a half-track in LOS does not draw his marker off a man."""
    game = vgame(
        tmp_path,
        friendly=[man("able_1", "11.07"), man("able_9", "10.05")],
        vehicles=[panzer(), half_track("10.05")],
    )
    reveal(game, "able_1")
    seat = game.state.vehicles["panzer"].seats["co_driver"]
    seat.marker, seat.marker_priority = Hex.parse("11.07"), 4
    src = force(game, rolls=[0])
    target_markers.place_enemy_marker(game, crew(game, "co_driver"))
    assert seat.marker == Hex.parse("11.07")
    assert src.remaining == (0,)


def test_codriver_marks_opposing_afv_without_marker(tmp_path):
    """C2 31.7.4: any AFV crewman with no marker and an opposing AFV in LOS places it there, no roll."""
    game = vgame(tmp_path, vehicles=[panzer(), sherman("10.05")])
    target_markers.place_enemy_marker(game, crew(game, "co_driver"))
    assert game.state.vehicles["panzer"].seats["co_driver"].marker == Hex.parse("10.05")


def test_driver_and_loader_place_no_marker(tmp_path):
    """C2 31.7.3: Drivers and Loaders do not use Target Markers."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05")])
    reveal(game, "able_1")
    target_markers.place_enemy_marker(game, crew(game, "driver"))
    target_markers.place_enemy_marker(game, crew(game, "loader"))
    seats = game.state.vehicles["panzer"].seats
    assert seats["driver"].marker is None and seats["loader"].marker is None


def test_observed_targets(tmp_path):
    """C2 31.7.3: Observed Targets: Spotted Friendlies in or adjacent to the marker (not Hidden ones)."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05"), man("able_2", "10.06"), man("able_3", "10.04")])
    reveal(game, "able_1", "able_2")
    v = game.state.vehicles["panzer"]
    v.seats["commander"].marker = Hex.parse("10.05")
    got = crew_sight.observed_targets(game, v, "commander")
    assert [c.id for c in got] == ["able_1", "able_2"]


def test_marker_removed_when_los_lost(tmp_path):
    """C2 31.7.4: no LOS to any Spotted Friendly: the marker is removed at once."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05")])
    reveal(game, "able_1")
    v = game.state.vehicles["panzer"]
    v.seats["commander"].marker = Hex.parse("10.05")
    game.char("able_1").revealed = False
    crew_sight.remove_lost_markers(game, v)
    assert v.seats["commander"].marker is None
    assert events(game, "target_marker_removed")[-1].data["position"] == "commander"


def test_marker_kept_while_los(tmp_path):
    """C2 31.7.4: a crewman with LOS to a Spotted Friendly keeps his marker."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05")])
    reveal(game, "able_1")
    v = game.state.vehicles["panzer"]
    v.seats["commander"].marker = Hex.parse("10.05")
    crew_sight.remove_lost_markers(game, v)
    assert v.seats["commander"].marker == Hex.parse("10.05")


def test_marker_removed_when_its_hex_leaves_los(tmp_path):
    """[house] C2 31.7.4: a marker whose hex leaves the seat's LOS (the turret turned) is removed."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05"), man("able_2", "15.10")])
    reveal(game, "able_1", "able_2")
    v = game.state.vehicles["panzer"]
    v.seats["gunner"].marker = Hex.parse("10.05")
    v.turret = 2
    crew_sight.remove_lost_markers(game, v)
    assert v.seats["gunner"].marker is None


def test_destroyed_main_gun_gives_spot(tmp_path):
    """[house] C2 31.10.8: Fire Main Gun with the main gun destroyed becomes Spot."""
    game = example(tmp_path, ["e33", "e25", "e01"])
    game.state.vehicles["panzer"].damage.append("main_gun_destroyed")
    vom_orders.enemy_vehicle_orders(game)
    assert order_of(game, "gunner") == "spot"


def test_marker_removed_on_panic(tmp_path):
    """C2 31.7.4, 31.10.9: a crewman who Panics loses his marker."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05")])
    reveal(game, "able_1")
    v = game.state.vehicles["panzer"]
    v.seats["gunner"].marker = Hex.parse("10.05")
    give(game, crew(game, "gunner").id, "panic")
    target_markers.place_enemy_marker(game, crew(game, "gunner"))
    assert v.seats["gunner"].marker is None


def test_clear_marker(tmp_path):
    """C2 31.7.4: clear_marker removes the marker and says why."""
    game = vgame(tmp_path)
    v = game.state.vehicles["panzer"]
    v.seats["gunner"].marker = Hex.parse("10.05")
    crew_sight.clear_marker(game, crew(game, "gunner"), "he Panics")
    assert v.seats["gunner"].marker is None
    assert "he Panics" in events(game, "target_marker_removed")[-1].text


# ---------------------------------------------------------------------------
# The example of play, Impulse 2: marker, Emergency Stop, turret (31.2, 31.6, 31.7.4)


def impulse_2(tmp_path) -> Game:
    """The example after Impulse 1: the Panzer in 15.11, Buttermann Spotted; the Commander marks him."""
    game = example(tmp_path)
    vom_orders.enemy_vehicle_orders(game)
    v = game.state.vehicles["panzer"]
    v.hex = Hex.parse("15.11")
    for cid in v.crew_ids():
        game.char(cid).hex = v.hex
    reveal(game, "buttermann")
    give(game, "buttermann", "fire_light_at")
    give(game, "douglas", "load_light_at")
    set_impulse(game, 2)
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    return game


def test_example_commander_marks_light_at(tmp_path):
    """C2 example of play: the Commander places his marker on the Light AT team (priority 2) with no roll."""
    game = impulse_2(tmp_path)
    seat = game.state.vehicles["panzer"].seats["commander"]
    assert (seat.marker, seat.marker_priority) == (game.char("buttermann").hex, 2)


def test_example_driver_emergency_stop(tmp_path):
    """C2 31.2 (1), example of play: the Driver's TQC is TQ 5 + LDR 2 = 7; a roll of 5 passes."""
    game = impulse_2(tmp_path)
    force(game, rolls=[5])
    assert emergency_stop.enemy_emergency_stop(game, crew(game, "driver"))
    assert order_of(game, "driver") == "emergency_stop"
    assert events(game, "emergency_stop_check")[-1].data["target"] == 7


def test_emergency_stop_tqc_fails_above(tmp_path):
    """C2 31.2 (1): 8 vs 7 fails: the Driver keeps Crawl."""
    game = impulse_2(tmp_path)
    force(game, rolls=[8])
    assert not emergency_stop.enemy_emergency_stop(game, crew(game, "driver"))
    assert order_of(game, "driver") == "crawl"


def test_emergency_stop_plain_tq_option_passes_at_tq(tmp_path):
    """Option emergency_stop_ldr=false (31.2 (1) read alone): TQ 5 without the LDR; 5 passes."""
    game = impulse_2(tmp_path)
    game.options = attrs.evolve(game.options, emergency_stop_ldr=False)
    force(game, rolls=[5])
    assert emergency_stop.enemy_emergency_stop(game, crew(game, "driver"))
    assert events(game, "emergency_stop_check")[-1].data["target"] == 5


def test_emergency_stop_plain_tq_option_fails_at_tq_plus_1(tmp_path):
    """Option emergency_stop_ldr=false: 6 vs TQ 5 fails, though 6 would pass with the LDR (7)."""
    game = impulse_2(tmp_path)
    game.options = attrs.evolve(game.options, emergency_stop_ldr=False)
    force(game, rolls=[6])
    assert not emergency_stop.enemy_emergency_stop(game, crew(game, "driver"))
    assert order_of(game, "driver") == "crawl"


def test_emergency_stop_only_this_impulse(tmp_path):
    """C2 31.2 (1): a marker placed in an earlier Impulse does not trigger the TQC."""
    game = impulse_2(tmp_path)
    set_impulse(game, 3)
    src = force(game, rolls=[0])
    assert not emergency_stop.enemy_emergency_stop(game, crew(game, "driver"))
    assert src.remaining == (0,)


def test_emergency_stop_not_for_men_without_light_at(tmp_path):
    """C2 31.2 (1): a marker on a man without a Light AT weapon triggers nothing."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05")])
    reveal(game, "able_1")
    give(game, crew(game, "driver").id, "crawl")
    set_impulse(game, 1)
    target_markers.place_enemy_marker(game, crew(game, "commander"))
    src = force(game, rolls=[0])
    assert not emergency_stop.enemy_emergency_stop(game, crew(game, "driver"))
    assert src.remaining == (0,)


def test_driver_emergency_stop_on_failed_mc(tmp_path):
    """C2 31.2 (2): a failed MC switches the Driver to Emergency Stop."""
    game = example(tmp_path)
    vom_orders.enemy_vehicle_orders(game)
    assert stop_rules.driver_emergency_stop(game, crew(game, "driver"), "he failed an MC", "31.2 (2)")
    assert order_of(game, "driver") == "emergency_stop"
    assert not stop_rules.driver_emergency_stop(game, crew(game, "driver"), "again", "31.2 (2)")


def test_example_turret_turns_to_commander_marker(tmp_path):
    """C2 31.6, example of play: the Gunner has no marker; the turret turns toward the Commander's."""
    game = impulse_2(tmp_path)
    assert (
        turret_and_smoke.commander_turret_target(game, game.state.vehicles["panzer"])
        == game.char("buttermann").hex
    )


def test_turret_not_for_lower_priority_commander(tmp_path):
    """C2 31.6: a Commander's marker of no higher priority than the Gunner's does not turn the turret."""
    game = impulse_2(tmp_path)
    v = game.state.vehicles["panzer"]
    v.seats["gunner"].marker, v.seats["gunner"].marker_priority = Hex.parse("15.08"), 2
    assert turret_and_smoke.commander_turret_target(game, v) is None
    v.seats["gunner"].marker_priority = 4
    assert turret_and_smoke.commander_turret_target(game, v) == game.char("buttermann").hex


def test_turret_not_when_in_front_arc(tmp_path):
    """C2 31.6: a Commander's marker already in the turret's front arc needs no turn."""
    game = vgame(tmp_path)
    v = game.state.vehicles["panzer"]
    v.seats["commander"].marker, v.seats["commander"].marker_priority = Hex.parse("10.05"), 2
    assert turret_and_smoke.commander_turret_target(game, v) is None


# ---------------------------------------------------------------------------
# Smoke dischargers (31.11.2)


def test_smoke_hex_toward_afv_over_infantry(tmp_path):
    """C2 31.11.2: smoke goes to the adjacent hex nearest the greatest threat under the Commander's marker."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.11")], vehicles=[panzer(), sherman("10.08")])
    reveal(game, "able_1")
    v = game.state.vehicles["panzer"]
    v.seats["commander"].marker = Hex.parse("10.09")  # covers the Sherman (10.08), not able_1 (2 hexes)
    assert turret_and_smoke.smoke_discharger_hex(game, v) == Hex.parse("10.09")


def test_smoke_hex_needs_marker_on_threat(tmp_path):
    """C2 31.11.2: without the Commander's marker on a threat there is no smoke hex."""
    game = vgame(tmp_path, friendly=[man("able_1", "10.05")])
    reveal(game, "able_1")
    v = game.state.vehicles["panzer"]
    assert turret_and_smoke.smoke_discharger_hex(game, v) is None
    v.seats["commander"].marker = Hex.parse("20.05")
    assert turret_and_smoke.smoke_discharger_hex(game, v) is None


def test_one_card_per_crewman(tmp_path):
    """C2 31.11.3: giving five crew their orders reads five cards (no extra draws)."""
    game = example(tmp_path)
    before = len(game.events)
    vom_orders.enemy_vehicle_orders(game)
    draws = [e for e in game.events[before:] if e.kind == "roll" and e.data.get("type") == "draw"]
    assert [e.data["card"] for e in draws] == EXAMPLE_CARDS


def test_crew_order_event_text_only_when_the_game_narrates() -> None:
    """Issue 10: a batch game (keep_events=False) skips the crew_order and initiative texts, never
    their data (31.11.3, 31.1)."""
    from solo.playtest.play import new_game

    seen: dict[bool, list] = {}
    initiative: dict[bool, list] = {}
    for keep in (True, False):
        g = new_game("example_of_play", seed=1, data=house_data(), record_rolls=False, keep_events=keep)
        got: list = []
        g.listeners.append(got.append)
        crew = [g.state.characters[c] for c in g.state.vehicles["panzer"].crew_ids()]
        team = g.state.teams["panzer"]
        for _ in range(10):  # ten turns' orders, as tools/bench's crew_orders
            for ch in crew:
                ch.order = None
            team.initiative = team.first_card = None
            for card in list(g.state.cards.enemy_this_turn.values()):
                g.enemy_deck.discard(card)
            g.state.cards.enemy_this_turn.clear()
            vom_orders.enemy_vehicle_orders(g)
        seen[keep] = [e for e in got if e.kind == "crew_order"]
        initiative[keep] = [e for e in got if e.kind == "initiative"]
    assert len(seen[True]) == 50
    assert [e.data for e in seen[False]] == [e.data for e in seen[True]]
    assert len(initiative[True]) == 10 and [e.data for e in initiative[False]] == [
        e.data for e in initiative[True]
    ]
    assert all(e.text for e in initiative[True]) and all(e.text == "" for e in initiative[False])
    assert all(e.text for e in seen[True])
    assert all(e.text == "" for e in seen[False])
    overrides = [o for e in seen[True] for o in e.data["overrides"]]
    assert overrides  # overrides (Bail Out...) are in the data either way
