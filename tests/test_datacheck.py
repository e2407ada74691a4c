"""Every data file a user hands us is untrusted: implausible numbers, missing sections, card sets
checked against the scenarios, and one verdict on a file whatever reads it."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from solo.cli.main import main
from solo.core.resources import cards_dir, maps_dir


def run_cli(*args: str | Path) -> tuple[int, str]:
    """``solo ARGS`` in process: (exit status, what it printed on stdout and stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in args])
    return status, err.getvalue() + out.getvalue()


def copy_with(src: Path, dest: Path, old: str, new: str) -> int:
    """Copy ``src`` to ``dest`` with the first ``old`` replaced by ``new``; the line of the change."""
    text = src.read_text(encoding="utf-8")
    assert old in text, old
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        (
            "weapons.yaml",
            "4-10:0 11-25:-2 26-50:-4",
            "4-10:99999999999999999999 11-25:-2 26-50:-4",
            "band '4-10:99999999999999999999': modifier 99999999999999999999 is out of range -9–4 "
            "(WS points)",
        ),
        (
            "weapons.yaml",
            "max_range: 50, rof: 1,",
            "max_range: 50, rof: 99,",
            "rof: 99 is out of range 1–6 (shots per Impulse)",
        ),
        (
            "checks.yaml",
            "melee_tq: 3,",
            "melee_tq: -3,",
            "berserk has a melee TQ modifier of -3: a state better than normal has one of 0 or more",
        ),
        ("checks.yaml", "fire_ws: -2,", "fire_ws: -9,", "fire_ws: -9 is out of range -3–3 (WS points)"),
        (
            "charts.yaml",
            "open:               [-2, -1,  0, +2",
            "open:               [-9, -1,  0, +2",
            "open: -9 is out of range -6–3 (d10 faces)",
        ),
        (
            "charts.yaml",
            "beyond_modifier: -1",
            "beyond_modifier: -9",
            "beyond_modifier: -9 is out of range -4–3 (d10 faces)",
        ),
        (
            "orders.yaml",
            "ws_modifier: -2,",
            "ws_modifier: -9,",
            "ws_modifier: -9 is out of range -6–2 (WS points)",
        ),
        (
            "orders.yaml",
            "melee_tq_modifier: 1,",
            "melee_tq_modifier: -9,",
            "melee_tq_modifier: -9 is out of range -2–2 (TQ points)",
        ),
    ],
)
def test_an_implausible_card_number_is_refused_with_its_line(tmp_path, name, old, new, message):
    """A value beyond the span of the printed charts: `path:line: message`, exit 2, no traceback."""
    d = tmp_path / "set"
    line = copy_with(cards_dir() / name, d / name, old, new)
    status, out = run_cli("validate", d)
    assert status == 2
    assert f"{d / name}:{line}: {message}" in out.splitlines()
    assert "Traceback" not in out


def test_an_objective_worth_negative_vp_is_refused(tmp_path):
    """`vp: -2` on an objective: refused at its line (VP awards are 0–20, losses are subtracted)."""
    dest = tmp_path / "the_churchyard.yaml"
    line = copy_with(
        maps_dir() / "scenarios" / "the_churchyard.yaml",
        dest,
        "vp: 3, name: the church",
        "vp: -2, name: the church",
    )
    status, out = run_cli("validate", dest)
    assert status == 2
    assert f"{dest}:{line}: vp: -2 is out of range 0–20 (VP)" in out.splitlines()


def crews_without(tmp_path: Path, nation: str) -> Path:
    """A card set holding only ``crews.yaml`` without the ``nation:`` block."""
    lines = (cards_dir() / "crews.yaml").read_text(encoding="utf-8").split("\n")
    start = lines.index(f"  {nation}:")
    end = next(
        i
        for i in range(start + 1, len(lines))
        if lines[i].startswith("  ") and not lines[i].startswith("    ")
    )
    d = tmp_path / "set"
    d.mkdir()
    (d / "crews.yaml").write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    return d


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first occurrence of ``text`` in ``path``."""
    whole = path.read_text(encoding="utf-8")
    return whole[: whole.index(text)].count("\n") + 1


def test_a_card_set_without_german_crews_names_the_scenarios_it_cannot_play(tmp_path):
    """crews.yaml without `german:`: the vehicle line of both panzer scenarios, their ids, exit 2."""
    d = crews_without(tmp_path, "german")
    status, out = run_cli("validate", d)
    assert status == 2
    assert "Traceback" not in out
    scenarios = maps_dir() / "scenarios"
    for sid in ("the_panzer_below_the_abbey", "armour_in_the_rain"):
        line = line_of(scenarios / f"{sid}.yaml", "  - id: panzer")
        expected = (
            f"maps/scenarios/{sid}.yaml:{line}: vehicle 'panzer' (PzKpfw IV Ausf. H) draws its "
            "commander, driver, gunner, loader, co_driver from the german crew counters, and "
            f"{d / 'crews.yaml'} has none"
        )
        assert any(ln.startswith(expected) for ln in out.splitlines()), out
    summary = [ln for ln in out.splitlines() if "cannot be played" in ln]
    assert summary and "armour_in_the_rain" in summary[0] and "the_panzer_below_the_abbey" in summary[0]
    assert "the_churchyard" not in summary[0]


def test_run_refuses_a_scenario_the_card_set_cannot_play(tmp_path):
    """`solo run the_panzer_below_the_abbey --cards DIR` without German crews: path:line, exit 2."""
    d = crews_without(tmp_path, "german")
    status, out = run_cli("run", "the_panzer_below_the_abbey", "--cards", d, "--turns", "1")
    assert status == 2
    assert "Traceback" not in out and "KeyError" not in out
    assert "the_panzer_below_the_abbey.yaml:" in out and "german crew counters" in out


def test_the_report_names_the_folders_it_read(tmp_path):
    """`solo validate --cards DIR` names DIR, and the shipped cards folder for the files DIR lacks."""
    d = tmp_path / "set"
    d.mkdir()
    (d / "weapons.yaml").write_text(
        (cards_dir() / "weapons.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    status, out = run_cli("validate", "--cards", d)
    assert status == 0
    read = next(ln for ln in out.splitlines() if ln.startswith("data read from: "))
    assert f"{d.resolve()} (1 file)" in read
    assert f"{cards_dir().resolve()} (11 files)" in read


def cut(tmp_path: Path, sid: str, keep: int) -> Path:
    """The shipped scenario ``sid`` cut after line ``keep``, outside the data folders."""
    lines = (maps_dir() / "scenarios" / f"{sid}.yaml").read_text(encoding="utf-8").split("\n")
    dest = tmp_path / f"{sid}.yaml"
    dest.write_text("\n".join(lines[:keep]) + "\n", encoding="utf-8")
    return dest


def test_a_scenario_cut_short_is_refused_where_victory_should_be(tmp_path):
    """armour_in_the_rain.yaml cut after line 60: `path:61: no 'victory:' section ...`, exit 2."""
    dest = cut(tmp_path, "armour_in_the_rain", 60)
    status, out = run_cli("validate", dest)
    assert status == 2
    assert any(
        ln.startswith(f"{dest}:61: no 'victory:' section (")
        and ln.endswith("the file ends at line 60: is it cut short?")
        for ln in out.splitlines()
    ), out


@pytest.mark.parametrize(
    "src",
    sorted((maps_dir() / "scenarios").glob("*.yaml")) + sorted(maps_dir().glob("*.yaml")),
    ids=lambda p: p.name,
)
def test_every_shipped_file_validates_outside_its_folder(tmp_path, src):
    """A shipped scenario or map copied under another name elsewhere is still known and valid."""
    dest = tmp_path / f"copy_of_{src.name}"
    dest.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    status, out = run_cli("validate", dest)
    assert status == 0, out
    assert "ok: 1 file(s) checked" in out


def test_a_file_with_a_long_header_comment_is_known_by_its_keys(tmp_path):
    """5,000 characters of comment before `friendly:` do not hide a scenario (no prefix sniffing)."""
    src = maps_dir() / "scenarios" / "first_contact.yaml"
    dest = tmp_path / "x.yaml"
    dest.write_text("# " + "x" * 5000 + "\n" + src.read_text(encoding="utf-8"), encoding="utf-8")
    status, out = run_cli("validate", dest)
    assert status == 0, out


def editor_verdict(path: Path) -> bool:
    """Whether the scenario editor, opened on ``path`` and saved to a copy, calls the file valid
    (a file it refuses to open is not)."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame
    from conftest import house_data

    from solo.data.scenario_draft import ScenarioDraft
    from solo.render import theme
    from solo.render.scenario_editor import ScenarioEditor

    pygame.init()
    pygame.display.set_mode((1280, 800))
    from solo.core.errors import DataError

    try:
        draft = ScenarioDraft.from_text(path.read_text(encoding="utf-8"), path.name)
    except DataError:
        return False  # the editor refuses to open it, with the problems
    out = path.with_name(f"saved_{path.name}")
    editor = ScenarioEditor(draft, out, house_data(), theme.Fonts(), size=(1280, 800))
    return not editor.save()


def test_validate_the_editor_and_run_give_one_verdict(tmp_path):
    """A valid copy, a copy cut short and a copy with a negative VP: the same verdict from all three."""
    churchyard = maps_dir() / "scenarios" / "the_churchyard.yaml"
    good = tmp_path / "good" / "x.yaml"
    copy_with(churchyard, good, "id: the_churchyard", "id: the_churchyard")
    negative = tmp_path / "negative" / "x.yaml"
    copy_with(churchyard, negative, "vp: 3, name: the church", "vp: -2, name: the church")
    short = cut(tmp_path, "armour_in_the_rain", 60)
    for path, valid in ((good, True), (negative, False), (short, False)):
        v_status, v_out = run_cli("validate", path)
        r_status, r_out = run_cli("run", path, "--turns", "1", "--policy", "simple")
        assert (v_status == 0) is valid, v_out
        assert (r_status == 0) is valid, r_out
        assert editor_verdict(path) is valid
        assert "Traceback" not in v_out + r_out


def test_a_missing_weapon_names_the_weapons_file_actually_read(tmp_path):
    """weapons.yaml without `hand_grenade`: the problems name DIR/weapons.yaml, not the shipped file."""
    lines = (cards_dir() / "weapons.yaml").read_text(encoding="utf-8").split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("  - {id: hand_grenade,"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("  - "))
    d = tmp_path / "set"
    d.mkdir()
    (d / "weapons.yaml").write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    status, out = run_cli("validate", d)
    assert status == 2
    assert f"unknown weapon 'hand_grenade' (not in {d / 'weapons.yaml'})" in out
    assert "(not in cards/weapons.yaml)" not in out


def test_a_card_set_without_the_panzerfaust_names_the_scenarios_that_hand_it_out(tmp_path):
    """weapons.yaml without `panzerfaust_60`: refused at the scenario's `panzerfaust:` line (C2 32.3)."""
    lines = (cards_dir() / "weapons.yaml").read_text(encoding="utf-8").split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("  - {id: panzerfaust_60,"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("  - ", "#")) or not lines[i])
    d = tmp_path / "set"
    d.mkdir()
    (d / "weapons.yaml").write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    status, out = run_cli("validate", d)
    assert status == 2
    scenario = maps_dir() / "scenarios" / "armour_in_the_rain.yaml"
    line = line_of(scenario, "panzerfaust: {level: 2, type: panzerfaust_60}")
    assert (
        f"maps/scenarios/armour_in_the_rain.yaml:{line}: the Panzerfaust Level hands out 'panzerfaust_60', "
        f"which is not a weapon of {d / 'weapons.yaml'} (C2 32.3)"
    ) in out.splitlines(), out
