"""Vehicle types, the Vehicle Order Matrix and the crew counters as data (C2 31.0-31.11, 32 example)."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.core.dice_expressions import DiceExpression
from solo.core.errors import DataError
from solo.core.hexes import Arc
from solo.core.resources import cards_dir
from solo.data.crew_counters import load_crews
from solo.data.orders import load_orders
from solo.data.tables import MoraleState
from solo.data.vehicle_type_files import load_vehicle_types
from solo.data.vehicle_types import (
    CREW_ACTIVATION_ORDER,
    ArmorZone,
    CrewCheck,
    DamageEffect,
    HatchState,
    Location,
    MountId,
    Role,
    Speed,
    VehicleKind,
    armor,
    damage,
    hit_location,
    position_sees,
)
from solo.data.vom import REQUIRED_VOM_COLUMNS, VomColumn, load_vom, modified_number, vom_column, vom_order
from solo.data.weapons import AmmoKind, load_weapons

CREW_ORDERS = (
    "spot", "direct_firing", "smoke_dischargers", "fire_main_gun", "load_he", "load_ap",
    "button_open_up", "relocate", "mount_up", "bail_out", "panic", "no_order",
)  # fmt: skip
"""The crew orders this module asks orders.yaml to define (see the report to the lead)."""

SHIPPED_TYPES = ("jeep", "m3a1_half_track", "m4a3_sherman", "opel_truck", "panzer_ivh")


@functools.cache
def _weapons():
    return load_weapons()


@functools.cache
def _types():
    return load_vehicle_types(weapons=_weapons())


@functools.cache
def _vom():
    return load_vom()


@functools.cache
def _crews():
    return load_crews(weapon_ids=[w.id for w in _weapons()])


def _break(path: Path, old: str, new: str) -> int:
    """Replace ``old`` once in the file at ``path``; return the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path.name}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


def _lines(exc: DataError) -> list[tuple[str, int | None]]:
    return [(p.path, p.line) for p in exc.problems]


@pytest.fixture
def vehicles_copy(tmp_path: Path) -> Path:
    d = tmp_path / "vehicles"
    shutil.copytree(cards_dir() / "vehicles", d, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return d


# --- shipped files -------------------------------------------------------------


def test_shipped_vehicle_types_load():
    """The five shipped vehicle types load and cross-check with the shipped weapons chart."""
    assert tuple(t.id for t in _types()) == SHIPPED_TYPES


def test_shipped_kinds():
    """Each shipped type is of the kind its file says (jeep, truck, half-track, two AFVs)."""
    kinds = {t.id: t.kind for t in _types()}
    assert kinds == {
        "jeep": VehicleKind.JEEP,
        "opel_truck": VehicleKind.TRUCK,
        "m3a1_half_track": VehicleKind.HALF_TRACK,
        "m4a3_sherman": VehicleKind.AFV,
        "panzer_ivh": VehicleKind.AFV,
    }


def test_shipped_vom_loads_with_known_and_requested_orders():
    """Every VOM order is in orders.yaml or among the crew orders requested from the lead."""
    known = {o.id for o in load_orders()} | set(CREW_ORDERS)
    vom = load_vom(order_ids=known)
    assert set(vom.order_ids()) <= known


def test_shipped_crews_load():
    """The crew counters load, their weapons are on the weapons chart, every pool is filled."""
    crews = _crews()
    for nation in ("german", "us"):
        for role in Role:
            assert crews.pool(nation, role), (nation, role)


# --- the C2 example of play (end of rule 32) -------------------------------------


def test_example_commander_73_no_target_open_spots():
    """Commander, No Target, OPEN, card 73 → Spot."""
    assert str(vom_order(_vom(), Role.COMMANDER, VomColumn.NO_TARGET_OPEN, 73, morale="normal")) == "spot"


def test_example_driver_47_crawls_in_direction_1():
    """Driver (hatch closed, no target), card 47 → Crawl 1."""
    cell = vom_order(_vom(), Role.DRIVER, VomColumn.NO_TARGET_BU, 47, morale="normal")
    assert cell.order == "crawl" and cell.directions is not None and cell.directions.directions == (1,)


@pytest.mark.parametrize("number", [1, 17, 43, 47, 53, 54])
def test_example_gunner_loader_co_driver(number):
    """Any card up to 54 gives Fire Main Gun, Load HE and Aimed Fire with the bow MG (BU, no target)."""
    vom = _vom()
    assert vom_order(vom, "gunner", "no_target_bu", number).order == "fire_main_gun"
    assert vom_order(vom, "loader", "no_target_bu", number).order == "load_he"
    cell = vom_order(vom, "co_driver", "no_target_bu", number)
    assert (cell.order, cell.weapon) == ("aimed_fire", MountId.BOW_MG)


def test_example_columns_follow_the_crew_hatches():
    """Commander open → OPEN; Driver, Loader, Co-driver closed and the hatchless Gunner → BU."""
    pz = _types().get("panzer_ivh")
    gunner = pz.position(Role.GUNNER)
    assert gunner.fixed_state is HatchState.CLOSED
    assert vom_column(pz.kind, target=False, hatch_open=True) is VomColumn.NO_TARGET_OPEN
    assert vom_column(pz.kind, target=False, hatch_open=gunner.fixed_state is HatchState.OPEN) is (
        VomColumn.NO_TARGET_BU
    )


def test_example_panzer_ivh_armor_characteristics():
    """The Panzer IVH armor block is the one printed in the example (normal / glancing)."""
    pz = _types().get("panzer_ivh")
    printed = {
        "turret_front": (6, 9),
        "turret_side": (5, 7),
        "turret_rear": (5, 7),
        "lower_hull_front": (9, 16),
        "upper_hull_front": (9, 16),
        "lower_hull_side": (3, 5),
        "upper_hull_side": (3, 5),
        "hull_rear": (2, 4),
    }
    assert {z.value: (armor(pz, z), armor(pz, z, glancing=True)) for z in ArmorZone} == printed


def test_example_panzer_ivh_top_speed_is_forward():
    """Top Speed: Forward (no Fast order)."""
    pz = _types().get("panzer_ivh")
    assert pz.top_speed is Speed.FORWARD and Speed.FAST not in pz.speeds


def test_example_side_43_is_a_glancing_lower_hull_hit():
    """%D 43 on the side → Lower Hull, glancing value 5; printed rows 25-64 as printed."""
    pz = _types().get("panzer_ivh")
    hit = hit_location(pz, Arc.SIDE, 43)
    assert (hit.location, hit.armor, hit.glancing, hit.damage) == (
        Location.LOWER_HULL,
        ArmorZone.LOWER_HULL_SIDE,
        True,
        "lower_hull",
    )
    assert armor(pz, hit.armor, hit.glancing) == 5
    printed = [(25, 32, "lower_hull", False), (33, 39, "upper_hull", False), (40, 44, "lower_hull", True)]
    for first, last, location, glancing in printed:
        rows = {hit_location(pz, "side", r) for r in range(first, last + 1)}
        assert len(rows) == 1
        (row,) = rows
        assert (row.rolls.first, row.rolls.last, row.location.value, row.glancing) == (
            first,
            last,
            location,
            glancing,
        )
    suspension = hit_location(pz, "side", 45)
    assert (suspension.location, suspension.mc, suspension.rolls.last) == (
        Location.SUSPENSION,
        (CrewCheck.ALL,),
        64,
    )


def test_example_bazooka_always_penetrates_the_glancing_side():
    """Penetration 7+1d6 (least 8) exceeds the glancing lower hull side value 5."""
    pz = _types().get("panzer_ivh")
    pen = _weapons().get("bazooka").ammo[0].penetration
    assert pen == DiceExpression.parse("7+1d6")
    assert armor(pz, ArmorZone.LOWER_HULL_SIDE, glancing=True) < 7 + 1


def test_example_lower_hull_4_kills_driver_and_co_driver():
    """Lower Hull column, d10 4: Driver and Co-driver KIA, ALL surviving crew take an MC."""
    row = damage(_types().get("panzer_ivh"), "lower_hull", 4)
    assert row.kia == (Role.DRIVER, Role.CO_DRIVER) and row.mc == (CrewCheck.ALL,)


def test_example_crew_counters_exist():
    """A German Commander TQ 5 LDR 2 and a Driver and Gunner of TQ 5 are in the pools."""
    crews = _crews()
    cmd, drv, gun = crews.get("de_cmd_brandt"), crews.get("de_drv_vogel"), crews.get("de_gun_adler")
    assert (cmd.tq, cmd.ldr, drv.tq, gun.tq) == (5, 2, 5, 5)
    assert cmd in crews.pool("german", "commander") and gun in crews.pool("german", "gunner")


def test_example_closed_hatches_see_only_the_front():
    """With closed hatches the Driver, Co-driver, Gunner and Loader spot only in the front arc."""
    pz = _types().get("panzer_ivh")
    for role in (Role.DRIVER, Role.CO_DRIVER, Role.LOADER):
        assert position_sees(pz, role, HatchState.CLOSED, 0)
        assert not any(position_sees(pz, role, HatchState.CLOSED, w) for w in (1, 2, 3, 4, 5))
    assert position_sees(pz, Role.GUNNER, None, 0)
    assert not position_sees(pz, Role.GUNNER, None, 1)
    assert all(position_sees(pz, Role.COMMANDER, HatchState.OPEN, w) for w in range(6))


def test_example_gunner_sees_after_the_turret_turns():
    """A target in hull wedge 1 is seen by the Gunner once the turret faces it (31.6)."""
    pz = _types().get("panzer_ivh")
    assert not position_sees(pz, Role.GUNNER, HatchState.CLOSED, 1, 1)
    assert position_sees(pz, Role.GUNNER, HatchState.CLOSED, 1, 0)


# --- LOS arcs, hatches, weapons (31.7-31.9) --------------------------------------


def test_open_hatch_arcs_of_an_afv():
    """Open: Driver and Co-driver front and sides; Loader front and right of the turret (31.7.3)."""
    pz = _types().get("panzer_ivh")
    assert pz.position("driver").sight(HatchState.OPEN) == (0, 1, 2, 4, 5)
    assert pz.position("co_driver").sight(HatchState.OPEN) == (0, 1, 2, 4, 5)
    assert pz.position("loader").sight(HatchState.OPEN) == (0, 1, 2)


def test_tank_gunners_have_no_hatch():
    """Tank Gunners have no hatch and bail out through the Loader's or Commander's (31.8, 31.11.2)."""
    for tid in ("panzer_ivh", "m4a3_sherman"):
        gunner = _types().get(tid).position(Role.GUNNER)
        assert not gunner.hatch and gunner.exits_via == (Role.LOADER, Role.COMMANDER)
        with pytest.raises(ValueError):
            gunner.sight(HatchState.OPEN)


def test_hatch_state_required_where_there_is_a_hatch():
    """Asking a hatched position's sight without a state is an error."""
    with pytest.raises(ValueError):
        _types().get("panzer_ivh").position("commander").sight(None)


def test_truck_and_half_track_sight():
    """Truck passengers 11-12 see the rear; the half-track cupola sees all round (31.7.2)."""
    truck, ht = _types().get("opel_truck"), _types().get("m3a1_half_track")
    assert truck.position("passenger_11").sight() == (3,)
    assert truck.position("passenger_1").sight() == ()
    assert truck.position("driver").sight() == (0, 1, 2, 4, 5)
    assert ht.position("cupola").sight() == (0, 1, 2, 3, 4, 5)


def test_half_track_passengers_fire_to_their_side():
    """Odd positions fire left, even right, never MGs (31.9.3)."""
    ht = _types().get("m3a1_half_track")
    for p in ht.passengers:
        assert p.fire_arcs == ((4, 5) if p.number % 2 else (1, 2))
        assert "mg" not in {k.value for k in p.fire_kinds}


def test_jeep_fifty_fired_by_passenger_1_or_2():
    """The Jeep's .50 cal is fired by passenger 1 or 2, all round (31.9.1)."""
    mg = _types().get("jeep").weapon("pintle_mg")
    assert mg is not None and mg.weapon == "m2_50cal"
    assert mg.fired_by == ("passenger_1", "passenger_2") and mg.arcs == (0, 1, 2, 3, 4, 5)


def test_sherman_main_gun_ap_penetration_is_5_plus_1d6():
    """The M4A3's main gun is the m4_75mm, AP penetration 5+1d6 (31.10.4)."""
    gun = _types().get("m4a3_sherman").main_gun
    assert gun is not None and gun.weapon == "m4_75mm"
    ap = next(a for a in _weapons().get(gun.weapon).ammo if a.kind is AmmoKind.AP)
    assert ap.penetration == DiceExpression.parse("5+1d6")
    assert gun.rounds is not None and gun.rounds.of(AmmoKind.HE) > 0 and gun.rounds.of(AmmoKind.AP) > 0


def test_afv_weapons_reference_weapons_yaml():
    """Main guns, coaxial and bow MGs reference the weapons chart by id."""
    pz, m4 = _types().get("panzer_ivh"), _types().get("m4a3_sherman")
    assert [(w.id.value, w.weapon) for w in pz.weapons] == [
        ("main_gun", "pziv_75mm"),
        ("coaxial_mg", "mg34"),
        ("bow_mg", "mg34"),
    ]
    assert {w.weapon for w in m4.weapons} == {"m4_75mm", "m1919", "m2_50cal"}


def test_crew_positions_listed_in_activation_order():
    """AFV crews are Commander, Driver, Gunner, Loader, Co-driver (31.1)."""
    for tid in ("panzer_ivh", "m4a3_sherman"):
        assert _types().get(tid).roles == CREW_ACTIVATION_ORDER


# --- table coverage -------------------------------------------------------------


@pytest.mark.parametrize("tid", SHIPPED_TYPES)
def test_hit_location_tables_cover_00_99_per_aspect(tid):
    """Every %D reading of every aspect gives a row, and the rows add up to exactly 100 readings."""
    vt = _types().get(tid)
    for aspect, rows in vt.hit_tables:
        assert sum(r.rolls.last - r.rolls.first + 1 for r in rows) == 100
        assert all(hit_location(vt, aspect, n) is not None for n in range(100))
    assert {a for a, _rows in vt.hit_tables} == set(Arc)


@pytest.mark.parametrize("tid", SHIPPED_TYPES)
def test_damage_tables_cover_0_9(tid):
    """Every damage column gives a row for each d10 face, ten faces exactly."""
    vt = _types().get(tid)
    assert vt.damage_columns
    for col in vt.damage_columns:
        assert sum(r.rolls.last - r.rolls.first + 1 for r in col.rows) == 10
        assert [damage(vt, col.id, d).rolls.first <= d for d in range(10)] == [True] * 10


def test_every_vom_column_covers_00_99():
    """Each role's required columns give a cell for every number 00-99."""
    vom = _vom()
    for role, columns in REQUIRED_VOM_COLUMNS.items():
        for column in columns:
            cells = [vom_order(vom, role, column, n) for n in range(100)]
            assert all(n in c.rows for n, c in enumerate(cells))


def test_lookups_reject_out_of_range_rolls():
    """A %D outside 0-99, a d10 outside 0-9 and a number outside 0-99 raise ValueError."""
    pz = _types().get("panzer_ivh")
    with pytest.raises(ValueError):
        hit_location(pz, "front", 100)
    with pytest.raises(ValueError):
        damage(pz, "turret", 10)
    with pytest.raises(ValueError):
        vom_order(_vom(), "commander", "no_target_bu", -1)


def test_missing_column_or_zone_is_a_key_error():
    """A Gunner has no Truck column; a Jeep has no armor."""
    with pytest.raises(KeyError):
        vom_order(_vom(), "gunner", "truck", 10)
    with pytest.raises(KeyError):
        armor(_types().get("jeep"), "hull_rear")


# --- VOM details ---------------------------------------------------------------


def test_morale_modifier_and_clamp():
    """Aggressive -10 and Shaken +10, clamped to 00-99 [house]."""
    vom = _vom()
    assert modified_number(vom, 47, MoraleState.AGGRESSIVE) == 37
    assert modified_number(vom, 47, "shaken") == 57
    assert modified_number(vom, 95, "shaken") == 99
    assert modified_number(vom, 3, "berserk") == 0
    assert modified_number(vom, 47, None) == 47


def test_morale_moves_the_row_read():
    """Shaken pushes a Commander's 95 to 99 (Bail Out) in the OPEN column."""
    cell = vom_order(_vom(), "commander", "no_target_open", 95, morale="shaken")
    assert cell.order == "bail_out" and 99 in cell.rows


def test_vom_column_by_kind():
    """AFVs by target × hatch, Half-Tracks OPEN columns, Trucks and Jeeps the Truck column."""
    assert vom_column("afv", target=True, hatch_open=False) is VomColumn.TARGET_BU
    assert vom_column("half_track", target=True, hatch_open=False) is VomColumn.HALF_TRACK_TARGET
    assert vom_column("truck", target=False, hatch_open=True) is VomColumn.TRUCK
    assert vom_column("jeep", target=True, hatch_open=True) is VomColumn.TRUCK


def test_vom_panic_only_buttoned_duck_back_only_open():
    """Panic appears only in BU columns, Duck Back only in open ones (31.11.2)."""
    vom = _vom()
    for role, column, cells in vom.columns:
        orders = {c.order for c in cells}
        bu = column in (VomColumn.NO_TARGET_BU, VomColumn.TARGET_BU)
        assert ("duck_back" not in orders) if bu else ("panic" not in orders), (role, column)


def test_driver_moves_carry_directions():
    """Every Driver movement cell carries a direction string; other cells none."""
    moves = {s.value for s in Speed}
    for role, _column, cells in _vom().columns:
        for c in cells:
            assert (c.directions is not None) == (c.order in moves)
            if c.order in moves:
                assert role is Role.DRIVER


# --- broken copies --------------------------------------------------------------


def test_broken_hit_table_gap_names_file_and_line(vehicles_copy):
    """A gap in a hit location table is reported at the row after it."""
    path = vehicles_copy / "panzer_ivh.yaml"
    line = _break(
        path,
        "{rolls: 33-39, location: upper_hull, armor: upper_hull_side,",
        "{rolls: 34-39, location: upper_hull, armor: upper_hull_side,",
    )
    with pytest.raises(DataError) as err:
        load_vehicle_types(vehicles_copy)
    assert _lines(err.value) == [(str(path), line)]
    assert "gap" in str(err.value) and "33" in str(err.value)


def test_broken_hit_table_overlap_names_both_lines(vehicles_copy):
    """Overlapping rows are reported at the later row, naming the earlier row's line."""
    path = vehicles_copy / "panzer_ivh.yaml"
    first = _break(path, "- {rolls: 25-32, location: lower_hull,", "- {rolls: 25-34, location: lower_hull,")
    with pytest.raises(DataError) as err:
        load_vehicle_types(vehicles_copy)
    assert _lines(err.value) == [(str(path), first + 1)]
    assert f"line {first}" in str(err.value)


def test_broken_damage_column_names_file_and_line(vehicles_copy):
    """A damage column missing face 9 is reported at its line."""
    path = vehicles_copy / "m4a3_sherman.yaml"
    line = _break(
        path,
        "{d10: 9, effects: [engine_fire], mc: [all], note: Fuel line hit}",
        "{d10: 8, effects: [engine_fire], mc: [all], note: Fuel line hit}",
    )
    with pytest.raises(DataError) as err:
        load_vehicle_types(vehicles_copy)
    assert (str(path), line) in _lines(err.value)


def test_broken_files_report_every_problem_at_once(vehicles_copy):
    """Problems in two files (an unknown key, an unknown weapon) come together."""
    a = vehicles_copy / "jeep.yaml"
    b = vehicles_copy / "opel_truck.yaml"
    la = _break(a, "- {number: 1, los_open: [all]}", "- {number: 1, los_opn: [all]}")
    lb = _break(b, "kind: truck", "kind: lorry")
    sherman = vehicles_copy / "m4a3_sherman.yaml"
    lc = _break(sherman, "weapon: m4_75mm,", "weapon: m4_76mm,")
    with pytest.raises(DataError) as err:
        load_vehicle_types(vehicles_copy, weapons=_weapons())
    lines = _lines(err.value)
    assert (str(a), la) in lines and (str(b), lb) in lines and (str(sherman), lc) in lines


def test_broken_reference_to_missing_position(vehicles_copy):
    """A hatch hit on the hatchless Gunner is reported at its line (31.8)."""
    path = vehicles_copy / "panzer_ivh.yaml"
    line = _break(
        path,
        "- {rolls: 05-06, location: hatch, crew: loader}",
        "- {rolls: 05-06, location: hatch, crew: gunner}",
    )
    with pytest.raises(DataError) as err:
        load_vehicle_types(vehicles_copy)
    assert _lines(err.value) == [(str(path), line)]
    assert "no hatch" in str(err.value)


def test_file_name_must_match_id(vehicles_copy):
    """A vehicle whose id differs from its file name is a problem."""
    path = vehicles_copy / "jeep.yaml"
    line = _break(path, "id: jeep", "id: willys")
    with pytest.raises(DataError) as err:
        load_vehicle_types(vehicles_copy)
    assert _lines(err.value) == [(str(path), line)]


@pytest.fixture
def vom_copy(tmp_path: Path) -> Path:
    path = tmp_path / "vehicle_order_matrix.yaml"
    shutil.copy(cards_dir() / "vehicle_order_matrix.yaml", path)
    return path


def test_broken_vom_gap_names_file_and_line(vom_copy):
    """A gap in a VOM column is reported at the row after it."""
    line = _break(vom_copy, "        70-89: button_open_up\n", "        71-89: button_open_up\n")
    with pytest.raises(DataError) as err:
        load_vom(vom_copy)
    assert _lines(err.value) == [(str(vom_copy), line)]
    assert "70 give nothing" in str(err.value)


def test_broken_vom_overlap_names_file_and_line(vom_copy):
    """An overlap in a VOM column is reported at the overlapping row."""
    line = _break(vom_copy, "        38-53: crawl 1 ", "        36-53: crawl 1 ")
    with pytest.raises(DataError) as err:
        load_vom(vom_copy)
    assert _lines(err.value) == [(str(vom_copy), line)]
    assert "overlap" in str(err.value)


def test_broken_vom_cells(vom_copy):
    """A move without directions, a non-adjacent string, a foreign order: each at its line."""
    l1 = _break(vom_copy, "        00-05: forward 1\n", "        00-05: forward\n")
    l2 = _break(vom_copy, "        06-13: ahead_slow 1/2\n", "        06-13: ahead_slow 1/3\n")
    l3 = _break(vom_copy, "        60-67: emergency_stop\n", "        60-67: load_he\n")
    with pytest.raises(DataError) as err:
        load_vom(vom_copy)
    assert sorted(_lines(err.value)) == [(str(vom_copy), l1), (str(vom_copy), l2), (str(vom_copy), l3)]


def test_vom_unknown_order_ids_with_their_lines(vom_copy):
    """With the known order ids given, an unknown id is reported where the role lists it."""
    known = {o.id for o in load_orders()} | set(CREW_ORDERS)
    line = _break(vom_copy, "    orders: [load_he, load_ap,", "    orders: [load_hex, load_ap,")
    _break(
        vom_copy, "        00-64: load_he                   #", "        00-64: load_hex                  #"
    )
    with pytest.raises(DataError) as err:
        load_vom(vom_copy, order_ids=known)
    assert (str(vom_copy), line) in _lines(err.value)
    assert "unknown order 'load_hex'" in str(err.value)


def test_broken_vom_missing_column(vom_copy):
    """A Driver without the Truck column is a problem."""
    text = vom_copy.read_text(encoding="utf-8")
    start = text.index("      truck:\n")
    end = text.index("  gunner:\n")
    vom_copy.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_vom(vom_copy)
    assert "no truck column" in str(err.value) and all(line is not None for _p, line in _lines(err.value))


def test_broken_crews_ldr_on_a_driver(tmp_path):
    """Leadership on a Driver counter is reported at its line."""
    path = tmp_path / "crews.yaml"
    shutil.copy(cards_dir() / "crews.yaml", path)
    line = _break(
        path,
        "{id: de_drv_vogel, name: Uffz. Vogel, tq: 5,",
        "{id: de_drv_vogel, name: Uffz. Vogel, tq: 5, ldr: 1,",
    )
    with pytest.raises(DataError) as err:
        load_crews(path)
    assert _lines(err.value) == [(str(path), line)]


def test_broken_crews_unknown_weapon(tmp_path):
    """An unknown crew weapon is reported when the weapon ids are given."""
    path = tmp_path / "crews.yaml"
    shutil.copy(cards_dir() / "crews.yaml", path)
    line = _break(
        path,
        "{id: us_ldr_doyle, name: Pvt Doyle, tq: 4, weapons: [{weapon: m1911,",
        "{id: us_ldr_doyle, name: Pvt Doyle, tq: 4, weapons: [{weapon: colt,",
    )
    load_crews(path)  # no cross-check without weapon ids
    with pytest.raises(DataError) as err:
        load_crews(path, weapon_ids=[w.id for w in _weapons()])
    assert _lines(err.value) == [(str(path), line)]


# --- fuzzing -----------------------------------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 120),
    st.sampled_from(
        ["00-09", "43", "5-3", "front", "side", "all", "hatch", "commander", "crawl 1", "spot",
         "aimed_fire bow_mg", "turret", "afv", "normal", "lower_hull", "1/3", "x"]
    ),
)  # fmt: skip
_KEYS = st.sampled_from(
    ["id", "name", "nation", "kind", "speeds", "crew", "hit_locations", "damage", "armor", "weapons",
     "front", "side", "rear", "rolls", "location", "role", "los_open", "roles", "columns", "orders",
     "morale_modifiers", "directed_orders", "fire_orders", "crews", "german", "commander", "tq", "00-09"]
)  # fmt: skip
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=5),
    max_leaves=16,
)


def _fuzz(tmp: Path, text: str) -> None:
    vdir = tmp / "vehicles"
    vdir.mkdir(exist_ok=True)
    (vdir / "x.yaml").write_text(text, encoding="utf-8")
    (tmp / "vom.yaml").write_text(text, encoding="utf-8")
    (tmp / "crews.yaml").write_text(text, encoding="utf-8")
    for call in (
        lambda: load_vehicle_types(vdir, weapons=_weapons()),
        lambda: load_vom(tmp / "vom.yaml", order_ids=("spot", "crawl")),
        lambda: load_crews(tmp / "crews.yaml", weapon_ids=("p38",)),
    ):
        try:
            call()
        except DataError as exc:
            assert exc.problems


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=_VALUES)
def test_fuzz_random_documents_raise_only_data_error(tmp_path_factory, doc):
    """Random YAML documents load or raise DataError; nothing else escapes."""
    _fuzz(tmp_path_factory.mktemp("fuzz"), yaml.safe_dump(doc))


def _shipped(name: str) -> dict:
    return yaml.safe_load((cards_dir() / name).read_text(encoding="utf-8"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.sampled_from(["vehicles/panzer_ivh.yaml", "vehicles/m3a1_half_track.yaml",
                           "vehicle_order_matrix.yaml", "crews.yaml"]),
    key=_KEYS,
    depth=st.integers(0, 3),
    value=_VALUES,
)  # fmt: skip
def test_fuzz_mutated_shipped_files_raise_only_data_error(tmp_path_factory, which, key, depth, value):
    """A shipped file with one node replaced by random data loads or raises DataError."""
    doc = _shipped(which)
    node = doc
    for _ in range(depth):
        children = list(node.values()) if isinstance(node, dict) else node if isinstance(node, list) else []
        children = [c for c in children if isinstance(c, (dict, list)) and c]
        if not children:
            break
        node = children[0]
    if isinstance(node, dict):
        node[key] = value
    elif isinstance(node, list) and node:
        node[0] = value
    _fuzz(tmp_path_factory.mktemp("fuzz"), yaml.safe_dump(doc))


def test_damage_effects_used_by_the_panzer():
    """The Panzer IVH tables use the catastrophic, fire, jam and gun results (31.10.8)."""
    pz = _types().get("panzer_ivh")
    effects = {e for col in pz.damage_columns for row in col.rows for e in row.effects}
    assert {DamageEffect.DESTROYED, DamageEffect.ENGINE_FIRE, DamageEffect.TURRET_FIRE} <= effects
    assert {DamageEffect.TURRET_JAMMED, DamageEffect.MAIN_GUN_DESTROYED} <= effects
