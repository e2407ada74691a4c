"""C2 31.3 the Drive skill: "Friendly Jeeps, Trucks and Half-Tracks must be driven by a Friendly
Character. Randomly select a Driver from Combat!2 to use as a Driver and add it to your squad or you
can use a Character with the Drive Skill." A man with the skill may take an empty Driver's seat of a
Friendly Jeep, Truck or Half-Track by Mount Up (31.11.2) or Relocate (31.11.2), and only such a man
or the vehicle's own Driver.

Map: tests/data/vehicle_open.yaml. Helpers from tests/test_crew.py and tests/test_mount_up.py."""

from __future__ import annotations

from test_crew import man, new_game, order, run, sherman
from test_mount_up import JEEP_HEX, adjacent, jeep

from solo.core.hexes import Hex
from solo.rules.vehicles import crew, mount_up, seats


def _squad_and_empty_jeep(tmp_path, *, skills: tuple[str, ...] = ()):
    """A Friendly Jeep with no Driver in 17.10, squad man s1 (team Able, not the Jeep's) next to it."""
    game = new_game(tmp_path, vehicles=[jeep(crew={})], friendly=[man("s1", JEEP_HEX, skills=list(skills))])
    seats._homes(game)
    s1 = game.char("s1")
    s1.hex = adjacent(game)
    return game, s1


def _keys(game, ch) -> list[str]:
    return [k for k, _ in mount_up.mount_places(game, ch)]


def test_mount_up_driver_seat_only_with_the_drive_skill(tmp_path):
    """31.3 "or you can use a Character with the Drive Skill": a squad man (not the Jeep's team) is
    offered the empty Driver's seat by Mount Up with the skill, first; without it only passenger seats."""
    game, s1 = _squad_and_empty_jeep(tmp_path)
    assert _keys(game, s1) == ["vehicle:jp|passenger_1", "vehicle:jp|passenger_2"]
    s1.skills = ("drive",)
    assert _keys(game, s1) == ["vehicle:jp|driver", "vehicle:jp|passenger_1", "vehicle:jp|passenger_2"]


def test_mount_up_into_the_drivers_seat_makes_him_the_driver(tmp_path):
    """31.11.2 Mount Up with the Drive skill (31.3): in the Jeep's hex on Impulse 2, its Driver on
    Impulse 4 (the Jeep's Driver has no hatch)."""
    game, s1 = _squad_and_empty_jeep(tmp_path, skills=("drive",))
    order(game, "s1", "mount_up", target="vehicle:jp|driver")
    for imp in (2, 4):
        game.state.flow.impulse = imp
        mount_up.mount_up_step(game, s1)
    v = game.state.vehicles["jp"]
    assert s1.vehicle == "jp" and s1.seat == "driver" and v.seats["driver"].occupant == "s1"
    assert s1.hex == Hex.parse(JEEP_HEX)


def test_engine_window_offers_the_drivers_seat(tmp_path):
    """The Decision the window shows (31.11.2, 31.3): Mount Up, then the seat, the Driver's first."""
    game, _s1 = _squad_and_empty_jeep(tmp_path, skills=("drive",))
    gen = game._friendly_order_phase()
    d = next(gen)
    while d.actor != "s1":
        d = gen.send(d.keys[0])
    assert "mount_up" in d.keys
    d = gen.send("mount_up")
    assert d.kind.value == "order_target" and d.keys[0] == "vehicle:jp|driver"


def test_no_drivers_seat_on_an_enemy_jeep_or_an_afv(tmp_path):
    """31.3 is about Friendly Jeeps, Trucks and Half-Tracks; no Character may ride on an AFV: the
    Drive skill opens no Driver's seat of a Sherman."""
    tank = sherman()
    game = new_game(tmp_path, vehicles=[tank], friendly=[man("s1", "17.11", skills=["drive"])])
    v = game.state.vehicles["tank"]
    drv = game.char("tank_driver")
    v.seats["driver"].occupant, drv.vehicle, drv.seat = None, None, None
    for pos in ("commander", "gunner", "loader", "co_driver"):
        order(game, f"tank_{pos}", "spot")
    assert _keys(game, game.char("s1")) == []


def _jeep_with_riders(tmp_path, *, skills: tuple[str, ...] = ()):
    """A Friendly Jeep at 17.10 on Impulse 4: no Driver, co-driver c1 (the Jeep's team), passenger p1."""
    vehicle = jeep(crew={"co_driver": "c1"}, passengers={"passenger_1": "p1"})
    game = new_game(
        tmp_path,
        vehicles=[vehicle],
        friendly=[man("c1", JEEP_HEX), man("p1", JEEP_HEX, skills=list(skills))],
        impulse=4,
    )
    seats._homes(game)
    return game


def test_relocate_passenger_to_drivers_seat_needs_the_skill(tmp_path):
    """31.11.2 Relocate into the empty Driver's seat of a Friendly Jeep: a passenger with the Drive
    skill is offered it (and becomes the Driver); without the skill he is not (31.3)."""
    game = _jeep_with_riders(tmp_path)
    p1 = order(game, "p1", "relocate")
    asked = run(crew.activate(game, p1), ["stay"])
    assert all(k != "seat:driver" for d in asked for k in d.keys)
    game = _jeep_with_riders(tmp_path, skills=("drive",))
    p1 = order(game, "p1", "relocate")
    asked = run(crew.activate(game, p1), ["seat:driver"])
    assert "seat:driver" in asked[0].keys
    assert p1.seat == "driver" and game.state.vehicles["jp"].seats["driver"].occupant == "p1"


def test_relocate_crewman_to_drivers_seat_needs_the_skill(tmp_path):
    """31.3 "must be driven by a Friendly Character ... with the Drive Skill": the Jeep's co-driver,
    not its Driver, may not relocate into the empty Driver's seat without the skill; with it he may."""
    game = _jeep_with_riders(tmp_path)
    c1 = order(game, "c1", "relocate")
    asked = run(crew.activate(game, c1))
    assert all(k != "seat:driver" for d in asked for k in d.keys)
    assert c1.seat == "co_driver"
    game = _jeep_with_riders(tmp_path)
    c1 = game.char("c1")
    c1.skills = ("drive",)
    order(game, "c1", "relocate")
    run(crew.activate(game, c1), ["seat:driver"])
    assert c1.seat == "driver"


def test_own_driver_may_take_his_seat_back(tmp_path):
    """31.3: the vehicle's own Driver (his team is the Jeep, set up in the Driver's seat) needs no
    skill to take the empty Driver's seat by Mount Up."""
    game = new_game(tmp_path, vehicles=[jeep(crew={"driver": "d1"})], friendly=[man("d1", JEEP_HEX)])
    seats._homes(game)
    v = game.state.vehicles["jp"]
    d1 = game.char("d1")
    d1.team = "jp"
    v.seats["driver"].occupant, d1.vehicle, d1.seat, d1.hex = None, None, None, adjacent(game)
    assert seats.may_drive(game, d1, v)
    assert "vehicle:jp|driver" in _keys(game, d1)
    d1.team = "able"  # an Able man who sat there at set-up is not the Jeep's own Driver
    assert not seats.may_drive(game, d1, v)


def test_afv_co_driver_relocates_to_drivers_seat_without_skill(tmp_path):
    """31.11.2 Relocate: an AFV's Co-driver may take the Driver's position (no Drive skill is asked on
    an AFV, 31.3 speaks of Jeeps, Trucks and Half-Tracks)."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=4)
    v = game.state.vehicles["tank"]
    drv = game.char("tank_driver")
    v.seats["driver"].occupant, drv.vehicle, drv.seat = None, None, None
    cd = order(game, "tank_co_driver", "relocate")
    asked = run(crew.activate(game, cd), ["seat:driver"])
    assert "seat:driver" in asked[0].keys and cd.seat == "driver"


def test_tactical_bot_mounts_the_drivers_seat(tmp_path):
    """The tactical bot (31.3, 31.11.2): a squad man with the Drive skill next to a Friendly Jeep with
    no Driver is given Mount Up and picks the Driver's seat; without the skill he is not sent there."""
    from solo.core.decisions import DecisionKind
    from solo.playtest.tactical import TacticalPolicy
    from solo.playtest.tactical_transport import driver_for

    game, _s1 = _squad_and_empty_jeep(tmp_path, skills=("drive",))
    v = game.state.vehicles["jp"]
    game.char("e1").revealed = True
    assert driver_for(game, v) is None  # a Known enemy in sight: he does not get in
    game.char("e1").revealed = False
    assert driver_for(game, v) == "s1"
    bot = TacticalPolicy()
    gen = game._friendly_order_phase()
    d = next(gen)
    while d.actor != "s1":
        d = gen.send(bot(game, d))
    assert d.kind is DecisionKind.GIVE_ORDER and bot(game, d) == "mount_up"
    d = gen.send("mount_up")
    assert bot(game, d) == "vehicle:jp|driver"
    game, _s1 = _squad_and_empty_jeep(tmp_path)
    game.char("e1").revealed = False
    assert driver_for(game, game.state.vehicles["jp"]) is None
