"""The solo command: validate, run, los; bad data gives path:line messages and exit 2, no traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

from solo.cli.main import main
from solo.core.resources import cards_dir, maps_dir

SOLO = Path(sys.executable).parent / "solo"


def run_cli(*args, cwd=None):
    """Run the installed ``solo`` script in a subprocess, away from the source tree.

    Returns (status, stdout, stderr).
    """
    proc = subprocess.run(
        [str(SOLO), *args], capture_output=True, text=True, timeout=120, cwd=cwd or Path.home()
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_validate_passes_on_all_shipped_data(capsys):
    """`solo validate` with no path checks every shipped file and exits 0."""
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_validate_fails_cleanly_with_file_and_line_on_a_broken_copy(tmp_path):
    """A broken copy of the Enemy deck: exit 2, `path:line: message`, no traceback."""
    broken = tmp_path / "my_deck"
    broken.mkdir()
    text = (cards_dir() / "enemy_orders.yaml").read_text()
    lines = text.splitlines()
    # Break the second card's initiative and the first card's first cover row.
    i = [n for n, line in enumerate(lines) if line.strip().startswith("initiative:")][1]
    lines[i] = lines[i].split(":")[0] + ": 101"
    j = next(n for n, line in enumerate(lines) if line.strip().startswith("aggressive:"))
    lines[j] = lines[j].split(":")[0] + ": XX 5/6"
    (broken / "enemy_orders.yaml").write_text("\n".join(lines) + "\n")
    status, _out, err = run_cli("validate", str(broken))
    assert status == 2
    assert "Traceback" not in err
    assert f"enemy_orders.yaml:{i + 1}:" in err
    assert f"enemy_orders.yaml:{j + 1}:" in err


def test_validate_reports_a_broken_map_with_its_line(tmp_path):
    """A map with an unknown terrain code reports the line of that grid row."""
    text = (maps_dir() / "town.yaml").read_text().splitlines()
    k = next(n for n, line in enumerate(text) if line.startswith("terrain:"))
    row = text[k + 3]
    text[k + 3] = row[: len(row) - 1] + "?"
    p = tmp_path / "town.yaml"
    p.write_text("\n".join(text) + "\n")
    status, _out, err = run_cli("validate", str(p))
    assert status == 2
    assert f"town.yaml:{k + 4}:" in err
    assert "Traceback" not in err


def test_validate_reports_malformed_yaml(tmp_path):
    """Malformed YAML is a one-line problem with its line, exit 2."""
    p = tmp_path / "terrain.yaml"
    p.write_text("terrain:\n  - {id: open\n")
    status, _out, err = run_cli("validate", str(p))
    assert status == 2
    assert "terrain.yaml:" in err and "malformed YAML" in err


def test_validate_cross_checks_chart_rows(tmp_path):
    """A terrain whose chart_row is not in the charts is reported against terrain.yaml with its line."""
    d = tmp_path / "set"
    d.mkdir()
    text = (cards_dir() / "terrain.yaml").read_text().replace("chart_row: fountain", "chart_row: nowhere")
    (d / "terrain.yaml").write_text(text)
    status, _out, err = run_cli("validate", str(d))
    assert status == 2
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "nowhere" in t)
    assert any(ln.startswith(f"{d / 'terrain.yaml'}:") and "nowhere" in ln for ln in err.splitlines()), err
    assert f":{line - 1}:" in err or f":{line}:" in err


def test_validate_missing_path_is_an_error(tmp_path):
    """A path that does not exist is reported, exit 2."""
    assert main(["validate", str(tmp_path / "nope.yaml")]) == 2


def test_run_writes_the_same_log_for_the_same_seed(tmp_path, capsys):
    """`solo run --seed 5 --log` twice gives the same events; another seed differs; the summary prints."""
    logs = []
    for n, seed in enumerate((5, 5, 6)):
        path = tmp_path / f"g{n}.jsonl"
        assert main(["run", "--seed", str(seed), "--policy", "random", "--log", str(path)]) == 0
        logs.append(path.read_text().splitlines()[1:])
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]
    assert "turn(s) played" in capsys.readouterr().out


def test_run_with_a_bad_policy_or_option_exits_2(capsys):
    """An unknown policy or option is a one-line message and exit 2."""
    assert main(["run", "--policy", "genius"]) == 2
    assert main(["run", "--option", "no_such=1"]) == 2
    err = capsys.readouterr().err
    assert "unknown policy" in err and "unknown option" in err


def test_replay_command_checks_a_log(tmp_path, capsys):
    """`solo replay` exits 0 for a matching log, 2 for a file that is not a log."""
    path = tmp_path / "g.jsonl"
    assert main(["run", "--seed", "2", "--log", str(path)]) == 0
    assert main(["replay", str(path)]) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    assert main(["replay", str(bad)]) == 2


def test_run_with_forced_dice_file(tmp_path):
    """--dice forces results first; a malformed dice file is path:line, exit 2."""
    good = tmp_path / "d.yaml"
    good.write_text("dice: []\ncards: {enemy: [e07]}\n")
    path = tmp_path / "g.jsonl"
    assert main(["run", "--dice", str(good), "--log", str(path)]) == 0
    assert "e07" in path.read_text()
    bad = tmp_path / "b.yaml"
    bad.write_text("dice: [1, x]\n")
    status, _out, err = run_cli("run", "--dice", str(bad))
    assert status == 2 and "b.yaml:1:" in err


def test_run_with_unknown_scenario_exits_2(capsys):
    """An unknown scenario is a clear message and exit 2."""
    assert main(["run", "atlantis"]) == 2
    assert "atlantis" in capsys.readouterr().err


def test_los_command_reports_clear_and_blocked(capsys):
    """`solo los` exits 0 when clear, 1 when blocked, 2 for a hex off the map."""
    assert main(["los", "town", "15.12", "15.11"]) == 0
    assert "clear" in capsys.readouterr().out
    assert main(["los", "town", "15.12", "40.40"]) == 2
    assert main(["los", "town", "15.12", "bad"]) == 2


def test_console_script_is_installed():
    """The `solo` console script is installed beside the interpreter and runs."""
    assert SOLO.exists()
    status, out, _err = run_cli("--version")
    assert status == 0 and out.startswith("solo ")


def test_unknown_scenario_lists_the_shipped_ids(capsys):
    """An id that is neither shipped nor a file: exit 2, the shipped ids and "or give the path"."""
    assert main(["run", "no_such_scenario"]) == 2
    err = capsys.readouterr().err
    assert "unknown scenario 'no_such_scenario'" in err and "first_contact" in err and "path" in err
    assert "Traceback" not in err and "Errno" not in err


@pytest.mark.parametrize(
    ("argv", "flag", "bad"),
    [
        (["run", "--turns", "0"], "--turns", "0"),
        (["run", "--turns", "-1"], "--turns", "-1"),
        (["run", "--turns", "100"], "--turns", "100"),
        (["run", "--turns", "two"], "--turns", "'two'"),
        (["run", "--seed", "-1"], "--seed", "-1"),
        (["los", "town", "15.12", "15.05", "--max-range", "0"], "--max-range", "0"),
        (["los", "town", "15.12", "15.05", "--tq", "21"], "--tq", "21"),
        (["batch", "first_contact", "--seeds", "1-2", "--jobs", "0"], "--jobs", "0"),
    ],
)
def test_numeric_flags_outside_their_range_exit_2_naming_the_flag(argv, flag, bad, capsys):
    """A numeric flag out of range: argparse refuses it with the flag and the range, exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}: expected a whole number" in err and f"got {bad}" in err


@pytest.mark.parametrize(("turns", "played"), [("1", ": 1 turn(s)"), ("99", " turn(s) played")])
def test_turns_at_the_limits_are_accepted(turns, played, capsys):
    """--turns 1 plays one turn; --turns 99 (the limit) is accepted and the game plays to its end."""
    assert main(["run", "first_contact", "--turns", turns]) == 0
    assert played in capsys.readouterr().out


def test_an_option_value_outside_its_choices_exits_2(capsys):
    """--option with a value the option does not take: exit 2, naming the option and its values."""
    assert main(["run", "--option", "closed_hatch_marker=sometimes"]) == 2
    assert "closed_hatch_marker takes one of negated, minus_1" in capsys.readouterr().err


def _game_log(tmp_path: Path) -> Path:
    log = tmp_path / "game.jsonl"
    assert main(["run", "first_contact", "--seed", "3", "--policy", "simple", "--log", str(log)]) == 0
    return log


def test_a_log_cut_at_a_line_replays_as_a_prefix(tmp_path, capsys):
    """A log that stops at a line boundary before the game's end: exit 0, where it ends, all matches."""
    lines = _game_log(tmp_path).read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(cut)]) == 0
    out = capsys.readouterr().out
    assert "the log ends at decision" in out and "everything up to there matches" in out


def test_a_cut_log_with_a_changed_event_still_differs(tmp_path, capsys):
    """A prefix is checked event by event: a changed line inside it is a difference, exit 1."""
    lines = _game_log(tmp_path).read_text(encoding="utf-8").splitlines(keepends=True)
    half = lines[: len(lines) // 2]
    k = next(i for i in range(len(half) - 1, 0, -1) if '"kind": "roll"' in half[i])
    half[k] = half[k].replace('"text": "', '"text": "X', 1)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(half), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(cut)]) == 1
    assert "differs" in capsys.readouterr().err


def test_a_log_whose_last_line_is_cut_mid_line_says_so(tmp_path, capsys):
    """A last line cut off mid-line: exit 2, path:line and "cut off", no traceback."""
    text = _game_log(tmp_path).read_text(encoding="utf-8")
    cut = tmp_path / "mid.jsonl"
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(cut)]) == 2
    err = capsys.readouterr().err
    assert f"{cut}:" in err and "cut off mid-line" in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["validate", "edit"])
def test_a_file_that_is_not_utf8_is_refused_cleanly(tmp_path, command):
    """`solo validate` and `solo edit` on a file that is not UTF-8 text: `path: cannot read: ...`,
    exit 2, no traceback."""
    p = tmp_path / "scenario.yaml"
    p.write_bytes(b"friendly:\n  - name: caf\xe9 \xff\n")
    status, _out, err = run_cli(command, str(p))
    assert status == 2
    assert f"{p}: cannot read: not UTF-8 text (byte 0xe9 at offset " in err
    assert "Traceback" not in err


def _broken_scenario(tmp_path, *changes):
    """first_contact with ``changes`` (old, new) made; returns the file and the line of each."""
    text = (maps_dir() / "scenarios" / "first_contact.yaml").read_text()
    lines = text.splitlines()
    at = []
    for old, new in changes:
        n = next(k for k, line in enumerate(lines) if old in line)
        lines[n] = lines[n].replace(old, new, 1)
        at.append(n + 1)
    folder = tmp_path / "scenarios"
    folder.mkdir()
    p = folder / "broken.yaml"
    p.write_text("\n".join(lines) + "\n")
    return p, at


def test_validate_lists_setting_and_hex_problems_in_one_run(tmp_path, capsys):
    """A wrong setting (month, weather, an unknown key) no longer hides the rest: the hex off
    the map and the unknown weapon are listed in the same run, each `path:line: message`."""
    p, (month, weather, hand, hexline, weapon) = _broken_scenario(
        tmp_path,
        ("month: 6", "month: 13"),
        ("weather: clear ", "weather: sunny "),
        ("hand: 3", "hands: 3"),
        ('hex: "14.16"}', 'hex: "99.99"}'),
        ("{weapon: bar,", "{weapon: laser,"),
    )
    assert main(["validate", str(p)]) == 2
    err = capsys.readouterr().err
    for line, said in (
        (month, "month: 13 is out of range"),
        (weather, "unknown value 'sunny'"),
        (hand, "unknown key 'hands'"),
        (hexline, "hex 99.99 is not on map"),
        (weapon, "unknown weapon 'laser'"),
    ):
        assert f"broken.yaml:{line}: {said}" in err, (line, said, err)
    assert "5 problem(s)" in err and "Traceback" not in err


def test_validate_still_stops_at_a_required_setting_it_cannot_read(tmp_path, capsys):
    """A required key with a wrong value (turns) cannot be left out: its problem is listed
    (with the other settings'), the checks that need the scenario wait for it."""
    p, (turns, weather, hexline) = _broken_scenario(
        tmp_path,
        ("turns: 6", "turns: many"),
        ("weather: clear ", "weather: sunny "),
        ('hex: "14.16"}', 'hex: "99.99"}'),
    )
    assert main(["validate", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"broken.yaml:{turns}:" in err and f"broken.yaml:{weather}:" in err
    assert f"broken.yaml:{hexline}:" not in err
