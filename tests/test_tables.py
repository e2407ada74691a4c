"""Tests for solo.data.tables: the house-edition orders, charts, weapons, checks and their loaders."""

from __future__ import annotations

import contextlib
import copy
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.core.datafile import read_text
from solo.core.dice_expressions import DiceExpression
from solo.core.errors import DataError
from solo.core.resources import cards_dir
from solo.data.bands import Band, Bands
from solo.data.charts import ChartRow, FireCell, charts_from, load_charts
from solo.data.house import load_tables
from solo.data.orders import CARD_CODES, Slot, TrackStep, load_orders, orders_from
from solo.data.tables import CheckKind, MoraleState, RollResult, checks_from, load_checks, step_morale
from solo.data.weapons import AmmoKind, WeaponFlag, load_weapons, weapons_from

A, B = Slot.A, Slot.B
FILES = ("orders.yaml", "charts.yaml", "weapons.yaml", "checks.yaml")
BUILDERS = {
    "orders.yaml": orders_from,
    "charts.yaml": charts_from,
    "weapons.yaml": weapons_from,
    "checks.yaml": checks_from,
}


@pytest.fixture(scope="module")
def tables():
    return load_tables()


@pytest.fixture
def cards_copy(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copy(cards_dir() / name, tmp_path / name)
    return tmp_path


def _break(path: Path, old: str, new: str) -> int:
    """Replace ``old`` once in the file at ``path``; return the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path.name}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


def _problem_lines(exc: DataError) -> list[tuple[str, int | None]]:
    return [(p.path, p.line) for p in exc.problems]


# --- shipped files -----------------------------------------------------------


def test_shipped_tables_load(tables):
    """The four shipped files load and cross-check without problems."""
    assert len(tables.orders) >= 28 and len(tables.weapons) >= 23


@pytest.mark.parametrize("loader", [load_orders, load_charts, load_weapons, load_checks])
def test_each_loader_reads_the_shipped_file_by_default(loader):
    """Each loader with no path reads the shipped file."""
    assert loader() is not None


def test_shipped_files_say_house_edition():
    """Every shipped table file opens with a header naming the house edition."""
    for name in FILES:
        first = (cards_dir() / name).read_text(encoding="utf-8").splitlines()[0]
        assert "house edition" in first, name


# --- orders ------------------------------------------------------------------


def test_rapid_fire_definition(tables):
    """Rapid Fire: F F F F, WS -2, S2/G2, card code RF (base-rules §4)."""
    rf = tables.orders.get("rapid_fire")
    assert [rf.track(i) for i in (1, 2, 3, 4)] == [TrackStep.FIRE] * 4
    assert (rf.ws_modifier, rf.spot_group, rf.fire_group, rf.code) == (-2, 2, 2, "RF")


def test_sprint_moves_two_on_impulse_2_with_slots_b_a(tables):
    """Sprint I2 is M2 with direction slots [B, A]; 7 hexes a turn (base-rules §4, §6)."""
    sp = tables.orders.get("sprint")
    assert sp.track(2) is TrackStep.MOVE_2
    assert sp.slots(2) == (B, A)
    assert sp.hexes == 7


def test_ahead_slow_slots_follow_c2_examples(tables):
    """Ahead Slow: I1 [A], I2 [B], I3 [A, B], I4 [B, B] (C2 31.4 examples)."""
    order = tables.orders.get("ahead_slow")
    assert [order.slots(i) for i in (1, 2, 3, 4)] == [(A,), (B,), (A, B), (B, B)]
    assert order.is_vehicle and order.ws_modifier == -3


def test_crawl_moves_one_hex_on_impulse_1(tables):
    """Crawl moves 1 hex on I1 (C2 example of play)."""
    crawl = tables.orders.get("crawl")
    assert crawl.track(1) is TrackStep.MOVE and crawl.slots(1) == (A,)


def test_run_and_gun_fire_impulses_hold_a_fallback_slot(tables):
    """Run & Gun moves 2 hexes; its F Impulses hold the 10.04 slot B (base-rules §6)."""
    rg = tables.orders.get("run_and_gun")
    assert rg.hexes == 2
    assert (rg.track(2), rg.slots(2)) == (TrackStep.FIRE, (B,))


def test_sneak_is_low_and_may_move_on_impulse_2(tables):
    """Sneak: - m - M, low, S1/G1 (base-rules §4)."""
    sn = tables.orders.get("sneak")
    assert [s.value for s in sn.steps] == ["-", "m", "-", "M"]
    assert sn.low and (sn.spot_group, sn.fire_group) == (1, 1)


def test_every_card_code_names_one_order(tables):
    """Each Enemy card code maps to the order carrying it."""
    assert all(tables.orders.by_code(code).code == code for code in CARD_CODES)


def test_shipped_slot_counts_match_tracks(tables):
    """Every shipped order has one slot per hex its track must move, at most 1 for m."""
    for order in tables.orders:
        for i in (1, 2, 3, 4):
            step, slots = order.track(i), order.slots(i)
            if step is TrackStep.MAY_MOVE:
                assert len(slots) <= 1, order.id
            elif step is not TrackStep.FIRE:
                assert len(slots) == step.hexes, (order.id, i)


@pytest.mark.parametrize("impulse", [0, 5, -1])
def test_track_rejects_impulses_outside_1_to_4(tables, impulse):
    """order.track and order.slots take Impulses 1-4 only."""
    with pytest.raises(ValueError):
        tables.orders.get("sneak").track(impulse)
    with pytest.raises(ValueError):
        tables.orders.get("sneak").slots(impulse)


def test_unknown_order_id_is_a_key_error(tables):
    """Asking for an order that does not exist raises KeyError."""
    with pytest.raises(KeyError):
        tables.orders.get("dance")


# --- weapons -----------------------------------------------------------------


def test_kar98k_bands(tables):
    """Kar98k: -2 at 13 hexes, -4 at 55, no fire at 56 (base-rules §10)."""
    k = tables.weapons.get("kar98k")
    assert (k.band_modifier(13), k.band_modifier(55), k.band_modifier(56)) == (-2, -4, None)


def test_m7_cannot_fire_within_4_hexes(tables):
    """M7 rifle grenade: 1-4 NA, 5 hexes 0 (base-rules §10)."""
    m7 = tables.weapons.get("m7_rifle_grenade")
    assert [m7.band_modifier(r) for r in (1, 2, 3, 4, 5)] == [None, None, None, None, 0]
    assert not m7.in_range(4)


def test_range_zero_and_negative_have_no_band(tables):
    """A weapon has no band at range 0 or below."""
    garand = tables.weapons.get("m1_garand")
    assert garand.band_modifier(0) is None and garand.band_modifier(-3) is None


def test_stg44_rof_drops_beyond_13_hexes(tables):
    """StG 44: ROF 3 to 13 hexes, 1 beyond (C2 26.0)."""
    stg = tables.weapons.get("stg44")
    assert (stg.rof_at(13), stg.rof_at(14)) == (3, 1)


def test_m1903_scope_adds_one_to_aimed_fire_beyond_3(tables):
    """M1903 scope: +1 to Aimed shots beyond 3 hexes only (C2 26.0)."""
    m1903 = tables.weapons.get("m1903")
    assert (m1903.aimed_modifier(3), m1903.aimed_modifier(4)) == (0, 1)
    assert m1903.has_flag(WeaponFlag.SLOW)


def test_knife_ws_is_tq_minus_range(tables):
    """Thrown knife: WS from TQ, -1 at 1 hex, -2 at 2 (C2 24.1)."""
    knife = tables.weapons.get("knife")
    assert knife.ws_from_tq and (knife.band_modifier(1), knife.band_modifier(2)) == (-1, -2)


def test_main_gun_ammunition(tables):
    """M4 75mm AP pen 5+1d6 (§20 Q33), HE Blast 4 Frag 4; PzIV AP 9+1d6, HE Blast 3."""
    m4 = tables.weapons.get("m4_75mm")
    assert str(m4.ammo_of(AmmoKind.AP).penetration) == "5+1d6"
    he = m4.ammo_of(AmmoKind.HE)
    assert (he.blast, he.frag, str(he.penetration)) == (4, 4, "1+1d6")
    pziv = tables.weapons.get("pziv_75mm")
    assert str(pziv.ammo_of(AmmoKind.AP).penetration) == "9+1d6"
    assert pziv.ammo_of(AmmoKind.HE).blast == 3


def test_missing_ammunition_is_a_key_error(tables):
    """A weapon without a round of that kind raises KeyError."""
    with pytest.raises(KeyError):
        tables.weapons.get("kar98k").ammo_of(AmmoKind.AP)


def test_hand_grenade_has_no_range_modifier_within_3(tables):
    """Hand grenade: thrown 1-3 hexes, no band modifier, Near 3 dice at Frag 4 (§12)."""
    g = tables.weapons.get("hand_grenade")
    assert [g.band_modifier(r) for r in (1, 3, 4)] == [0, 0, None]
    assert (g.grenade.near_dice, g.grenade.near_frag) == (3, 4)


# --- charts ------------------------------------------------------------------


def test_spotting_chart_building_s0(tables):
    """Spotting chart: Building S0 is -5 (base-rules §9)."""
    assert tables.charts.spot_modifier("building", 0) == -5
    assert tables.charts.spot_modifier(ChartRow.OPEN, 3) == 2


def test_fire_chart_rocks_g0_is_morale_only(tables):
    """Fire chart: Rocks G0 is -5 (M), Open G4 +1 without (M) (base-rules §10)."""
    assert tables.charts.fire_cell("rocks", 0) == FireCell(-5, True)
    assert tables.charts.fire_cell(ChartRow.OPEN, 4) == (1, False)


def test_hatch_uses_the_open_line_and_with_afv_its_own(tables):
    """[house] The hatch row repeats the Open line in both charts; C2 27.9's 'In hex with
    AFV/Half-Track' line (with_afv) has its own values, at least as good as Open in every column and
    better in some, so "Enemy Characters will always use the best terrain" can pick it."""
    c = tables.charts
    assert [c.spot_modifier("hatch", g) for g in range(7)] == [c.spot_modifier("open", g) for g in range(7)]
    assert [c.fire_cell("hatch", g) for g in range(7)] == [c.fire_cell("open", g) for g in range(7)]
    spot = [c.spot_modifier("with_afv", g) for g in range(7)]
    fire = [c.fire_cell("with_afv", g) for g in range(7)]
    assert spot == [-4, -3, -2, 0, -1, -1, -1] and spot != [c.spot_modifier("open", g) for g in range(7)]
    assert [f[0] for f in fire] == [-4, -3, -2, -1, -1, -1, -1] and not any(f[1] for f in fire)
    assert all(s <= c.spot_modifier("open", g) for g, s in enumerate(spot))


def test_every_chart_row_is_charted(tables):
    """Every ChartRow has a spotting and a fire line."""
    assert sorted(tables.charts.row_ids()) == sorted(r.value for r in ChartRow)
    for row in ChartRow:
        assert isinstance(tables.charts.spot_modifier(row, 6), int)
        assert isinstance(tables.charts.fire_cell(row, 6), FireCell)


@pytest.mark.parametrize(
    ("rng", "modifier"),
    [(0, 2), (1, 2), (2, 1), (4, 1), (5, 0), (10, 0), (11, -1), (20, -1), (21, -2), (30, -2),
     (31, -3), (40, -3), (41, -4), (101, -10), (250, -24)],
)  # fmt: skip
def test_spot_range_modifier(tables, rng, modifier):
    """Spotting range modifier: 0-1 +2, 2-4 +1, 5-10 0, ..., -1 per further 10 (base-rules §9)."""
    assert tables.charts.spot_range_modifier(rng) == modifier


def test_chart_group_outside_0_to_6_is_rejected(tables):
    """A group outside 0-6 raises ValueError instead of wrapping round."""
    with pytest.raises(ValueError):
        tables.charts.spot_modifier("open", -1)
    with pytest.raises(ValueError):
        tables.charts.fire_cell("open", 7)


def test_negative_spot_range_is_rejected(tables):
    """A negative range raises ValueError."""
    with pytest.raises(ValueError):
        tables.charts.spot_range_modifier(-1)


# --- checks and morale -------------------------------------------------------


def test_check_passes_at_target_and_fails_one_above(tables):
    """A roll equal to the target passes; target + 1 fails (base-rules §7)."""
    assert tables.checks.resolve(CheckKind.TQC, 5, 5).passed
    assert not tables.checks.resolve(CheckKind.TQC, 6, 5).passed


def test_natural_9_fails_even_against_12(tables):
    """A natural 9 fails whatever the target (C2 23.1)."""
    outcome = tables.checks.resolve(CheckKind.TQC, 9, 12)
    assert outcome.result is RollResult.NATURAL_9 and not outcome.passed


def test_natural_0_passes_against_target_0(tables):
    """A natural 0 passes with target 0 (base-rules §0)."""
    outcome = tables.checks.resolve(CheckKind.TQC, 0, 0)
    assert outcome.result is RollResult.NATURAL_0 and outcome.passed


def test_natural_0_fails_against_a_negative_target(tables):
    """A 0 against a negative target is a plain failure (base-rules §0)."""
    assert tables.checks.resolve(CheckKind.MC, 0, -1).result is RollResult.FAILED


def test_mc_natural_9_drops_two_states(tables):
    """MC natural 9: -2 steps, Normal → Shaken (base-rules §7)."""
    outcome = tables.checks.resolve(CheckKind.MC, 9, 7)
    assert outcome.morale_steps == -2
    assert tables.checks.apply(MoraleState.NORMAL, outcome) is MoraleState.SHAKEN


def test_mc_natural_0_can_reach_berserk(tables):
    """MC natural 0: +1, capped at Berserk, so Aggressive → Berserk."""
    outcome = tables.checks.resolve(CheckKind.MC, 0, 5)
    assert tables.checks.apply(MoraleState.AGGRESSIVE, outcome) is MoraleState.BERSERK


def test_rc_gain_stops_at_aggressive(tables):
    """RC: natural 0 (+2) from Bold stops at Aggressive; Berserk is not lowered."""
    outcome = tables.checks.resolve(CheckKind.RC, 0, 5)
    assert outcome.morale_steps == 2
    assert tables.checks.apply(MoraleState.BOLD, outcome) is MoraleState.AGGRESSIVE
    assert tables.checks.apply(MoraleState.BERSERK, outcome) is MoraleState.BERSERK


def test_wmc_pass_still_costs_a_step(tables):
    """WMC: a pass drops one state, a failure two (C2 31.10.10)."""
    checks = tables.checks
    assert checks.resolve(CheckKind.WMC, 3, 5).morale_steps == -1
    assert checks.resolve(CheckKind.WMC, 6, 5).morale_steps == -2


def test_tqc_never_changes_morale(tables):
    """A TQC only passes or fails."""
    assert all(tables.checks.resolve(CheckKind.TQC, r, 5).morale_steps == 0 for r in range(10))


@pytest.mark.parametrize("roll", [-1, 10, 42])
def test_resolve_rejects_faces_outside_0_to_9(tables, roll):
    """A d10 face outside 0-9 raises ValueError."""
    with pytest.raises(ValueError):
        tables.checks.resolve(CheckKind.MC, roll, 5)


def test_step_morale_stops_at_rout():
    """Losses stop at Rout."""
    assert step_morale(MoraleState.SHAKEN, -3) is MoraleState.ROUT


def test_morale_rows(tables):
    """Morale rows: Shaken -2/-2 row 5; Berserk charges on the berserk string; Rout surrenders."""
    checks = tables.checks
    shaken = checks.morale(MoraleState.SHAKEN)
    assert (shaken.fire_ws, shaken.melee_tq, shaken.card_row) == (-2, -2, 5)
    berserk = checks.morale(MoraleState.BERSERK)
    assert (berserk.fire_ws, berserk.forced_order, berserk.card_string.value) == (
        3,
        "charge",
        "berserk",
    )
    assert checks.morale(MoraleState.ROUT).melee_tq is None


@given(
    state=st.sampled_from(list(MoraleState)),
    steps=st.integers(-8, 8),
    cap=st.sampled_from([None, *MoraleState]),
)
def test_step_morale_stays_in_bounds_and_respects_cap(state, steps, cap):
    """step_morale moves the right way, never past a cap on gains."""
    after = step_morale(state, steps, cap=cap)
    if steps >= 0:
        assert after.rank <= state.rank
        assert after is state or after.rank >= (cap.rank if cap else 0)
    else:
        assert after.rank >= state.rank


# --- broken files ------------------------------------------------------------


def test_broken_orders_file_names_file_and_line(cards_copy):
    """A slot count that does not match the track is reported at its line."""
    path = cards_copy / "orders.yaml"
    line = _break(path, "slots: [[A], [B, A], [B, A], [B, A]]", "slots: [[A], [B], [B, A], [B, A]]")
    with pytest.raises(DataError) as err:
        load_orders(path)
    assert _problem_lines(err.value) == [(str(path), line)]
    assert "Impulse 2" in str(err.value)


def test_broken_charts_file_names_file_and_line(cards_copy):
    """A bad fire cell is reported at its line."""
    path = cards_copy / "charts.yaml"
    line = _break(path, "wall:               [-4M,", "wall:               [-4Q,")
    with pytest.raises(DataError) as err:
        load_charts(path)
    assert _problem_lines(err.value) == [(str(path), line)]


def test_broken_weapons_file_names_file_and_line(cards_copy):
    """Bands that stop short of max range are reported at their line."""
    path = cards_copy / "weapons.yaml"
    line = _break(
        path, '13-30:-2 31-55:-4", source: reconstructed}', '13-30:-2 31-50:-4", source: reconstructed}'
    )
    with pytest.raises(DataError) as err:
        load_weapons(path)
    assert _problem_lines(err.value) == [(str(path), line)]
    assert "reach 55" in str(err.value)


def test_broken_checks_file_names_file_and_line(cards_copy):
    """An unknown key in a morale state is reported at its line."""
    path = cards_copy / "checks.yaml"
    line = _break(path, "{state: bold, fire_ws: 0,", "{state: bold, fire_wz: 0,")
    with pytest.raises(DataError) as err:
        load_checks(path)
    assert (str(path), line) in _problem_lines(err.value)
    assert "unknown key 'fire_wz'" in str(err.value)


def test_morale_states_out_of_order_are_reported(cards_copy):
    """Morale states listed out of order are a problem."""
    path = cards_copy / "checks.yaml"
    _break(
        path,
        "state: bold, fire_ws: 0, melee_tq: 1, card_row: 2",
        "state: normal, fire_ws: 0, melee_tq: 1, card_row: 2",
    )
    _break(
        path,
        "state: normal, fire_ws: 0, melee_tq: 0, card_row: 3",
        "state: bold, fire_ws: 0, melee_tq: 0, card_row: 3",
    )
    with pytest.raises(DataError, match="best first"):
        load_checks(path)


def test_every_problem_is_reported_at_once(cards_copy):
    """Three independent problems in one file give three problems."""
    path = cards_copy / "weapons.yaml"
    lines = [
        _break(path, "4-6:0 7-10:-2 11-12:-4", "4-6:0 6-10:-2 11-12:-4"),  # overlap
        _break(path, "2-3:+1 4-6:0 7-10:-2 11-15:-4", "2-3:+1 5-6:0 7-10:-2 11-15:-4"),  # gap
        _break(path, 'pen: "9+1d6"', 'pen: "9+1d7"'),
    ]
    with pytest.raises(DataError) as err:
        load_weapons(path)
    assert sorted(line for _, line in _problem_lines(err.value)) == sorted(lines)


def test_duplicate_and_missing_orders_are_reported(cards_copy):
    """A duplicated id is reported, and so is the order it replaced as missing."""
    path = cards_copy / "orders.yaml"
    line = _break(path, "{id: guard,", "{id: search,")
    with pytest.raises(DataError) as err:
        load_orders(path)
    text = str(err.value)
    assert f"{path}:{line}: duplicate order id 'search'" in text
    assert "missing order(s): guard" in text


def test_missing_and_unknown_chart_rows_are_reported(cards_copy):
    """A misspelt chart row is unknown, and the real one is missing, in that chart."""
    path = cards_copy / "charts.yaml"
    line = _break(path, "  trees:              [-3,", "  treez:              [-3,")
    with pytest.raises(DataError) as err:
        load_charts(path)
    text = str(err.value)
    assert f"{path}:{line}: unknown chart row 'treez'" in text
    assert "missing chart row(s): trees" in text


def test_wrong_column_count_is_reported(cards_copy):
    """A chart row with 6 columns is a problem."""
    path = cards_copy / "charts.yaml"
    _break(
        path,
        "  field:              [-3, -2, -1,  0,  0,  0,  0]",
        "  field:              [-3, -2, -1,  0,  0,  0]",
    )
    with pytest.raises(DataError, match="6 columns, expected 7"):
        load_charts(path)


def test_load_tables_checks_forced_orders_exist(cards_copy):
    """load_tables reports a forced order that orders.yaml does not define."""
    path = cards_copy / "checks.yaml"
    line = _break(path, "forced_order: charge", "forced_order: dance")
    with pytest.raises(DataError) as err:
        load_tables(cards_copy)
    assert _problem_lines(err.value) == [(str(path), line)]


def test_load_tables_reports_problems_of_all_files(cards_copy):
    """Problems in two files are reported together."""
    _break(
        cards_copy / "orders.yaml",
        'spot_group: 5, fire_group: 5,\n     source: reconstructed, rule: "base-rules §4",',
        'spot_group: 8, fire_group: 5,\n     source: reconstructed, rule: "base-rules §4",',
    )
    _break(cards_copy / "charts.yaml", "beyond_every: 10", "beyond_every: 0")
    with pytest.raises(DataError) as err:
        load_tables(cards_copy)
    assert {Path(p).name for p, _ in _problem_lines(err.value)} == {"orders.yaml", "charts.yaml"}


def test_missing_file_is_a_data_error(tmp_path):
    """A file that does not exist is a DataError naming it."""
    with pytest.raises(DataError, match="cannot read"):
        load_orders(tmp_path / "orders.yaml")


# --- bands and dice ----------------------------------------------------------


def test_band_parse_reports_gap_overlap_and_short_end():
    """Band strings with a gap, an overlap or a short end are rejected with each reason."""
    with pytest.raises(ValueError, match="gap"):
        Bands.parse("1:+2 3-10:0", end=10)
    with pytest.raises(ValueError, match="overlaps"):
        Bands.parse("1-3:+2 3-10:0", end=10)
    with pytest.raises(ValueError, match="reach 12"):
        Bands.parse("1-3:+2 4-10:0", end=12)
    with pytest.raises(ValueError, match="NA is not allowed"):
        Bands.parse("0-1:NA 2-4:+1", start=0, allow_na=False)
    with pytest.raises(ValueError, match="beyond 1000"):
        Bands.parse("1-999999999:0")


@st.composite
def band_lists(draw) -> tuple[Band, ...]:
    start = draw(st.integers(0, 3))
    widths = draw(st.lists(st.integers(1, 40), min_size=1, max_size=8))
    mods = draw(
        st.lists(st.one_of(st.none(), st.integers(-9, 4)), min_size=len(widths), max_size=len(widths))
    )
    bands, first = [], start
    for width, mod in zip(widths, mods, strict=True):
        bands.append(Band(first, first + width - 1, mod))
        first += width
    return tuple(bands)


@given(band_lists())
def test_band_strings_round_trip(bands):
    """Formatting bands and parsing the text gives the same bands and the same text."""
    text = str(Bands(bands))
    parsed = Bands.parse(text, start=bands[0].first, end=bands[-1].last)
    assert parsed.bands == bands and str(parsed) == text
    for band in bands:
        assert parsed.modifier(band.first) == band.modifier == parsed.modifier(band.last)


@given(base=st.integers(0, 30), count=st.integers(1, 9), sides=st.sampled_from([3, 6, 10]))
def test_dice_expressions_round_trip(base, count, sides):
    """A dice expression formats and parses back to itself."""
    dice = DiceExpression.parse(f"{base}+{count}d{sides}" if base else f"{count}d{sides}")
    assert DiceExpression.parse(str(dice)) == dice
    low = 0 if sides == 10 else 1  # a d10 reads 0-9
    assert dice.minimum == base + count * low
    assert dice.maximum == base + count * (sides - 1 + low)


# --- robustness --------------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 600),
    st.text(max_size=12),
    st.just(10**9),
    st.sampled_from(
        [
            "-",
            "F",
            "M2",
            "A",
            "B",
            "-5M",
            "1:+2",
            "5+1d6",
            "open",
            "rifle",
            "mc",
            "berserk",
            "house",
            "vehicle",
            "1-4:NA 5-25:0",
            "- m - M",
        ]
    ),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(
            st.sampled_from(
                ["id", "x", "orders", "weapons", "fire", "open", "bands", "checks", "state", "pen"]
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*prefix, i)))
    return out


def _shipped(name: str) -> Any:
    return yaml.safe_load((cards_dir() / name).read_text(encoding="utf-8"))


_SHIPPED = {name: _shipped(name) for name in FILES}
_SHIPPED_PATHS = {name: _paths(data) for name, data in _SHIPPED.items()}


def _build_quietly(name: str, data: Any) -> None:
    text = yaml.safe_dump(data, allow_unicode=True)
    with contextlib.suppress(DataError):
        BUILDERS[name](read_text(text, name))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(FILES), data=_values)
def test_random_documents_raise_only_data_errors(name, data):
    """Any YAML document gives a table or a DataError, never another exception."""
    _build_quietly(name, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(FILES), pick=st.integers(0, 10_000), value=_values)
def test_mutated_shipped_documents_raise_only_data_errors(name, pick, value):
    """The shipped files with one node replaced give a table or a DataError only."""
    data = copy.deepcopy(_SHIPPED[name])
    paths = _SHIPPED_PATHS[name]
    path = paths[pick % len(paths)]
    if not path:
        data = value
    else:
        node = data
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
    _build_quietly(name, data)
