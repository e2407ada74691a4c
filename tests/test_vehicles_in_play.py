"""Vehicles through the engine: Friendly crews get crew orders, the End Phase runs for vehicles,
blasts spare men inside armour (C2 31)."""

from conftest import house_data, make_game

from solo.engine.game import DecisionKind
from solo.playtest.invariants import check_state, watch
from solo.playtest.policies import RandomPolicy, SimplePolicy
from solo.rules import artillery

SHERMAN = {
    "id": "sherman_test",
    "name": "Sherman test",
    "map": "town",
    "turns": 3,
    "hand": 3,
    "wind": 1,
    "friendly": [
        {
            "id": "able",
            "name": "Able",
            "characters": [
                {
                    "id": "able_1",
                    "name": "Sgt Taylor",
                    "tq": 6,
                    "ldr": 2,
                    "weapons": [{"weapon": "m1_garand", "ws": 5}],
                    "hex": "15.16",
                },
            ],
        },
    ],
    "enemy": [
        {
            "id": "red",
            "name": "Red",
            "alert": True,
            "characters": [
                {
                    "id": "red_1",
                    "name": "Gefr. Weber",
                    "tq": 5,
                    "weapons": [{"weapon": "kar98k", "ws": 4}],
                    "hex": "15.05",
                },
            ],
        },
    ],
    "vehicles": [
        {
            "id": "sherman",
            "type": "m4a3_sherman",
            "side": "friendly",
            "hex": "15.15",
            "facing": 1,
            "loaded": "he",
            "hatches": {"commander": "open"},
        },
    ],
}


def _first_crew_order(game):
    while game.pending is not None:
        d = game.pending
        if d.kind is DecisionKind.GIVE_ORDER and game.char(d.actor).vehicle is not None:
            return d
        game.apply(SimplePolicy()(game, d))
    return None


def test_friendly_crew_get_crew_orders(tmp_path):
    """C2 31.11.2: a Friendly Commander is offered crew orders (Spot...), never infantry moves."""
    game = make_game(tmp_path, SHERMAN)
    d = _first_crew_order(game)
    assert d is not None
    assert "spot" in d.keys
    assert not {"sneak", "sprint", "evade"} & set(d.keys)


def test_friendly_driver_is_offered_speed_orders(tmp_path):
    """C2 31.11.2: the Driver's options are speed orders."""
    game = make_game(tmp_path, SHERMAN)
    while game.pending is not None:
        d = game.pending
        if d.kind is DecisionKind.GIVE_ORDER and d.actor == "sherman_driver":
            assert {"crawl", "ahead_slow"} <= set(d.keys)
            assert "sneak" not in d.keys
            return
        game.apply(SimplePolicy()(game, d))
    raise AssertionError("the Driver was never given an order")


def test_vehicle_turn_state_is_cleared_in_the_end_phase(tmp_path):
    """Step 5: a vehicle's per-turn state (turret turned, loads) does not carry into the next turn."""
    game = make_game(tmp_path, SHERMAN)
    v = game.state.vehicles["sherman"]
    v.acted["turret_turned"] = (1, 2)
    while game.pending is not None and game.state.flow.turn < 2:
        game.apply(SimplePolicy()(game, game.pending))
    assert "turret_turned" not in v.acted


def test_a_shell_on_a_tank_spares_the_crew_inside(tmp_path):
    """C2 31.10.12: a shell on an AFV's hex is resolved against the vehicle, not its closed crew."""

    game = make_game(tmp_path, SHERMAN)
    v = game.state.vehicles["sherman"]
    blasts = []
    game.listeners.append(lambda ev: blasts.append(ev) if ev.kind == "blast" else None)
    artillery._explode_shell(game, {"hex": str(v.hex), "calibre": "81mm"})
    crew = set(v.crew_ids())
    assert not [ev for ev in blasts if ev.actor in crew]


def test_friendly_vehicle_games_play_to_the_end_with_invariants(tmp_path):
    """A Friendly Sherman game plays to its end for a few seeds with every invariant checked."""
    for seed in (1, 2, 3):
        game = make_game(tmp_path, SHERMAN, seed=seed)
        watch(game)
        game.play(RandomPolicy(seed))
        check_state(game)
        assert game.over
    assert house_data().vehicles.get("m4a3_sherman") is not None
