"""Your own data (issue 12 item 4): a scenario's map by path, ``--maps DIR`` and ``--cards DIR``."""

from pathlib import Path

import pytest

from solo.cli.main import main
from solo.core.errors import DataError
from solo.core.log import data_version, read_log
from solo.core.resources import cards_dir, maps_dir
from solo.data.house import load_data
from solo.data.scenario import load_scenario
from solo.playtest.play import new_game, replay


def _my_map(folder: Path, map_id: str = "mytown") -> Path:
    """A copy of the shipped town named ``map_id`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (maps_dir() / "town.yaml").read_text(encoding="utf-8")
    text = text.replace("\nid: town", f"\nid: {map_id}", 1)
    assert f"\nid: {map_id}" in text
    path = folder / f"{map_id}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _scenario_on(folder: Path, map_text: str, name: str = "mine.yaml") -> Path:
    """First Contact with its ``map:`` line replaced by ``map_text``."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = (maps_dir() / "scenarios" / "first_contact.yaml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("map:"))
    lines[at] = f"map: {map_text}"
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _map_line(path: Path) -> int:
    return 1 + next(i for i, line in enumerate(path.read_text().splitlines()) if line.startswith("map:"))


def test_map_path_relative_to_the_scenario_file_is_loaded(tmp_path):
    """``map: ../maps/mytown.yaml`` is read from beside the scenario, not from the shipped maps."""
    _my_map(tmp_path / "maps")
    sc = load_scenario(_scenario_on(tmp_path / "scenarios", "../maps/mytown.yaml"), load_data())
    assert sc.map_def is not None and sc.map_def.id == "mytown"
    assert sc.map_of({}).id == "mytown"


def test_shipped_map_id_still_names_the_shipped_map(tmp_path):
    """``map: town`` keeps using the card set's map (no map of the scenario's own)."""
    data = load_data()
    sc = load_scenario(_scenario_on(tmp_path, "town"), data)
    assert sc.map_def is None
    assert sc.map_of(data.maps) is data.maps["town"]


def test_absolute_map_path_is_loaded(tmp_path):
    """An absolute path works from anywhere."""
    path = _my_map(tmp_path / "elsewhere")
    sc = load_scenario(_scenario_on(tmp_path / "s", str(path)), load_data())
    assert sc.map_def.id == "mytown"


def test_missing_map_file_is_named_at_the_map_line(tmp_path):
    """A map path that is not there: the scenario's file and ``map:`` line, and where it looked."""
    scen = _scenario_on(tmp_path, "nosuch.yaml")
    with pytest.raises(DataError) as err:
        load_scenario(scen, load_data())
    (problem,) = err.value.problems
    assert problem.line == _map_line(scen)
    assert "map file 'nosuch.yaml' not found" in problem.message
    assert str(tmp_path / "nosuch.yaml") in problem.message


def test_broken_map_file_reports_its_own_lines(tmp_path):
    """A map file with an unknown terrain: its problems come with the map file's name and line."""
    path = _my_map(tmp_path)
    text = path.read_text().replace('  "R": rubble', '  "R": quicksand', 1)
    path.write_text(text)
    scen = _scenario_on(tmp_path / "s", "../mytown.yaml")
    with pytest.raises(DataError) as err:
        load_scenario(scen, load_data())
    bad = next(i for i, line in enumerate(text.splitlines()) if "quicksand" in line) + 1
    assert any(p.path == str(path) and p.line == bad for p in err.value.problems), err.value.problems
    assert any(p.path == str(scen) and p.line == _map_line(scen) for p in err.value.problems)


def test_map_def_is_not_a_key_of_the_file(tmp_path):
    """``map_def:`` written in a scenario is refused like any unknown key."""
    scen = _scenario_on(tmp_path, "town")
    scen.write_text(scen.read_text() + "map_def: town\n")
    with pytest.raises(DataError) as err:
        load_scenario(scen, load_data())
    assert any("unknown key 'map_def'" in p.message for p in err.value.problems)


def test_game_on_a_map_by_path_is_played_on_that_map_and_replays(tmp_path, capsys):
    """`solo run` a scenario on its own map, log it, replay it exactly."""
    path = _my_map(tmp_path / "maps")
    scen = _scenario_on(tmp_path / "scenarios", "../maps/mytown.yaml")
    game = new_game(scen, seed=4)
    assert game.board.map.id == "mytown"
    log = tmp_path / "game.jsonl"
    assert main(["run", str(scen), "--seed", "4", "--turns", "1", "--log", str(log)]) == 0
    assert main(["replay", str(log)]) == 0
    assert "replay matches" in capsys.readouterr().out
    assert path.exists()


def test_maps_dir_adds_maps_by_id_and_is_kept_in_the_log(tmp_path, capsys):
    """``--maps DIR``: a scenario names the folder's map by id; the log keeps the folder and replays."""
    folder = tmp_path / "mymaps"
    _my_map(folder)
    scen = _scenario_on(folder / "scenarios", "mytown")
    log = tmp_path / "game.jsonl"
    assert main(["run", str(scen), "--turns", "1"]) == 2
    assert "unknown map 'mytown'" in capsys.readouterr().err
    assert main(["run", str(scen), "--turns", "1", "--maps", str(folder), "--log", str(log)]) == 0
    header, _ = read_log(log)
    assert header.map_set == str(folder)
    assert header.data_version == data_version(None, folder, [scen]) != data_version()
    assert replay(log).ok


def test_a_changed_user_map_is_detected_by_the_replay(tmp_path, capsys):
    """The map a scenario names by path, and the scenario file itself, are in the log's data
    version: a replay after either changed is refused (exit 2) instead of diverging."""
    from solo.data.scenario import user_files
    from solo.playtest.play import game_data_version

    path = _my_map(tmp_path / "maps")
    scen = _scenario_on(tmp_path / "scenarios", "../maps/mytown.yaml")
    assert user_files(scen) == (scen, path)
    log = tmp_path / "game.jsonl"
    assert main(["run", str(scen), "--seed", "2", "--turns", "1", "--log", str(log)]) == 0
    header, _ = read_log(log)
    assert header.data_version == data_version(None, None, [scen, path]) != data_version()
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace('  "R": rubble', '  "R": trees', 1), encoding="utf-8")
    assert path.read_text(encoding="utf-8") != original
    assert main(["replay", str(log)]) == 2
    assert f"{path} changed since the log was made" in capsys.readouterr().err
    path.write_text(original, encoding="utf-8")  # back as it was: the replay matches again
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    scen.write_text(scen.read_text(encoding="utf-8") + "# a note\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    assert game_data_version(None, None, "first_contact") == data_version()


def test_a_changed_map_of_the_maps_dir_is_detected_by_the_replay(tmp_path, capsys):
    """``--maps DIR``: a map of the folder edited after the game: the replay is refused (exit 2)."""
    folder = tmp_path / "mymaps"
    path = _my_map(folder)
    scen = _scenario_on(folder / "scenarios", "mytown")
    log = tmp_path / "game.jsonl"
    assert main(["run", str(scen), "--turns", "1", "--maps", str(folder), "--log", str(log)]) == 0
    assert main(["replay", str(log)]) == 0
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    assert f"{path} changed since the log was made" in capsys.readouterr().err


def test_a_shipped_scenario_by_path_reads_no_user_file():
    """A shipped scenario given by its path hashes as by its id (no user file)."""
    from solo.data.scenario import user_files

    assert user_files(maps_dir() / "scenarios" / "first_contact.yaml") == ()
    assert user_files("first_contact") == ()


def test_log_without_a_map_set_has_no_map_set_key(tmp_path):
    """A log played on shipped data is written as before (no ``map_set`` key): goldens keep their bytes."""
    log = tmp_path / "game.jsonl"
    assert main(["run", "first_contact", "--turns", "1", "--log", str(log)]) == 0
    assert '"map_set"' not in log.read_text().splitlines()[0]


def test_cards_dir_is_kept_in_the_log(tmp_path):
    """``solo run --cards DIR --log``: the header names the card set, so the replay uses it."""
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "terrain.yaml").write_text((cards_dir() / "terrain.yaml").read_text() + "\n# my copy\n")
    log = tmp_path / "game.jsonl"
    assert main(["run", "--turns", "1", "--cards", str(cards), "--log", str(log)]) == 0
    header, _ = read_log(log)
    assert header.card_set == str(cards)
    assert header.data_version == data_version(cards) != data_version()
    assert replay(log).ok


@pytest.mark.parametrize("command", ["run", "validate", "render"])
def test_missing_data_dir_is_refused(tmp_path, capsys, command):
    """``--maps``/``--cards`` naming no folder: one line, exit 2."""
    extra = ["first_contact", "--out", str(tmp_path / "x.png")] if command == "render" else []
    assert main([command, *extra, "--maps", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "none") in err and "Traceback" not in err


def test_validate_says_which_data_it_checked(tmp_path, capsys):
    """`solo validate` names the card and map folders it read, the designer's first."""
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert f"data read from: {cards_dir().resolve()} (12 files), {maps_dir().resolve()} (7 files)" in out
    folder = tmp_path / "mymaps"
    _my_map(folder)
    _scenario_on(folder / "scenarios", "mytown")
    assert main(["validate", "--maps", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"{folder.resolve()} (1 file)" in out and f"{(folder / 'scenarios').resolve()} (1 file)" in out


def test_validate_checks_the_map_dirs_scenarios(tmp_path, capsys):
    """A bad scenario in ``--maps DIR/scenarios`` is found: its path and ``map:`` line, exit 2."""
    folder = tmp_path / "mymaps"
    folder.mkdir()
    scen = _scenario_on(folder / "scenarios", "mytown")
    assert main(["validate", "--maps", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"{scen}:{_map_line(scen)}: unknown map 'mytown'" in err
    assert f"read from {cards_dir().resolve()} (12 files)" in err


def test_an_own_map_id_without_maps_dir_names_the_file_and_the_flag(tmp_path, capsys):
    """The README's session without ``--maps``: ``map: mytown`` and mine/mytown.yaml one folder up:
    the problem says how to name it (a path, or the folder with --maps)."""
    folder = tmp_path / "mine"
    _my_map(folder)
    scen = _scenario_on(folder / "scenarios", "mytown")
    assert main(["run", str(scen), "--turns", "1"]) == 2
    err = capsys.readouterr().err
    assert f"{scen}:{_map_line(scen)}: unknown map 'mytown'" in err
    assert "write 'map: ../mytown.yaml', or give its folder with --maps" in err
    lone = _scenario_on(tmp_path / "alone", "nosuch")
    assert main(["run", str(lone), "--turns", "1"]) == 2
    assert "or a map file, e.g. mytown.yaml" in capsys.readouterr().err


def test_a_log_replayed_from_another_folder_names_the_missing_scenario_file(tmp_path, monkeypatch, capsys):
    """The log keeps the scenario path as given (relative): replayed from a folder where it is not
    found, the replay says so (``log:1: scenario file ... not found``, exit 2), not "data version"."""
    scen = _scenario_on(tmp_path / "work" / "scenarios", "town")
    monkeypatch.chdir(tmp_path / "work")
    log = tmp_path / "game.jsonl"
    assert main(["run", "scenarios/" + scen.name, "--turns", "1", "--log", str(log)]) == 0
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    looked = tmp_path / "scenarios" / scen.name
    assert f"game.jsonl:1: scenario file 'scenarios/{scen.name}' not found (looked for {looked})" in err
    assert "data version" not in err
