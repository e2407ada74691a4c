"""Vehicle crews in play: initiatives, Friendly crew orders, and crew activations (C2 31).

Maps: tests/data/vehicle_open.yaml (all open, 35 x 20), tests/data/vehicle_terrain.yaml (Barbed
Wire on 06.05, Trees on 04.05) and the shipped town map (the rules' example of play,
maps/scenarios/example_of_play.yaml). Unless a test says otherwise the
hooks into ``crew_ai`` and ``vehicle_combat`` are switched off (``hooks`` fixture) so that
each test checks this module's own rules; the example-of-play test runs with them.
"""

from __future__ import annotations

import functools
from collections.abc import Generator
from pathlib import Path
from typing import Any

import attrs
import pytest
from conftest import DATA_DIR, house_data, make_game, scenario_yaml

from solo.core.dice import Dice, ScriptedSource
from solo.core.hexes import Hex, wedge_directions
from solo.data.cards import DirectionString
from solo.data.house import HouseData
from solo.data.maps import load_map
from solo.data.scenario import load_scenario
from solo.enemy.hooks import Enemy
from solo.engine.game import Decision, DecisionKind, Game
from solo.rules.state import Phase, Status, Wound
from solo.rules.vehicles import crew, crew_orders, driving, emergency_stop, seats
from solo.rules.vehicles.move_state import VehicleMoveState
from solo.rules.vehicles.movement import move_impulse
from solo.rules.vehicles.state import Ammo, Hatch

# ---------------------------------------------------------------------------
# Helpers


@functools.cache
def crew_data() -> HouseData:
    """The house data plus the two vehicle test maps (all open; terrain features)."""
    base = house_data()
    maps = [load_map(DATA_DIR / f"{n}.yaml", base.terrain) for n in ("vehicle_open", "vehicle_terrain")]
    return attrs.evolve(base, maps={**base.maps, **{m.id: m for m in maps}})


US_CREW = {
    "commander": "us_cmd_whitaker",  # TQ 6, LDR 2
    "driver": "us_drv_mckee",  # TQ 5
    "gunner": "us_gun_reyes",  # TQ 5
    "loader": "us_ldr_nakamura",  # TQ 5
    "co_driver": "us_cdr_gallo",  # TQ 5
}
DE_CREW = {
    "commander": "de_cmd_brandt",  # TQ 5, LDR 2
    "driver": "de_drv_vogel",
    "gunner": "de_gun_adler",
    "loader": "de_ldr_baumann",
    "co_driver": "de_cdr_hahn",
}


def sherman(vid: str = "tank", hex_: str = "17.10", facing: int = 1, **kw: Any) -> dict:
    """A Friendly M4A3 with named crew, the Commander's hatch open, HE loaded."""
    return {
        "id": vid,
        "type": "m4a3_sherman",
        "side": "friendly",
        "name": kw.pop("name", "Sherman"),
        "hex": hex_,
        "facing": facing,
        "loaded": "he",
        "hatches": dict(kw.pop("hatches", {"commander": "open"})),
        "crew": dict(US_CREW),
        **kw,
    }


def panzer(vid: str = "pz", hex_: str = "17.10", facing: int = 1, **kw: Any) -> dict:
    """An Enemy Panzer IVH with named crew, the Commander's hatch open, HE loaded."""
    return {
        "id": vid,
        "type": "panzer_ivh",
        "side": "enemy",
        "name": kw.pop("name", "Panzer"),
        "hex": hex_,
        "facing": facing,
        "loaded": "he",
        "hatches": dict(kw.pop("hatches", {"commander": "open"})),
        "crew": dict(DE_CREW),
        **kw,
    }


def man(cid: str, hex_: str, *, tq: int = 5, weapon: str = "m1_garand", **kw: Any) -> dict:
    return {
        "id": cid,
        "name": kw.pop("name", cid),
        "tq": tq,
        "weapons": [{"weapon": weapon, "ws": 5}],
        "hex": hex_,
        **kw,
    }


def new_game(
    tmp_path: Path,
    *,
    vehicles: list[dict],
    friendly: list[dict] | None = None,
    enemy: list[dict] | None = None,
    alert: bool = True,
    impulse: int = 1,
    **extra: Any,
) -> Game:
    """A game on the open vehicle map, stopped at its first decision, set to the Action Phase."""
    friendly = friendly if friendly is not None else [man("f0", "33.19", revealed=True)]
    enemy = enemy if enemy is not None else [man("e1", "01.01", revealed=True)]
    sc: dict[str, Any] = {"id": "t", "name": "Test", "map": "vehicle_open", "turns": 3, "hand": 1}
    sc.update(extra)
    sc["friendly"] = [{"id": "able", "name": "Able", "characters": friendly}] if friendly else []
    sc["enemy"] = [{"id": "red", "name": "Red", "alert": alert, "characters": enemy}] if enemy else []
    sc["vehicles"] = vehicles
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    game = Game(load_scenario(p, crew_data()), crew_data(), dice=Dice(1))
    game.state.flow.phase = Phase.ACTION
    game.state.flow.impulse = impulse
    return game


def script(game: Game, rolls: list[int], cards: dict[str, list[str]] | None = None) -> None:
    """Force the next rolls; any roll beyond them raises ChanceError."""
    game.dice.source = ScriptedSource(rolls, cards=cards or {})


def order(game: Game, cid: str, order_id: str, directions: str | None = None, target: str | None = None):
    ch = game.char(cid)
    game.set_order(
        ch, order_id, directions=DirectionString.parse(directions) if directions else None, target=target
    )
    return ch


def run(gen: Generator[Decision, str, Any], answers: list[str] | None = None) -> list[Decision]:
    """Drive a generator; answer its decisions in order (then with each one's first key)."""
    answers = list(answers or [])
    asked: list[Decision] = []
    try:
        d = next(gen)
        while True:
            asked.append(d)
            key = answers.pop(0) if answers else d.keys[0]
            assert key in d.keys, (key, d.keys)
            d = gen.send(key)
    except StopIteration:
        pass
    return asked


def at(game: Game, impulse: int) -> None:
    game.state.flow.impulse = impulse


def events(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


class _Hooks:
    """Fakes put in by a test: ``hooks[("vehicle_combat", name)] = fake`` replaces that rule
    function, ``hooks[("crew_ai", name)] = fake`` that Enemy decision (``game.enemy``)."""

    def __init__(self, monkeypatch) -> None:
        self._mp = monkeypatch

    def __setitem__(self, key: tuple[str, str], fake: Any) -> None:
        module, name = key
        if module == "crew_ai":
            from solo.enemy.hooks import Enemy

            self._mp.setattr(Enemy, name, staticmethod(fake))
        else:
            import importlib
            import pkgutil

            import solo.rules.vehicles as pkg

            for info in pkgutil.iter_modules(pkg.__path__):
                mod = importlib.import_module(f"solo.rules.vehicles.{info.name}")
                if name in vars(mod):
                    self._mp.setattr(mod, name, fake)


@pytest.fixture
def hooks(monkeypatch) -> _Hooks:
    """Replace a vehicle-combat rule or an Enemy decision for one test."""
    return _Hooks(monkeypatch)


# ---------------------------------------------------------------------------
# Step 1: initiatives (C2 31.1)


def _pile_card(game: Game, *, event: bool = False) -> str:
    deck = game.data.friendly_deck
    return next(c for c in game.friendly_deck.in_draw_pile() if (deck.card(c).initiatives is None) == event)


def test_initiatives_able_then_baker(tmp_path):
    """The first Friendly vehicle takes the card's Able value, the second Baker's (C2 31.1)."""
    game = new_game(tmp_path, vehicles=[sherman("t1"), sherman("t2", "20.10", name="Sherman 2")])
    card = _pile_card(game)
    script(game, [], {"friendly": [card]})
    crew_orders.friendly_vehicle_initiatives(game)
    i = game.data.friendly_deck.card(card).initiatives
    assert game.state.teams["t1"].initiative == i.able
    assert game.state.teams["t2"].initiative == i.baker
    assert card in game.friendly_deck.discards
    assert events(game, "initiative")[-1].data["card"] == card


def test_initiative_event_card_drawn_again_then_shuffle(tmp_path):
    """An Event card is set aside and another drawn; then deck and discards are shuffled (C2 31.1, 25.0)."""
    game = new_game(tmp_path, vehicles=[sherman("t1")])
    ev, card = _pile_card(game, event=True), _pile_card(game)
    game.dice.source = ScriptedSource([], cards={"friendly": [ev, card]}, fallback=1)
    crew_orders.friendly_vehicle_initiatives(game)
    assert game.state.teams["t1"].initiative == game.data.friendly_deck.card(card).initiatives.able
    shuffles = [e for e in events(game, "roll") if "vehicle initiative" in e.data.get("purpose", "")]
    assert any(e.data.get("deck") == "friendly" and "shuffle" in e.text for e in shuffles)


def test_enemy_vehicles_get_no_friendly_initiative(tmp_path):
    """Only Friendly vehicles take a Friendly card's values (C2 31.1)."""
    game = new_game(tmp_path, vehicles=[panzer()])
    crew_orders.friendly_vehicle_initiatives(game)
    assert game.state.teams["pz"].initiative is None and not events(game, "initiative")


# ---------------------------------------------------------------------------
# Step 2: Friendly crew orders (C2 31.11.2)


def keys(game: Game, cid: str) -> list[str]:
    return [k for k, _label in crew_orders.friendly_crew_order_options(game, game.char(cid))]


def test_commander_orders_open_hatch(tmp_path):
    """Commander: Spot, Direct Firing, Smoke Grenade, the pintle .50 when open, hatch, Hide (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    got = keys(game, "tank_commander")
    for k in (
        "spot",
        "direct_firing",
        "smoke_grenade_hatch",
        "aimed_fire",
        "button_open_up",
        "hide",
        "bail_out",
    ):
        assert k in got
    assert "fire_main_gun" not in got and "emergency_stop" not in got and "panic" not in got


def test_commander_closed_hatch_cannot_fire_or_hide(tmp_path):
    """Buttoned up, the Commander has no fire order (31.9.4 a) and no Hide (31.8)."""
    game = new_game(tmp_path, vehicles=[sherman(hatches={})])
    got = keys(game, "tank_commander")
    assert "aimed_fire" not in got and "hide" not in got and "button_open_up" in got


def test_driver_speeds_no_emergency_stop(tmp_path):
    """Driver: the type's speeds, Spot; Emergency Stop is declared in Step 4, not given (31.2, 31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    got = keys(game, "tank_driver")
    assert {"crawl", "ahead_slow", "forward", "fast", "reverse", "spot"} <= set(got)
    assert "emergency_stop" not in got


def test_driver_no_fast_in_mud(tmp_path):
    """Mud forbids Fast (C2 28.2)."""
    game = new_game(tmp_path, vehicles=[sherman()], ground="mud")
    got = keys(game, "tank_driver")
    assert "forward" in got and "fast" not in got


def test_immobilized_driver_has_no_speed(tmp_path):
    """An immobilized vehicle's Driver gets no speed order (31.2 (3))."""
    game = new_game(tmp_path, vehicles=[sherman()])
    game.state.vehicles["tank"].damage.append("immobilized")
    assert not {"crawl", "ahead_slow"} & set(keys(game, "tank_driver"))


def test_gunner_loader_codriver_orders(tmp_path):
    """Gunner: main gun and coaxial MG; Loader: Load HE/AP; Co-driver: bow MG (31.9.4, 31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    g, ld, cd = keys(game, "tank_gunner"), keys(game, "tank_loader"), keys(game, "tank_co_driver")
    assert {"fire_main_gun", "aimed_fire", "rapid_fire", "suppressive_fire"} <= set(g)
    assert "button_open_up" not in g  # a tank Gunner has no hatch (31.8)
    assert {"load_he", "load_ap"} <= set(ld) and "fire_main_gun" not in ld
    assert "aimed_fire" in cd and "load_he" not in cd


def test_no_load_without_rounds(tmp_path):
    """No Load AP when no AP round is left (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    game.state.vehicles["tank"].rounds["ap"] = 0
    got = keys(game, "tank_loader")
    assert "load_he" in got and "load_ap" not in got


def test_jammed_hatch_no_button(tmp_path):
    """A jammed hatch cannot be buttoned or opened (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    game.state.vehicles["tank"].seats["loader"].hatch = Hatch.JAMMED_CLOSED
    assert "button_open_up" not in keys(game, "tank_loader")


def test_half_track_passenger_orders(tmp_path):
    """A Half-Track passenger with a rifle: Hide, Bail Out and fire orders (31.9.3)."""
    ht = {
        "id": "ht",
        "type": "m3a1_half_track",
        "side": "friendly",
        "hex": "17.10",
        "facing": 1,
        "crew": {"driver": "d1"},
        "passengers": {"passenger_1": "p1"},
    }
    game = new_game(tmp_path, vehicles=[ht], friendly=[man("d1", "17.10"), man("p1", "17.10")])
    got = keys(game, "p1")
    assert {"hide", "bail_out", "aimed_fire"} <= set(got) and "button_open_up" not in got


def test_truck_passenger_cannot_fire(tmp_path):
    """A Truck passenger may not fire (31.9.2): Hide and Bail Out only."""
    truck = {
        "id": "tr",
        "type": "opel_truck",
        "side": "friendly",
        "hex": "17.10",
        "facing": 1,
        "crew": {"driver": "d1"},
        "passengers": {"passenger_3": "p1"},
    }
    game = new_game(tmp_path, vehicles=[truck], friendly=[man("d1", "17.10"), man("p1", "17.10")])
    assert keys(game, "p1") == ["hide", "bail_out"]


# ---------------------------------------------------------------------------
# The Driver (C2 31.4-31.5, 31.3)


def test_example_of_play_crawl_1(tmp_path):
    """The example of play: Crawl 1 from 15.12 facing 1 moves to 15.11 on Impulse 1, crew with it (C2 32)."""
    game = make_game(tmp_path, "example_of_play")
    game.state.flow.phase, game.state.flow.impulse = Phase.ACTION, 1
    order(game, "panzer_driver", "crawl", "1")
    run(crew.activate(game, game.char("panzer_driver")))
    v = game.state.vehicles["panzer"]
    assert v.hex == Hex.parse("15.11") and v.facing == 1 and v.moved_this_impulse == 1
    assert all(game.char(c).hex == Hex.parse("15.11") for c in v.crew_ids())
    assert "15.12→15.11" in events(game, "vehicle_move")[-1].text


def test_ahead_slow_as_vehicle_move_and_crew_follow(tmp_path):
    """Ahead Slow 6/5 from 22.14 facing 6 moves as vehicle_move does each Impulse (C2 31.4 example 1)."""
    game = new_game(tmp_path, vehicles=[sherman(hex_="22.14", facing=6)])
    order(game, "tank_driver", "ahead_slow", "6/5")
    v = game.state.vehicles["tank"]
    state = VehicleMoveState.at("22.14", 6)
    ahead = game.data.orders.get("ahead_slow")
    for imp in (1, 2, 3, 4):
        at(game, imp)
        state, _rep = move_impulse(
            game.board,
            game.data.vehicles.get("m4a3_sherman").kind,
            state,
            ahead,
            DirectionString.parse("6/5"),
            imp,
            is_enemy=False,
        )
        asked = run(crew.activate(game, game.char("tank_driver")), ["no"])
        assert asked[0].kind is DecisionKind.DUCK_BACK and "emergency_stop" in asked[0].keys
        assert (v.hex, v.facing) == (state.hex, state.facing)
        assert all(game.char(c).hex == v.hex for c in v.crew_ids())


def test_friendly_emergency_stop_declared(tmp_path):
    """A Friendly Driver's Emergency Stop declared in Step 4 a) iii): the vehicle does not move (C2 31.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_driver", "crawl", "1")
    run(crew.activate(game, game.char("tank_driver")), ["emergency_stop"])
    assert game.char("tank_driver").order.order == "emergency_stop"
    assert game.state.vehicles["tank"].hex == Hex.parse("17.10")


def test_friendly_vehicle_alerts_enemies_within_5(tmp_path, monkeypatch):
    """A Friendly vehicle that moves alerts Waiting enemies within 5 hexes of a hex it enters (C2 31.3)."""
    calls = []
    monkeypatch.setattr(
        Enemy, "alert", staticmethod(lambda game, ch, reason, rule: calls.append((ch.id, rule)))
    )
    game = new_game(
        tmp_path,
        vehicles=[sherman(hatches={"commander": "open"})],
        enemy=[man("near", "17.04", revealed=True), man("far", "17.02", revealed=True)],
        alert=False,
    )
    order(game, "tank_driver", "crawl", "1")
    run(crew.activate(game, game.char("tank_driver")), ["no"])
    assert game.state.vehicles["tank"].hex == Hex.parse("17.09")
    assert calls == [("near", "C2 31.3")] and game.char("near").alert and not game.char("far").alert


def test_enemy_vehicle_does_not_alert(tmp_path, monkeypatch):
    """The Additional Alert Rule is for Friendly vehicles only (C2 31.3)."""
    calls = []
    monkeypatch.setattr(Enemy, "alert", staticmethod(lambda game, ch, reason, rule: calls.append(ch.id)))
    game = new_game(tmp_path, vehicles=[panzer()], enemy=[man("near", "17.06", revealed=True)], alert=False)
    order(game, "pz_driver", "crawl", "1")
    run(crew.activate(game, game.char("pz_driver")))
    assert game.state.vehicles["pz"].hex == Hex.parse("17.09") and calls == []


def test_enemy_directions_through_the_direction_counter(tmp_path):
    """An Enemy Driver's directions are read through the Direction Counter: 1 turned by 1 is map 2 (§6)."""
    game = new_game(
        tmp_path, vehicles=[panzer(facing=2)], direction_counters=[{"hex": "17.10", "rotation": 1}]
    )
    order(game, "pz_driver", "crawl", "1")
    run(crew.activate(game, game.char("pz_driver")))
    v = game.state.vehicles["pz"]
    assert v.hex == game.board.neighbour_hex(Hex.parse("17.10"), 2) and v.facing == 2


def wire_game(tmp_path, speed: str, impulse: int) -> Game:
    """A Panzer above the Barbed Wire of 06.05, facing it, its crew on orders."""
    game = new_game(
        tmp_path, vehicles=[panzer(hex_="06.04", facing=4)], map="vehicle_terrain", impulse=impulse
    )
    order(game, "pz_driver", speed, "4")
    for pos in ("commander", "gunner", "loader", "co_driver"):
        order(game, f"pz_{pos}", "spot")
    return game


def test_barbed_wire_9_stops_an_afv(tmp_path):
    """An AFV entering Barbed Wire on a 9: Emergency Stop; at Crawl (1 hex) the crew keep orders (27.7)."""
    game = wire_game(tmp_path, "crawl", 1)
    script(game, [9])
    run(crew.activate(game, game.char("pz_driver")))
    v = game.state.vehicles["pz"]
    assert v.hex == Hex.parse("06.05") and game.char("pz_driver").order.order == "emergency_stop"
    assert game.char("pz_gunner").order.order == "spot" and events(game, "barbed_wire")[0].data["roll"] == 9


def test_barbed_wire_stop_at_2_hexes_crew_tqc(tmp_path):
    """Stopped by the wire at Ahead Slow on Impulse 3 (2 hexes): each crewman's TQC (27.7, 31.11.2)."""
    game = wire_game(tmp_path, "ahead_slow", 3)
    script(game, [9, 0, 9, 0, 0])
    run(crew.activate(game, game.char("pz_driver")))
    assert game.state.vehicles["pz"].hex == Hex.parse("06.05")
    assert orders_of_crew(game) == {
        "commander": "spot",
        "gunner": "panic",
        "loader": "spot",
        "co_driver": "spot",
    }


def test_barbed_wire_flattened_by_an_afv(tmp_path):
    """An AFV rolling 0-3 flattens the wire: no further roll there (27.7)."""
    game = wire_game(tmp_path, "crawl", 1)
    script(game, [2])
    run(crew.activate(game, game.char("pz_driver")))
    assert "06.05" in game.state.flags[driving.WIRE_REMOVED_KEY]
    assert game.char("pz_driver").order.order == "crawl"


def test_trees_make_crawl(tmp_path):
    """An AFV entering Trees switches to Crawl and stops for the Impulse (C2 31.5)."""
    game = new_game(tmp_path, vehicles=[panzer(hex_="04.04", facing=4)], map="vehicle_terrain", impulse=3)
    order(game, "pz_driver", "ahead_slow", "4")
    run(crew.activate(game, game.char("pz_driver")))
    d = game.char("pz_driver")
    assert game.state.vehicles["pz"].hex == Hex.parse("04.05") and d.order.order == "crawl"
    assert str(d.order.directions) == "4"


# ---------------------------------------------------------------------------
# The Loader (C2 31.11.2)


def loader_game(tmp_path, tq: int | None = None) -> Game:
    game = new_game(tmp_path, vehicles=[sherman()])
    game.state.vehicles["tank"].loaded = None
    order(game, "tank_loader", "load_ap")
    if tq is not None:
        game.char("tank_loader").tq = tq
    return game


def test_loader_tqc_passes_at_threshold(tmp_path):
    """Impulse 2: TQC at TQ 5 + the Commander's LDR 2 = 7 loads the gun (31.11.2; example of play LDR)."""
    game = loader_game(tmp_path)
    at(game, 2)
    script(game, [7])
    run(crew.activate(game, game.char("tank_loader")))
    v = game.state.vehicles["tank"]
    assert v.loaded is Ammo.AP and v.rounds["ap"] == 35
    assert events(game, "check")[-1].data["target"] == 7


def test_loader_tqc_fails_above_threshold(tmp_path):
    """Impulse 3: a roll of threshold + 1 fails, with no penalty (31.11.2)."""
    game = loader_game(tmp_path)
    at(game, 3)
    script(game, [8])
    run(crew.activate(game, game.char("tank_loader")))
    assert game.state.vehicles["tank"].loaded is None and game.state.vehicles["tank"].rounds["ap"] == 36


def test_loader_natural_9_fails(tmp_path):
    """A natural 9 fails the loading TQC even at threshold 10 (C2 23.1)."""
    game = loader_game(tmp_path, tq=8)
    at(game, 2)
    script(game, [9])
    run(crew.activate(game, game.char("tank_loader")))
    assert game.state.vehicles["tank"].loaded is None


def test_loader_automatic_on_impulse_4(tmp_path):
    """Impulse 4: the unloaded gun is loaded without a roll (31.11.2)."""
    game = loader_game(tmp_path)
    at(game, 4)
    script(game, [])
    run(crew.activate(game, game.char("tank_loader")))
    assert game.state.vehicles["tank"].loaded is Ammo.AP


def test_loader_idle_on_impulse_1(tmp_path):
    """Impulse 1: the Loader does not load (31.11.2: Impulses 2, 3 or 4)."""
    game = loader_game(tmp_path)
    script(game, [])
    run(crew.activate(game, game.char("tank_loader")))
    assert game.state.vehicles["tank"].loaded is None


def test_loader_reads_start_of_impulse(tmp_path):
    """Loaded at the START of the Impulse: the Loader does nothing even if the gun fired since (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_loader", "load_he")
    at(game, 3)
    crew.impulse_start(game)
    game.state.vehicles["tank"].loaded = None  # the Gunner fired earlier this Impulse
    script(game, [])
    run(crew.activate(game, game.char("tank_loader")))
    assert game.state.vehicles["tank"].loaded is None
    assert "does nothing" in events(game, "load")[-1].text


def test_out_of_position_minus_2(tmp_path):
    """A crewman out of his own position: -2 on TQCs; a Co-driver driving has none (31.11.2 Relocate)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    v = game.state.vehicles["tank"]
    crew_orders.friendly_crew_order_options(game, game.char("tank_loader"))  # homes recorded at first use
    seats._homes(game)
    loader, cd, drv = game.char("tank_loader"), game.char("tank_co_driver"), game.char("tank_driver")
    v.seats["driver"].occupant, v.seats["co_driver"].occupant = cd.id, None
    drv.seat, cd.seat = None, "driver"
    assert ("out of position", -2) not in seats.crew_tq_modifiers(game, v, cd)
    v.seats["gunner"].occupant, v.seats["loader"].occupant = loader.id, None
    game.char("tank_gunner").seat, loader.seat = None, "gunner"
    assert ("out of position", -2) in seats.crew_tq_modifiers(game, v, loader)


# ---------------------------------------------------------------------------
# Hatches, Bail Out, Relocate (C2 31.8, 31.11.2)


def test_button_open_up_flips_on_impulse_3(tmp_path):
    """Button/Open Up: the hatch flips when he activates on Impulse 3, not before (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_loader", "button_open_up")
    seat = game.state.vehicles["tank"].seats["loader"]
    for imp in (1, 2):
        at(game, imp)
        run(crew.activate(game, game.char("tank_loader")))
        assert seat.hatch is Hatch.CLOSED
    at(game, 3)
    run(crew.activate(game, game.char("tank_loader")))
    assert seat.hatch is Hatch.OPEN


def test_button_up_closes_an_open_hatch(tmp_path):
    """Button/Open Up closes an open hatch on Impulse 3 (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=3)
    order(game, "tank_commander", "button_open_up")
    run(crew.activate(game, game.char("tank_commander")))
    assert game.state.vehicles["tank"].seats["commander"].hatch is Hatch.CLOSED


def test_jammed_hatch_does_not_flip(tmp_path):
    """A jammed hatch does not flip (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=3)
    game.state.vehicles["tank"].seats["loader"].hatch = Hatch.JAMMED_CLOSED
    order(game, "tank_loader", "button_open_up")
    run(crew.activate(game, game.char("tank_loader")))
    assert game.state.vehicles["tank"].seats["loader"].hatch is Hatch.JAMMED_CLOSED


def test_bail_out_closed_hatch_becomes_button_open_up(tmp_path):
    """Bail Out with a closed hatch becomes Button/Open Up on Impulse 1 (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_loader", "bail_out", "4")
    run(crew.activate(game, game.char("tank_loader")))
    assert game.char("tank_loader").order.order == "button_open_up"


def test_gunner_bail_out_panics_without_empty_seat(tmp_path):
    """A Gunner (no hatch) with every position full: Bail Out becomes Panic (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_gunner", "bail_out", "4")
    run(crew.activate(game, game.char("tank_gunner")))
    assert game.char("tank_gunner").order.order == "panic"


def test_gunner_bail_out_relocates_to_empty_hatch(tmp_path):
    """A Gunner's Bail Out becomes Relocate to the empty Loader's position, reached on Impulse 4 (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    v = game.state.vehicles["tank"]
    loader = game.char("tank_loader")
    v.seats["loader"].occupant, loader.vehicle, loader.seat, loader.status = None, None, None, Status.DEAD
    order(game, "tank_gunner", "bail_out", "4")
    run(crew.activate(game, game.char("tank_gunner")))
    assert game.char("tank_gunner").order.order == "relocate"
    at(game, 4)
    run(crew.activate(game, game.char("tank_gunner")))
    assert game.char("tank_gunner").seat == "loader" and v.seats["loader"].occupant == "tank_gunner"
    assert v.seats["gunner"].occupant is None


def test_no_bail_out_of_moving_afv(tmp_path):
    """AFV crew may not bail out of a moving AFV: Panic (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_driver", "crawl", "1")
    order(game, "tank_commander", "bail_out", "4")
    run(crew.activate(game, game.char("tank_commander")))
    assert game.char("tank_commander").order.order == "panic"


def test_bail_out_placed_on_impulse_3_moves_on_4(tmp_path):
    """Bail Out: on the map in the vehicle's hex on Impulse 3, one hex on Impulse 4 (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_driver", "spot")
    cmd = order(game, "tank_commander", "bail_out", "4")
    v = game.state.vehicles["tank"]
    for imp in (1, 2):
        at(game, imp)
        run(crew.activate(game, cmd))
        assert cmd.vehicle == "tank"
    at(game, 3)
    run(crew.activate(game, cmd))
    assert cmd.vehicle is None and cmd.seat is None and cmd.hex == v.hex
    assert v.seats["commander"].occupant is None and "tank_commander" not in v.crew_ids()
    at(game, 4)
    run(game._activate(cmd), ["no", "move"])
    assert cmd.hex == game.board.neighbour_hex(v.hex, 4)


def test_enemy_bail_out_moves_along_a_fresh_card_rout(tmp_path):
    """Enemy crew bailing out move 1 hex on Impulse 4 along the rout string of a drawn card (31.11.2)."""
    game = new_game(tmp_path, vehicles=[panzer()], impulse=3)
    order(game, "pz_driver", "emergency_stop")
    cmd = order(game, "pz_commander", "bail_out")
    card = game.enemy_deck.in_draw_pile()[0]
    game.dice.source = ScriptedSource([], cards={"enemy": [card]}, fallback=1)
    run(crew.activate(game, cmd))
    rout = game.data.enemy_deck.card(card).rout
    assert cmd.vehicle is None and cmd.order.directions == rout and card in game.enemy_deck.discards
    at(game, 4)
    run(game._activate(cmd))
    assert cmd.hex == game.board.neighbour_hex(Hex.parse("17.10"), rout.slots[0])


def jeep_game(tmp_path, speed: str = "ahead_slow") -> Game:
    jeep = {
        "id": "jp",
        "type": "jeep",
        "side": "friendly",
        "hex": "17.10",
        "facing": 1,
        "crew": {"driver": "d1"},
        "passengers": {"passenger_1": "p1"},
    }
    game = new_game(tmp_path, vehicles=[jeep], friendly=[man("d1", "17.10"), man("p1", "17.10")], impulse=3)
    order(game, "d1", speed, "1")
    order(game, "p1", "bail_out", "4")
    return game


def test_bail_out_of_moving_jeep_tqc_pass(tmp_path):
    """Bailing out at Ahead Slow: TQC at TQ 5 + 1 = 6 passes and he keeps Bail Out (31.11.2)."""
    game = jeep_game(tmp_path)
    script(game, [6])
    run(crew.activate(game, game.char("p1")))
    p1 = game.char("p1")
    assert p1.vehicle is None and p1.order.order == "bail_out"
    assert events(game, "check")[-1].data["target"] == 6


def test_bail_out_of_moving_jeep_tqc_fail_ducks_back(tmp_path):
    """Failing the bail-out TQC: Duck Back; he is out all the same (31.11.2)."""
    game = jeep_game(tmp_path)
    script(game, [7])
    run(crew.activate(game, game.char("p1")))
    assert game.char("p1").vehicle is None and game.char("p1").order.order == "duck_back"


def test_bail_out_of_moving_jeep_natural_9_wounds(tmp_path):
    """A 9 on the bail-out TQC: Duck Back and a wound draw (31.11.2)."""
    game = jeep_game(tmp_path, speed="fast")
    light = next(
        c.id for c in game.data.friendly_deck.cards if c.stamp is not None and c.stamp.value == "light"
    )
    if light not in game.friendly_deck.in_draw_pile():
        pytest.skip("the light-wound card is in the starting hand")
    game.dice.source = ScriptedSource([9], cards={"friendly": [light]}, fallback=1)
    run(crew.activate(game, game.char("p1")))
    p1 = game.char("p1")
    assert events(game, "wound_draw") and p1.wounds == [Wound.LIGHT] and p1.order.order == "duck_back"
    assert events(game, "check")[0].data["modifier"] == -2


def test_bail_out_limit_four_highest_numbers(tmp_path):
    """At most 4 bail out of a Half-Track a turn, highest numbers first; the rest Relocate (31.11.2)."""
    ht = {
        "id": "ht",
        "type": "m3a1_half_track",
        "side": "friendly",
        "hex": "17.10",
        "facing": 1,
        "crew": {"driver": "d1"},
        "passengers": {f"passenger_{i}": f"p{i}" for i in range(1, 6)},
    }
    riders = [man(f"p{i}", "17.10") for i in range(1, 6)]
    game = new_game(tmp_path, vehicles=[ht], friendly=[man("d1", "17.10"), *riders])
    for i in range(1, 6):
        order(game, f"p{i}", "bail_out", "4")
    for i in range(1, 6):
        run(crew.activate(game, game.char(f"p{i}")))
    assert game.char("p1").order.order == "relocate"
    assert all(game.char(f"p{i}").order.order == "bail_out" for i in range(2, 6))


def test_friendly_relocate_to_empty_seat(tmp_path):
    """Relocate on Impulse 4: a Friendly crewman moves to the empty position he picks (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=4)
    v = game.state.vehicles["tank"]
    cd = game.char("tank_co_driver")
    v.seats["co_driver"].occupant, cd.vehicle, cd.seat, cd.status = None, None, None, Status.DEAD
    loader = order(game, "tank_loader", "relocate")
    asked = run(crew.activate(game, loader), ["seat:co_driver"])
    assert asked[0].keys == ("seat:co_driver", "stay")
    assert loader.seat == "co_driver" and v.seats["co_driver"].occupant == loader.id
    assert game.state.teams["tank"].members.index(loader.id) == len(v.crew_ids()) - 1


def test_relocate_swap(tmp_path):
    """Two crewmen on Relocate swap positions (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=4)
    loader, cd = order(game, "tank_loader", "relocate"), order(game, "tank_co_driver", "relocate")
    run(crew.activate(game, loader), ["swap:co_driver"])
    run(crew.activate(game, cd))
    assert loader.seat == "co_driver" and cd.seat == "loader"


# ---------------------------------------------------------------------------
# Emergency Stop (C2 31.2, 31.11.2)


def stop_game(tmp_path) -> Game:
    game = new_game(tmp_path, vehicles=[panzer()], impulse=2)
    for pos, oid in (
        ("driver", "crawl"),
        ("commander", "spot"),
        ("gunner", "fire_main_gun"),
        ("loader", "load_he"),
        ("co_driver", "aimed_fire"),
    ):
        order(game, f"pz_{pos}", oid, "1" if oid == "crawl" else None)
    return game


def orders_of_crew(game: Game) -> dict[str, str]:
    return {p: game.char(f"pz_{p}").order.order for p in ("commander", "gunner", "loader", "co_driver")}


def test_emergency_stop_at_1_hex_keeps_orders(tmp_path):
    """Stopping at 1 hex: every crewman keeps his order, no roll (31.11.2)."""
    game = stop_game(tmp_path)
    script(game, [])
    emergency_stop.emergency_stop(
        game, game.state.vehicles["pz"], game.char("pz_driver"), reason="test", hexes=1
    )
    assert game.char("pz_driver").order.order == "emergency_stop"
    assert orders_of_crew(game) == {
        "commander": "spot",
        "gunner": "fire_main_gun",
        "loader": "load_he",
        "co_driver": "aimed_fire",
    }


def test_emergency_stop_at_2_hexes_tqc(tmp_path):
    """Stopping at 2 hexes: each crewman's TQC; a failure gives Panic (closed) (31.11.2)."""
    game = stop_game(tmp_path)
    script(game, [0, 9, 0, 8])
    emergency_stop.emergency_stop(
        game, game.state.vehicles["pz"], game.char("pz_driver"), reason="test", hexes=2
    )
    assert orders_of_crew(game) == {
        "commander": "spot",
        "gunner": "panic",
        "loader": "load_he",
        "co_driver": "panic",
    }


def test_emergency_stop_at_3_hexes_no_one_keeps(tmp_path):
    """Stopping at 3 hexes: no crewman keeps his order: Duck Back (open hatch) or Panic (closed) (31.11.2)."""
    game = stop_game(tmp_path)
    script(game, [])
    emergency_stop.emergency_stop(
        game, game.state.vehicles["pz"], game.char("pz_driver"), reason="test", hexes=3
    )
    assert orders_of_crew(game) == {
        "commander": "duck_back",
        "gunner": "panic",
        "loader": "panic",
        "co_driver": "panic",
    }


def test_emergency_stop_speed_from_order(tmp_path):
    """By default the speed is the order's hexes this Impulse: Ahead Slow on Impulse 3 = 2, TQCs (31.11.2)."""
    game = stop_game(tmp_path)
    at(game, 3)
    order(game, "pz_driver", "ahead_slow", "1")
    script(game, [0, 0, 0, 0])
    emergency_stop.emergency_stop(game, game.state.vehicles["pz"], game.char("pz_driver"), reason="test")
    assert events(game, "emergency_stop")[0].data["hexes"] == 2 and len(events(game, "check")) == 4


# ---------------------------------------------------------------------------
# Turret (C2 31.6)


def turret_game(tmp_path, target_hex: str) -> tuple[Game, list]:
    game = new_game(
        tmp_path, vehicles=[panzer()], enemy=[], friendly=[man("f1", target_hex, revealed=True)], impulse=2
    )
    v = game.state.vehicles["pz"]
    v.seats["commander"].marker, v.seats["commander"].marker_priority = Hex.parse(target_hex), 2
    order(game, "pz_gunner", "fire_main_gun")
    return game, []


def test_turret_turns_to_commanders_marker_instead_of_firing(tmp_path, hooks):
    """The Commander's marker out of the turret's front arc: the turret turns 1 hexside, no fire (31.6)."""
    game, fired = turret_game(tmp_path, "21.11")
    assert wedge_directions(Hex.parse("17.10"), Hex.parse("21.11"), game.board.map.stagger)[0] in (2, 3)

    def fake(game, vehicle, ch):
        fired.append(ch.id)
        yield from ()

    hooks[("vehicle_combat", "fire_main_gun")] = fake
    script(game, [])
    run(crew.activate(game, game.char("pz_gunner")))
    v = game.state.vehicles["pz"]
    assert v.turret == 2 and v.facing == 1 and fired == [] and v.loaded is Ammo.HE
    assert events(game, "turret_turn") and events(game, "no_fire")


def test_turret_on_target_fires(tmp_path, hooks):
    """With the marker in the turret's front arc the Gunner fires (31.9.4)."""
    game, fired = turret_game(tmp_path, "17.05")

    def fake(game, vehicle, ch):
        fired.append(ch.id)
        yield from ()

    hooks[("vehicle_combat", "fire_main_gun")] = fake
    script(game, [])
    run(crew.activate(game, game.char("pz_gunner")))
    assert game.state.vehicles["pz"].turret == 1 and fired == ["pz_gunner"]


def test_friendly_turret_turn_is_a_choice(tmp_path):
    """A Friendly Gunner with a fire order may turn the turret 1 hexside; the turn replaces firing (31.6)."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=2)
    order(game, "tank_gunner", "fire_main_gun")
    asked = run(crew.activate(game, game.char("tank_gunner")), ["turn_2"])
    assert asked[0].kind is DecisionKind.ORDER_TARGET and set(asked[0].keys) == {"no", "turn_2", "turn_6"}
    assert game.state.vehicles["tank"].turret == 2 and events(game, "no_fire")


# ---------------------------------------------------------------------------
# Spotting and Target Markers (C2 31.7)


def spot_game(tmp_path) -> Game:
    """A Panzer in 17.10 facing 1; hidden Friendlies 4 hexes ahead (Aimed Fire) and 5 behind."""
    game = new_game(
        tmp_path, vehicles=[panzer()], enemy=[], friendly=[man("f1", "17.06"), man("f2", "17.15")]
    )
    order(game, "f1", "aimed_fire")
    return game


def test_closed_hatch_spots_at_minus_2(tmp_path):
    """A buttoned-up crewman spots at -2 (C2 31.7.3)."""
    game = spot_game(tmp_path)
    order(game, "pz_gunner", "fire_main_gun")
    script(game, [9])
    run(crew.activate(game, game.char("pz_gunner")))
    ev = events(game, "spot")[-1]
    assert ev.data["target"] == "f1" and ev.data["extra"] == {"closed hatch": -2}


def test_closed_hatch_penalty_negated_by_adjacent_marker(tmp_path):
    """Another crewman's marker in or adjacent to the target negates the -2 completely (C2 31.7.3)."""
    game = spot_game(tmp_path)
    game.state.vehicles["pz"].seats["commander"].marker = Hex.parse("17.05")
    order(game, "pz_co_driver", "no_order")
    script(game, [9])
    run(crew.activate(game, game.char("pz_co_driver")))
    ev = events(game, "spot")[-1]
    assert list(ev.data["extra"].values()) == [0] and "negated" in ev.text


def test_spot_order_plus_1_open_hatch(tmp_path):
    """An open-hatch Commander with a Spot order spots at +1 and no hatch penalty (C2 31.7.3)."""
    game = spot_game(tmp_path)
    order(game, "pz_commander", "spot")
    script(game, [9, 9])
    run(crew.activate(game, game.char("pz_commander")))
    evs = events(game, "spot")
    assert {e.data["target"] for e in evs} == {"f1", "f2"}  # 360° from the open hatch
    assert all(e.data["extra"] == {"Spot order": 1} for e in evs)


def test_spotting_once_per_activation(tmp_path):
    """The spotting segment runs once per activation: a second activation this Impulse rolls nothing."""
    game = spot_game(tmp_path)
    order(game, "pz_commander", "spot")
    script(game, [9, 9])
    run(crew.activate(game, game.char("pz_commander")))
    run(crew.activate(game, game.char("pz_commander")))
    assert len(events(game, "spot")) == 2


def test_closed_driver_sees_front_only(tmp_path):
    """A buttoned-up Driver has LOS to the front arc only: the man behind is not tried (C2 31.7.3)."""
    game = spot_game(tmp_path)
    order(game, "pz_driver", "emergency_stop")
    script(game, [9])
    run(crew.activate(game, game.char("pz_driver")))
    assert [e.data["target"] for e in events(game, "spot")] == ["f1"]


def test_friendly_marker_decision(tmp_path):
    """A Friendly Commander places his Target Marker as chosen, on or next to a Known enemy (31.7.5)."""
    game = new_game(tmp_path, vehicles=[sherman()], enemy=[man("e1", "17.05", revealed=True)])
    order(game, "tank_commander", "spot")
    asked = run(crew.activate(game, game.char("tank_commander")), ["17.05"])
    assert (
        asked[0].kind is DecisionKind.ORDER_TARGET and asked[0].keys[0] == "17.05" and "none" in asked[0].keys
    )
    assert game.state.vehicles["tank"].seats["commander"].marker == Hex.parse("17.05")


def test_friendly_marker_move_needs_tqc(tmp_path):
    """Moving a Friendly marker needs a TQC; a failure leaves it (31.7.5)."""
    game = new_game(tmp_path, vehicles=[sherman()], enemy=[man("e1", "17.05", revealed=True)])
    seat = game.state.vehicles["tank"].seats["commander"]
    seat.marker = Hex.parse("17.05")
    order(game, "tank_commander", "spot")
    script(game, [9])
    asked = run(crew.activate(game, game.char("tank_commander")), ["17.04"])
    assert asked[0].keys[0] == "keep" and seat.marker == Hex.parse("17.05")
    at(game, 2)
    script(game, [0])
    run(crew.activate(game, game.char("tank_commander")), ["17.04"])
    assert seat.marker == Hex.parse("17.04")


def test_marker_on_opposing_afv_without_roll(tmp_path):
    """No marker and an opposing AFV in LOS: a Friendly's marker goes on it, no roll (31.7.5)."""
    game = new_game(tmp_path, vehicles=[sherman(), panzer(hex_="17.04", facing=4)], enemy=[])
    order(game, "tank_commander", "spot")
    script(game, [])
    asked = run(crew.activate(game, game.char("tank_commander")))
    assert asked == [] and game.state.vehicles["tank"].seats["commander"].marker == Hex.parse("17.04")


def test_panic_removes_marker(tmp_path):
    """A crewman with Panic loses his Target Marker (C2 31.7.4)."""
    game = new_game(tmp_path, vehicles=[sherman()], enemy=[man("e1", "17.05", revealed=True)])
    seat = game.state.vehicles["tank"].seats["gunner"]
    seat.marker = Hex.parse("17.05")
    order(game, "tank_gunner", "panic")
    run(crew.activate(game, game.char("tank_gunner")))
    assert seat.marker is None


def test_marker_removed_when_nothing_in_los(tmp_path):
    """A marker whose owner sees no Known opponent is removed (C2 31.7.4)."""
    game = new_game(tmp_path, vehicles=[sherman()], enemy=[man("e1", "17.15", revealed=True)])
    seat = game.state.vehicles["tank"].seats["gunner"]  # turret front only: 17.15 is behind
    seat.marker = Hex.parse("17.05")
    order(game, "tank_gunner", "spot")
    run(crew.activate(game, game.char("tank_gunner")))
    assert seat.marker is None


# ---------------------------------------------------------------------------
# Commander's orders and the End Phase (C2 31.11.2, 28.2)


def test_direct_firing_flag(tmp_path):
    """Direct Firing marks the vehicle for +1 WS this turn (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    order(game, "tank_commander", "direct_firing")
    run(crew.activate(game, game.char("tank_commander")))
    assert game.state.vehicles["tank"].acted["direct_firing"] is True


def test_smoke_grenade_from_hatch_on_impulse_3(tmp_path):
    """Smoke Grenade: a smoke grenade marker in the vehicle's hex on Impulse 3 (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=3)
    order(game, "tank_commander", "smoke_grenade_hatch")
    run(crew.activate(game, game.char("tank_commander")))
    assert game.state.markers.grenades[-1]["kind"] == "smoke_grenade"
    assert game.state.markers.grenades[-1]["hex"] == "17.10"


def test_smoke_dischargers_and_fading_at_end_phase(tmp_path, hooks):
    """Smoke Dischargers: Smoke next to the vehicle on Impulse 3, Fading around it at turn end (31.11.2)."""
    game = new_game(tmp_path, vehicles=[panzer()], impulse=3)
    hooks[("crew_ai", "smoke_discharger_hex")] = lambda game, v: game.board.neighbour_hex(v.hex, 1)
    order(game, "pz_commander", "smoke_dischargers")
    run(crew.activate(game, game.char("pz_commander")))
    h = game.board.neighbour_hex(Hex.parse("17.10"), 1)
    assert game.state.markers.smoke[h] == ["smoke"]
    crew.end_phase(game)
    assert game.state.markers.smoke[game.board.neighbour_hex(h, 1)] == ["fading"]
    assert game.state.vehicles["pz"].acted == {}


def test_end_phase_clears_vehicle_state(tmp_path):
    """End Phase: per-turn vehicle state and hexes moved are reset (31.11.2)."""
    game = new_game(tmp_path, vehicles=[sherman()])
    v = game.state.vehicles["tank"]
    v.acted["direct_firing"], v.moved_this_impulse = True, 2
    crew.end_phase(game)
    assert v.acted == {} and v.moved_this_impulse == 0


def test_mired_jeep_freed_with_tqc_minus_3(tmp_path):
    """A Mired Jeep's Driver frees it on a TQC-3 in the End Phase (C2 28.2)."""
    game = jeep_game(tmp_path)
    v = game.state.vehicles["jp"]
    v.mired = True
    script(game, [2])
    crew.end_phase(game)
    assert not v.mired and events(game, "check")[-1].data["target"] == 2


# ---------------------------------------------------------------------------
# With the Enemy crew module: the example of play (C2 32)


def test_example_of_play_impulse_2_with_crew_ai(tmp_path, monkeypatch):
    """Example of play, Impulse 2: the Commander spots, marks the Light AT team, the Driver stops (31.2)."""
    from solo.enemy import emergency_stop as enemy_emergency_stop
    from solo.enemy import target_markers

    if not hasattr(target_markers, "place_enemy_marker") or not hasattr(
        enemy_emergency_stop, "enemy_emergency_stop"
    ):
        pytest.skip("crew_ai has not landed")
    game = make_game(tmp_path, "example_of_play")
    game.state.flow.phase = Phase.ACTION
    v = game.state.vehicles["panzer"]
    order(game, "buttermann", "fire_light_at")
    order(game, "douglas", "load_light_at")
    order(game, "panzer_commander", "spot")
    order(game, "panzer_driver", "crawl", "1")
    at(game, 1)
    for cid in ("panzer_commander", "panzer_driver"):
        run(crew.activate(game, game.char(cid)))
    assert v.hex == Hex.parse("15.11") and v.seats["commander"].marker is None
    at(game, 2)
    # Roster order, as printed: Buttermann 6 spotted, Douglas 9 fails; then the Driver's
    # Emergency Stop TQC 5 against TQ 5 + LDR 2.
    game.dice.source = ScriptedSource([6, 9, 5], fallback=1)
    for cid in ("panzer_commander", "panzer_driver"):
        run(crew.activate(game, game.char(cid)))
    assert game.char("buttermann").revealed and not game.char("douglas").revealed
    assert v.seats["commander"].marker == Hex.parse("20.08")
    assert game.char("panzer_driver").order.order == "emergency_stop" and v.hex == Hex.parse("15.11")


def test_closed_hatch_marker_option_minus_1_reads_31_8(tmp_path):
    """Option closed_hatch_marker=minus_1 (C2 31.8): a crewmate's marker on the target makes the -2 a -1."""
    game = spot_game(tmp_path)
    game.options = attrs.evolve(game.options, closed_hatch_marker="minus_1")
    game.state.vehicles["pz"].seats["commander"].marker = Hex.parse("17.06")
    order(game, "pz_co_driver", "no_order")
    script(game, [9])
    run(crew.activate(game, game.char("pz_co_driver")))
    ev = events(game, "spot")[-1]
    assert ev.data["target"] == "f1" and list(ev.data["extra"].values()) == [-1]


def test_closed_hatch_marker_option_minus_1_needs_the_marker_on_the_target(tmp_path):
    """With minus_1 (C2 31.8) a marker only adjacent to the target leaves the full -2."""
    game = spot_game(tmp_path)
    game.options = attrs.evolve(game.options, closed_hatch_marker="minus_1")
    game.state.vehicles["pz"].seats["commander"].marker = Hex.parse("17.05")
    order(game, "pz_co_driver", "no_order")
    script(game, [9])
    run(crew.activate(game, game.char("pz_co_driver")))
    assert events(game, "spot")[-1].data["extra"] == {"closed hatch": -2}


def test_closed_hatch_marker_option_takes_only_the_two_readings():
    """closed_hatch_marker is negated (default, 31.7.3) or minus_1 (31.8); anything else is refused."""
    from solo.core.options import Options

    assert Options().closed_hatch_marker == "negated"
    assert Options.from_dict({"closed_hatch_marker": "minus_1"}).closed_hatch_marker == "minus_1"
    with pytest.raises(ValueError, match="closed_hatch_marker takes one of negated, minus_1"):
        Options.from_dict({"closed_hatch_marker": "minus_2"})
