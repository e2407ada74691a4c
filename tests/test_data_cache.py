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
