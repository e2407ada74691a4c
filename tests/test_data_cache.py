"""The parsed-data cache (issue 10 item 4): keyed by every data file and the loader source."""

from __future__ import annotations

import shutil
from pathlib import Path

import attrs
import pytest

from solo.core.errors import DataError
from solo.core.resources import cards_dir
from solo.data import data_cache, house
from solo.data.house import load_data


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("SOLO_DATA_CACHE", str(d))
    return d


def _entries(d: Path) -> list[Path]:
    return sorted(d.glob("house-*.pickle"))


def _same(a, b) -> bool:
    """Equal data (maps compare by identity, so by their fields here)."""
    return (
        attrs.evolve(a, maps={}) == attrs.evolve(b, maps={})
        and sorted(a.maps) == sorted(b.maps)
        and all(
            attrs.asdict(a.maps[k], recurse=False) == attrs.asdict(b.maps[k], recurse=False) for k in a.maps
        )
    )


def _no_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make parsing fail, so a load can only come from the cache."""

    def refuse(*a, **k):
        raise AssertionError("parsed the YAML again")

    monkeypatch.setattr(house, "load_set", refuse)


def test_second_load_reads_the_cache_and_equals_a_fresh_load(cache, monkeypatch):
    first = load_data()
    assert len(_entries(cache)) == 1
    _no_yaml(monkeypatch)
    again = load_data()
    assert again is not first
    assert _same(again, first)
    assert again.sources == first.sources


def test_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SOLO_DATA_CACHE", "off")
    monkeypatch.setattr(data_cache, "_write", lambda *a: (_ for _ in ()).throw(AssertionError("wrote")))
    assert data_cache.cache_dir() is None
    assert load_data().enemy_deck.cards


def test_default_is_the_user_cache_dir(monkeypatch):
    import platformdirs

    monkeypatch.delenv("SOLO_DATA_CACHE", raising=False)
    assert data_cache.cache_dir() == Path(platformdirs.user_cache_dir("solo", appauthor=False)) / "data"


def test_a_changed_data_file_makes_a_new_key_and_drops_the_old_entry(cache, tmp_path, monkeypatch):
    cards = tmp_path / "cards"
    cards.mkdir()
    shutil.copy(cards_dir() / "terrain.yaml", cards / "terrain.yaml")
    load_data(cards)
    (old,) = _entries(cache)
    with (cards / "terrain.yaml").open("a", encoding="utf-8") as f:
        f.write("# a designer's note\n")
    load_data(cards)
    (new,) = _entries(cache)
    assert new != old
    # And the new entry is what a further load reads.
    _no_yaml(monkeypatch)
    assert load_data(cards).terrain.types[0].id


def test_the_loader_source_is_part_of_the_key(cache, monkeypatch):
    files = [cards_dir() / "terrain.yaml"]
    base = data_cache.key_of(files)
    assert data_cache.key_of(files) == base
    sources = data_cache._source_files()
    assert Path(house.__file__).resolve() in sources
    assert Path(data_cache.__file__).resolve().parent.parent / "core" / "dice.py" in sources
    monkeypatch.setattr(data_cache, "_source_files", lambda: [*sources[:-1]])
    assert data_cache.key_of(files) != base


@pytest.mark.parametrize("damage", ["truncate", "garbage", "other_key"])
def test_a_corrupt_cache_is_ignored_and_rebuilt(cache, damage):
    good = load_data()
    (entry,) = _entries(cache)
    blob = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(blob[: len(blob) // 2])
    elif damage == "garbage":
        entry.write_bytes(blob[: len(data_cache._MAGIC) + 65] + b"\x80\x05not a pickle")
    else:
        entry.write_bytes(blob.replace(entry.stem[len("house-") :].encode(), b"0" * 64, 1))
    again = load_data()
    assert _same(again, good)
    assert entry.read_bytes() == blob  # rewritten whole


def test_bad_data_is_not_cached(cache, tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "terrain.yaml").write_text("terrain: nope\n", encoding="utf-8")
    with pytest.raises(DataError):
        load_data(cards)
    assert _entries(cache) == []


# ---------------------------------------------------------------------------
# Scenarios through the cache, key_for, other installations' entries (issue 10, start-up)


def _scenario_entries(d: Path, name: str) -> list[Path]:
    return sorted(d.glob(f"scenario-{name}-*.pickle"))


def _fresh_scenario_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    from solo.playtest import play

    monkeypatch.setattr(play, "_SCENARIOS", {})


def test_key_for_names_the_key_of_a_cached_value_only(cache, monkeypatch):
    data = load_data()
    (entry,) = _entries(cache)
    assert data_cache.key_for(data) == entry.stem[len("house-") :]
    assert data_cache.key_for(attrs.evolve(data)) is None  # an equal copy is not the cached one
    monkeypatch.setenv("SOLO_DATA_CACHE", "off")
    assert data_cache.key_for(load_data()) is None


def test_a_shipped_scenario_is_read_back_from_the_cache(cache, monkeypatch):
    from solo.data.scenario import load_scenario
    from solo.playtest import play

    data = load_data()
    _fresh_scenario_memo(monkeypatch)
    first = play.new_game("first_contact", seed=1, data=data)
    (entry,) = _scenario_entries(cache, "first_contact")
    _fresh_scenario_memo(monkeypatch)
    monkeypatch.setattr(play, "load_scenario", lambda *a, **k: pytest.fail("loaded the scenario again"))
    again = play.new_game("first_contact", seed=1, data=data)
    assert again.scenario == first.scenario == load_scenario("first_contact", data)
    assert [str(e) for e in again.events] == [str(e) for e in first.events]
    assert _scenario_entries(cache, "first_contact") == [entry]


def test_a_scenario_is_keyed_by_the_house_data_it_was_checked_against(cache, tmp_path, monkeypatch):
    from solo.playtest import play

    play._load_scenario("first_contact", load_data())
    (shipped,) = _scenario_entries(cache, "first_contact")
    cards = tmp_path / "cards"
    cards.mkdir()
    shutil.copy(cards_dir() / "weapons.yaml", cards / "weapons.yaml")
    with (cards / "weapons.yaml").open("a", encoding="utf-8") as f:
        f.write("# another card set\n")
    play._load_scenario("first_contact", load_data(cards))
    (other,) = _scenario_entries(cache, "first_contact")
    assert other != shipped


def test_a_scenario_is_not_cached_without_a_cached_house(cache, monkeypatch):
    from solo.playtest import play

    data = attrs.evolve(load_data())  # equal data the cache did not give
    play._load_scenario("first_contact", data)
    assert _scenario_entries(cache, "first_contact") == []


def test_a_scenario_with_a_map_of_its_own_is_not_cached(cache):
    from solo.data.scenario import load_scenario
    from solo.playtest import play

    data = load_data()
    sc = play._load_scenario("the_burning_wood", data)
    assert sc.map_def is not None  # its overlays make a map of its own
    assert sc == load_scenario("the_burning_wood", data)
    assert _scenario_entries(cache, "the_burning_wood") == []


def test_a_corrupt_scenario_entry_is_ignored_and_rebuilt(cache):
    from solo.playtest import play

    data = load_data()
    good = play._load_scenario("first_contact", data)
    (entry,) = _scenario_entries(cache, "first_contact")
    blob = entry.read_bytes()
    entry.write_bytes(blob[: len(blob) - 40])
    assert play._load_scenario("first_contact", data) == good
    assert entry.read_bytes() == blob


def test_keep_may_refuse_a_result(cache):
    files = [cards_dir() / "terrain.yaml"]
    assert data_cache.cached("probe", files, lambda: 7, keep=lambda v: v > 7) == 7
    assert sorted(cache.glob("probe-*.pickle")) == []
    assert data_cache.cached("probe", files, lambda: 8, keep=lambda v: v > 7) == 8
    assert len(sorted(cache.glob("probe-*.pickle"))) == 1


def test_another_installations_entries_are_kept_up_to_a_bound(cache, monkeypatch):
    """Two checkouts share the user's cache: neither removes the other's entry (only its own old ones)."""
    import os

    files = [cards_dir() / "terrain.yaml"]

    def write(value: str, extra: str, when: int) -> Path:
        before = set(cache.glob("probe-*.pickle"))
        data_cache.cached("probe", files, lambda: value, extra=extra)
        (new,) = set(cache.glob("probe-*.pickle")) - before
        os.utime(new, (when, when))  # distinct times, whatever the file system's resolution
        return new

    mine = write("here", "", 1_000_000)
    theirs = []
    for n in range(data_cache.KEEP_OTHERS + 2):
        monkeypatch.setattr(data_cache, "_installation", lambda n=n: b"from other%d" % n)
        theirs.append(write(f"there {n}", str(n), 1_000_100 + n))
    monkeypatch.undo()
    monkeypatch.setenv("SOLO_DATA_CACHE", str(cache))
    left = sorted(cache.glob("probe-*.pickle"))
    assert mine not in left  # removed by the last writer: it keeps only the newest KEEP_OTHERS others
    assert len(left) == data_cache.KEEP_OTHERS + 1
    assert theirs[-1] in left and theirs[0] not in left
    # Here again: this installation's entry is written beside the newest KEEP_OTHERS others.
    assert write("here", "", 1_000_200) == mine
    left = sorted(cache.glob("probe-*.pickle"))
    assert mine in left and theirs[-1] in left and theirs[1] not in left
    assert len(left) == data_cache.KEEP_OTHERS + 1


def test_the_first_decision_from_a_warm_cache_imports_neither_yaml_nor_cattrs(cache):
    """A fresh process whose data come from the cache parses no YAML (issue 10, start-up)."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; from solo.playtest.play import new_game; "
        "g = new_game('first_contact', seed=1); assert g.pending is not None; "
        "print(sorted(m for m in ('yaml', 'cattrs', 'solo.core.log') if m in sys.modules))"
    )
    env = {**os.environ, "SOLO_DATA_CACHE": str(cache)}
    # From the cache's folder, not the checkout: with a non-editable install the checkout's
    # ``solo/`` (no ``_shipped`` data in it) would shadow the installed package (.ci/run).
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=cache.parent,
        )
        for _ in range(2)
    ]
    assert runs[0].stdout.strip() == "['cattrs', 'yaml']"  # the first run parses and fills the cache
    assert runs[1].stdout.strip() == "[]"
