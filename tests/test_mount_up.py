"""Mount Up (C2 31.11.2) and the Drive skill (31.3): who may mount which seat, the Impulse 2 move into the
vehicle's hex, getting in on Impulse 4 or, through a closed hatch, at the end of the turn.

Map: tests/data/vehicle_open.yaml (all open). Helpers from tests/test_crew.py."""

from __future__ import annotations

import contextlib

from test_crew import events, man, new_game, order, sherman

from solo.core.hexes import Hex
from solo.rules.state import Side
from solo.rules.vehicles import mount_up, seats
from solo.rules.vehicles.state import Hatch

JEEP_HEX = "17.10"


def jeep(**kw) -> dict:
    return {"id": "jp", "type": "jeep", "side": "friendly", "hex": JEEP_HEX, "facing": 1, **kw}


def adjacent(game, h: str = JEEP_HEX, d: int = 4) -> Hex:
    return game.board.neighbour_hex(Hex.parse(h), d)


def jeep_game(tmp_path, *, men_at: int | None = 4, driver: str | None = "d1", **kw):
    """A Friendly Jeep in 17.10 (Driver d1 on Spot: stationary), p1 one hex away in direction ``men_at``."""
    crew = {"driver": driver} if driver else {}
    friendly = [man("d1", JEEP_HEX), man("p1", JEEP_HEX, **kw)]
    game = new_game(tmp_path, vehicles=[jeep(crew=crew)], friendly=friendly)
    seats._homes(game)  # set-up positions, as the game records them at its first crew question
    p1 = game.char("p1")
    if men_at is not None:
        p1.hex = adjacent(game, d=men_at)
    if driver:
        order(game, "d1", "spot")
    return game


def test_places_offered_within_1_hex_of_a_stationary_vehicle(tmp_path):
    """A man on foot 1 hex from a stationary Jeep may mount either passenger seat, not the co-driver's."""
    game = jeep_game(tmp_path)
    keys = [k for k, _ in mount_up.mount_places(game, game.char("p1"))]
    assert keys == ["vehicle:jp|passenger_1", "vehicle:jp|passenger_2"]


def test_no_places_two_hexes_away_or_moving_or_enemy(tmp_path):
    """2 hexes away, the Jeep moving (its Driver on a speed order), or an Enemy: no Mount Up (31.11.2)."""
    game = jeep_game(tmp_path)
    p1 = game.char("p1")
    p1.hex = game.board.neighbour_hex(p1.hex, 4)
    assert mount_up.mount_places(game, p1) == []
    p1.hex = adjacent(game)
    order(game, "d1", "ahead_slow", "1")
    assert mount_up.mount_places(game, p1) == []
    order(game, "d1", "emergency_stop")
    assert mount_up.mount_places(game, p1) != []
    p1.side = Side.ENEMY
    assert mount_up.mount_places(game, p1) == []


def test_no_passenger_on_an_afv(tmp_path):
    """No Character may ride on an AFV (31.3): a man on foot next to a Sherman gets no place."""
    game = new_game(tmp_path, vehicles=[sherman()], friendly=[man("p1", "17.11")])
    for pos in ("commander", "driver", "gunner", "loader", "co_driver"):
        order(game, f"tank_{pos}", "spot")
    assert mount_up.mount_places(game, game.char("p1")) == []


def test_move_on_impulse_2_and_in_on_impulse_4(tmp_path):
    """Impulse 2: one hex into the Jeep's hex; Impulse 4: in the passenger seat (no hatch) (31.11.2)."""
    game = jeep_game(tmp_path)
    p1 = order(game, "p1", "mount_up", target="vehicle:jp|passenger_2")
    game.state.flow.impulse = 2
    mount_up.mount_up_step(game, p1)
    assert p1.hex == Hex.parse(JEEP_HEX) and p1.vehicle is None
    game.state.flow.impulse = 4
    mount_up.mount_up_step(game, p1)
    v = game.state.vehicles["jp"]
    assert p1.vehicle == "jp" and p1.seat == "passenger_2" and v.seats["passenger_2"].occupant == "p1"
    assert events(game, "mount_up")[-1].data["done"] is True


def test_vehicle_gone_he_stays_on_foot(tmp_path):
    """The Jeep drove off before Impulse 2: he does not move and stays on foot (house reading)."""
    game = jeep_game(tmp_path)
    p1 = order(game, "p1", "mount_up", target="vehicle:jp|passenger_1")
    start = p1.hex
    game.state.vehicles["jp"].hex = Hex.parse("20.10")
    game.state.flow.impulse = 2
    mount_up.mount_up_step(game, p1)
    assert p1.hex == start and p1.vehicle is None
    assert events(game, "mount_up")[-1].data["done"] is False


def test_closed_hatch_gets_in_at_the_end_of_the_turn(tmp_path):
    """A bailed-out Sherman Commander mounting through his closed hatch gets in at the end of the turn."""
    tank = sherman(hatches={"commander": "closed"})
    game = new_game(tmp_path, vehicles=[tank], friendly=[man("f0", "33.19")])
    seats._homes(game)
    v = game.state.vehicles["tank"]
    cmd = game.char("tank_commander")
    v.seats["commander"].occupant = None
    cmd.vehicle, cmd.seat, cmd.hex = None, None, adjacent(game)
    for pos in ("driver", "gunner", "loader", "co_driver"):
        order(game, f"tank_{pos}", "spot")
    keys = [k for k, _ in mount_up.mount_places(game, cmd)]
    assert keys[0] == "vehicle:tank|commander"  # his own position first
    order(game, "tank_commander", "mount_up", target=keys[0])
    for imp in (2, 4):
        game.state.flow.impulse = imp
        mount_up.mount_up_step(game, cmd)
    assert cmd.vehicle is None and cmd.hex == v.hex and v.seats["commander"].hatch is Hatch.OPEN
    mount_up.end_phase(game)
    assert cmd.vehicle == "tank" and cmd.seat == "commander" and v.seats["commander"].occupant == cmd.id


def test_drive_skill_for_the_drivers_seat(tmp_path):
    """A Friendly Jeep's empty Driver's position: only a man with the Drive skill, or its own Driver,
    may mount it (31.3)."""
    game = jeep_game(tmp_path, driver=None)
    p1 = game.char("p1")
    p1.team = "jp"  # riding with the Jeep's team, but not its Driver
    assert "vehicle:jp|driver" not in [k for k, _ in mount_up.mount_places(game, p1)]
    p1.skills = ("drive",)
    assert "vehicle:jp|driver" in [k for k, _ in mount_up.mount_places(game, p1)]


def test_engine_offers_mount_up_and_asks_the_seat(tmp_path):
    """Step 2: a man on foot next to a stationary Jeep is offered Mount Up, then asked the seat."""
    game = jeep_game(tmp_path)
    game.char("p1").order = None
    gen = game._friendly_order_phase()
    d = next(gen)
    while d.actor != "p1":
        d = gen.send(d.keys[0])
    assert "mount_up" in d.keys
    d = gen.send("mount_up")
    assert d.kind.value == "order_target" and d.keys[0] == "vehicle:jp|passenger_1"
    with contextlib.suppress(StopIteration):
        gen.send(d.keys[0])
    given = game.char("p1").order
    assert given.order == "mount_up" and given.target == "vehicle:jp|passenger_1"


def test_the_enemy_has_no_way_to_mount_up():
    """C2 31.11.3 reading: Enemy crewmen get their orders from the VOM and Enemy men on foot from the
    Enemy Order cards (base-rules §5.3); Mount Up is given only under 31.11.2 (Friendly vehicles):
    no card code names it and no VOM role lists it, so the Enemy never mounts up."""
    from conftest import house_data

    data = house_data()
    assert data.orders.get("mount_up").code is None
    assert data.vom.role_orders and all("mount_up" not in orders for _role, orders in data.vom.role_orders)
    card_orders = {
        data.orders.by_code(entry.code.value).id
        for card in data.enemy_deck.cards
        for table in (card.cover, card.open)
        for _row, entry in table.rows()
    }
    assert card_orders and "mount_up" not in card_orders
