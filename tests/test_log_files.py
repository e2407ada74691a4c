"""A log holds everything its game depends on: every file read is in its data version, and a
replay after one changed names that file."""

from __future__ import annotations

import json
from pathlib import Path

from solo.cli.main import main
from solo.core.log import data_version, file_versions, read_log
from solo.core.resources import cards_dir, maps_dir


def _scenario_with_own_map(tmp_path: Path) -> tuple[Path, Path]:
    """First Contact on a copy of the town given by path: (scenario file, map file)."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "scenarios").mkdir()
    town = (maps_dir() / "town.yaml").read_text(encoding="utf-8").replace("\nid: town", "\nid: mytown", 1)
    map_path = tmp_path / "maps" / "mytown.yaml"
    map_path.write_text(town, encoding="utf-8")
    text = (maps_dir() / "scenarios" / "first_contact.yaml").read_text(encoding="utf-8")
    scen = tmp_path / "scenarios" / "mine.yaml"
    scen.write_text(text.replace("\nmap: town\n", "\nmap: ../maps/mytown.yaml\n"), encoding="utf-8")
    return scen, map_path


def test_a_changed_map_given_by_path_is_named(tmp_path, capsys):
    """The map a scenario names by path changed after the game: the replay names that file, exit 2."""
    scen, map_path = _scenario_with_own_map(tmp_path)
    log = tmp_path / "game.jsonl"
    assert main(["run", str(scen), "--seed", "2", "--turns", "1", "--log", str(log)]) == 0
    header, _ = read_log(log)
    assert header.files == file_versions(None, None, [scen, map_path])
    assert sorted(header.files) == sorted([str(scen), str(map_path)])
    map_path.write_text(map_path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{log}:1: {map_path} changed since the log was made; replaying it would diverge"
    )


def test_a_changed_card_of_a_card_set_is_named(tmp_path, capsys):
    """``--cards DIR``: a card file edited after the game is named by the replay (and inspect)."""
    cards = tmp_path / "cards"
    cards.mkdir()
    terrain = cards / "terrain.yaml"
    terrain.write_text((cards_dir() / "terrain.yaml").read_text(encoding="utf-8") + "\n# mine\n")
    log = tmp_path / "game.jsonl"
    assert main(["run", "--turns", "1", "--cards", str(cards), "--log", str(log)]) == 0
    assert json.loads(log.read_text().splitlines()[0])["files"] == {
        str(terrain): file_versions(cards)[str(terrain)]
    }
    terrain.write_text(terrain.read_text() + "# again\n")
    for command in ("replay", "inspect"):
        capsys.readouterr()
        assert main([command, str(log)]) == 2
        assert capsys.readouterr().err.strip() == (
            f"{log}:1: {terrain} changed since the log was made; replaying it would diverge"
        )


def test_a_card_sets_own_vehicles_are_in_the_data_version(tmp_path):
    """A card set's ``vehicles/`` folder replaces the shipped one: each of its files is hashed."""
    cards = tmp_path / "cards"
    (cards / "vehicles").mkdir(parents=True)
    for p in sorted((cards_dir() / "vehicles").glob("*.yaml")):
        (cards / "vehicles" / p.name).write_bytes(p.read_bytes())
    before = data_version(cards)
    assert before == data_version()  # the same files: the same version
    first = next(iter(sorted((cards / "vehicles").glob("*.yaml"))))
    (cards / "vehicles" / "my_tank.yaml").write_bytes(first.read_bytes())
    assert data_version(cards) != before
    assert str(cards / "vehicles" / "my_tank.yaml") in file_versions(cards)


def test_a_game_of_shipped_data_records_no_files(tmp_path, capsys):
    """Shipped data only: no ``files`` in the header (logs keep their bytes); another data version
    is named as the shipped data."""
    log = tmp_path / "game.jsonl"
    assert main(["run", "--turns", "1", "--log", str(log)]) == 0
    lines = log.read_text().splitlines()
    assert '"files"' not in lines[0]
    h = json.loads(lines[0])
    h["data_version"] = "0123456789abcdef"
    log.write_text("\n".join([json.dumps(h), *lines[1:]]) + "\n")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{log}:1: the shipped data are not those the log was made with (data version 0123456789abcdef, "
        f"here {data_version()}: another version of solo?); replaying it would diverge"
    )
