"""A log is a save, and a save is user data: every edit is refused with ``path:line: message`` in
the player's words and exit 2, never a traceback; replay names the first difference field by field."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from solo.cli.main import main
from solo.core.log import LogError, read_log

PYTHON_WORDS = re.compile(
    r"Traceback|Error\b|NoneType|object is|' object|subscriptable|codec|\('|list indices|\bint\b|\bstr\b"
)


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The lines of a two-turn first_contact log (seed 3, simple policy)."""
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert (
        main(
            ["run", "first_contact", "--seed", "3", "--policy", "simple", "--turns", "2", "--log", str(path)]
        )
        == 0
    )
    return path.read_text(encoding="utf-8").splitlines()


def _header(**change: Any) -> Callable[[list[str]], list[str]]:
    def edit(lines: list[str]) -> list[str]:
        h = json.loads(lines[0])
        for k, v in change.items():
            if v is _DROP:
                del h[k]
            else:
                h[k] = v
        return [json.dumps(h), *lines[1:]]

    return edit


_DROP = object()


def _event(find: str, change: Callable[[dict[str, Any]], None]) -> Callable[[list[str]], list[str]]:
    """Change the first event line holding ``find``."""

    def edit(lines: list[str]) -> list[str]:
        i = next(n for n, ln in enumerate(lines) if n and find in ln)
        d = json.loads(lines[i])
        change(d)
        return [*lines[:i], json.dumps(d), *lines[i + 1 :]]

    return edit


def _line_of(lines: list[str], find: str) -> int:
    return next(n for n, ln in enumerate(lines) if n and find in ln) + 1


def _run(
    tmp_path: Path, lines: list[str] | bytes, command: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, Path]:
    path = tmp_path / "edited.jsonl"
    if isinstance(lines, bytes):
        path.write_bytes(lines)
    else:
        path.write_text("".join(ln + "\n" for ln in lines), encoding="utf-8")
    capsys.readouterr()
    code = main([command, str(path)])
    err = capsys.readouterr().err.strip()
    return code, err, path


CHOICE = '"automatic": false'
HEADER_CASES = [
    (
        "seed text",
        _header(seed="abc"),
        r"the header's seed must be the seed of the dice, a whole number 0 or more, got \"abc\"",
    ),
    ("seed null", _header(seed=None), r"the header's seed must be .*, got null"),
    ("seed 7.5", _header(seed=7.5), r"the header's seed must be .*, got 7.5"),
    ("seed -7", _header(seed=-7), r"the header's seed must be .* 0 or more, got -7"),
    (
        "scenario 123",
        _header(scenario=123),
        r"the header's scenario must be a shipped scenario id or the path of a scenario file \(a text\), "
        r"got 123",
    ),
    (
        "scenario unknown",
        _header(scenario="zzz"),
        r"the header names scenario \"zzz\", which is not a shipped scenario \(.*first_contact.*\) "
        r"nor a scenario file here",
    ),
    ("no scenario", _header(scenario=_DROP), r"the header has no scenario"),
    (
        "options list",
        _header(options=[1]),
        r"the header's options must map option names to values, got \[1\]",
    ),
    (
        "option unknown",
        _header(options={"zzz": 1}),
        r"the header names an unknown option \"zzz\" \(known: .*dummy_tq.*\)",
    ),
    (
        "option retyped",
        _header(options={"dummy_tq": "x"}),
        r"the header's option dummy_tq takes a whole number, got \"x\"",
    ),
    (
        "turns text",
        _header(turns="x"),
        r"the header's turns must be the number of turns played, a whole number 1-99, got \"x\"",
    ),
    (
        "forced without at_input",
        _header(forced=[{"dice": [1]}]),
        r"a forced result's at_input must be a decision number 0 or more, got null",
    ),
    ("unknown field", _header(colour="red"), r"the header has a field this version does not know: colour"),
    (
        "policy unknown",
        _header(policy="zzz"),
        r"the header names an unknown policy 'zzz' "
        r"\(known: tactical, random, simple, scripted, window, window \(table\)\)",
    ),
]


@pytest.mark.parametrize("command", ["replay", "inspect"])
@pytest.mark.parametrize("name,edit,message", HEADER_CASES, ids=[c[0] for c in HEADER_CASES])
def test_an_edited_header_is_refused_at_line_1(game_log, tmp_path, capsys, command, name, edit, message):
    """Each header edit of the issue: ``path:1: message`` in the player's words, exit 2."""
    code, err, path = _run(tmp_path, edit(game_log), command, capsys)
    assert code == 2, err
    assert re.fullmatch(re.escape(f"{path}:1: ") + message, err), err
    assert not PYTHON_WORDS.search(err.removeprefix(str(path))), err


EVENT_CASES = [
    (
        "choice data null",
        CHOICE,
        lambda d: d.__setitem__("data", None),
        r"the event's data must be a JSON object, got null",
    ),
    (
        "choice data empty",
        CHOICE,
        lambda d: d.__setitem__("data", {}),
        r"the player's choice names no option chosen \(data.choice\), got null",
    ),
    (
        "seq 9004",
        '"seq": 4,',
        lambda d: d.__setitem__("seq", 9004),
        r"the event's seq is 9004, expected 4 \(events are numbered in order; a line deleted or moved\?\)",
    ),
    (
        "seq text",
        '"seq": 4,',
        lambda d: d.__setitem__("seq", "x"),
        r"the event's seq is \"x\", expected 4 \(events are numbered in order\)",
    ),
    ("no seq", '"seq": 4,', lambda d: d.pop("seq"), r"the event has no seq"),
    (
        "turn text",
        '"seq": 4,',
        lambda d: d.__setitem__("turn", "1"),
        r"the event's turn must be a whole number 0-99, got \"1\"",
    ),
    (
        "impulse 7",
        '"seq": 4,',
        lambda d: d.__setitem__("impulse", 7),
        r"the event's impulse must be a whole number 0-4, got 7",
    ),
    (
        "automatic roll",
        '"kind": "roll"',
        lambda d: d.__setitem__("automatic", False),
        r"only a choice event can be the player's \(automatic: false\), this is a \"roll\"",
    ),
]


@pytest.mark.parametrize("command", ["replay", "inspect"])
@pytest.mark.parametrize("name,find,change,message", EVENT_CASES, ids=[c[0] for c in EVENT_CASES])
def test_an_edited_event_is_refused_at_its_line(
    game_log, tmp_path, capsys, command, name, find, change, message
):
    """Each event edit of the issue: ``path:line: message`` at the edited line, exit 2."""
    line = _line_of(game_log, find)
    code, err, path = _run(tmp_path, _event(find, change)(game_log), command, capsys)
    assert code == 2, err
    assert re.fullmatch(re.escape(f"{path}:{line}: ") + message, err), err
    assert not PYTHON_WORDS.search(err.removeprefix(str(path))), err


def test_a_line_that_is_a_list_is_not_an_event(game_log, tmp_path, capsys):
    """A JSON list where an event belongs: named as such, not ``list indices must be integers``."""
    lines = [*game_log[:5], "[1, 2]", *game_log[6:]]
    code, err, path = _run(tmp_path, lines, "replay", capsys)
    assert (code, err) == (2, f"{path}:6: this line must be an event (a JSON object), got [1, 2]")


def test_a_repeated_line_is_named_at_the_repeat(game_log, tmp_path, capsys):
    """A line duplicated: its copy is refused at its line, with what probably happened."""
    lines = [*game_log[:40], game_log[39], *game_log[40:]]
    code, err, path = _run(tmp_path, lines, "replay", capsys)
    assert code == 2
    assert (
        err == f"{path}:41: the event's seq is 38, expected 39 "
        "(events are numbered in order; a line repeated or moved?)"
    )


def test_a_binary_file_is_not_a_log(tmp_path, capsys):
    """Bytes that are not UTF-8: ``path:line: not a solo log``, not a codec message."""
    code, err, path = _run(tmp_path, b'{"a": 1}\n\xd0\x01\x02garbage\n', "replay", capsys)
    assert (code, err) == (2, f"{path}:2: not a solo log: the file is not text (byte 10 is not UTF-8)")


def test_an_empty_file_and_a_header_that_is_not_json(tmp_path, capsys):
    """An empty file and a first line that is not JSON: line 1, exit 2."""
    code, err, path = _run(tmp_path, b"", "replay", capsys)
    assert (code, err) == (2, f"{path}:1: empty log (the first line must be the header)")
    code, err, path = _run(tmp_path, b"hello\n", "inspect", capsys)
    assert (code, err) == (2, f"{path}:1: not a solo log: the header is not a JSON line (broken at column 1)")


def test_a_missing_file_is_named(tmp_path, capsys):
    """A log that is not there: path:1, exit 2."""
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"{tmp_path / 'nope.jsonl'}:1: cannot read the log (No such file or directory)"
    )


def test_branch_and_load_read_logs_the_same_way(game_log, tmp_path, capsys):
    """`solo branch` and the window's load (`solo play --load`) refuse an edited log as replay does."""
    from solo.render.session import load_session

    path = tmp_path / "edited.jsonl"
    path.write_text("".join(ln + "\n" for ln in _header(seed="abc")(game_log)), encoding="utf-8")
    capsys.readouterr()
    assert main(["branch", f"{path}@#3", "--out", str(tmp_path / "b.jsonl")]) == 2
    assert capsys.readouterr().err.strip().startswith(f"{path}:1: the header's seed must be")
    with pytest.raises(LogError, match=re.escape(f"{path}:1: the header's seed must be")):
        load_session(path)


# -- replay names the first difference ----------------------------------------


def test_an_edited_roll_is_named_field_by_field(game_log, tmp_path, capsys):
    """A roll's faces and total edited, its text not: `faces [3] vs [1]; total 3 vs 1` at its line, exit 1."""

    def edit(d: dict[str, Any]) -> None:
        d["data"]["faces"] = [1]
        d["data"]["total"] = 1

    find = '"faces": [3], "kind": "d10"'
    line = _line_of(game_log, find)
    ev = json.loads(game_log[line - 1])
    code, err, path = _run(tmp_path, _event(find, edit)(game_log), "replay", capsys)
    assert code == 1
    assert err == (
        f"{path}:{line}: replay differs at event {line - 2} "
        f"(roll, turn {ev['turn']} impulse {ev['impulse']}): "
        "faces [1] vs [3]; total 1 vs 3 (logged vs replayed)"
    )


def test_a_changed_choice_is_named_at_its_own_event(game_log, tmp_path, capsys):
    """A Duck Back answer changed: the difference is named at that choice, not at a later event."""
    find = '"choice": "no", "decision": "duck_back"'
    line = _line_of(game_log, find)
    code, err, path = _run(
        tmp_path, _event(find, lambda d: d["data"].__setitem__("choice", "yes"))(game_log), "replay", capsys
    )
    ev = json.loads(game_log[line - 1])
    assert code == 1
    assert err.startswith(
        f"{path}:{line}: replay differs at event {line - 2} "
        f"(choice, turn {ev['turn']} impulse {ev['impulse']}): "
    )
    assert 'choice "yes" vs "yes"' not in err and f"text {json.dumps(ev['text'])} vs" in err


def test_an_illegal_choice_is_named_at_its_own_event(game_log, tmp_path, capsys):
    """A choice that is not an option of its decision: at its line, with the options offered."""
    find = '"choice": "no", "decision": "duck_back"'
    line = _line_of(game_log, find)
    code, err, path = _run(
        tmp_path,
        _event(find, lambda d: d["data"].__setitem__("choice", "blue_5"))(game_log),
        "replay",
        capsys,
    )
    assert code == 1
    assert re.fullmatch(
        re.escape(
            f'{path}:{line}: the player\'s choice "blue_5" at event {line - 2} '
            "is not one the game offers here ("
        )
        + r".*: Duck Back\?: .*\)",
        err,
    ), err


def test_another_scenario_in_the_header_is_a_header_difference(game_log, tmp_path, capsys):
    """A first_contact log whose header says the_churchyard: header named (line 1), before any event."""
    code, err, path = _run(tmp_path, _header(scenario="the_churchyard")(game_log), "replay", capsys)
    assert code == 1
    assert err.startswith(
        f"{path}:1: the header does not give the game this log was played from (its scenario, seed, options, "
        "turns or forced results changed?): "
    )
    assert "the first at event 0 (line 2): " in err


def test_another_seed_in_the_header_is_a_header_difference(game_log, tmp_path, capsys):
    """A seed edited to another valid seed: a header difference, not a choice that is not legal."""
    code, err, path = _run(tmp_path, _header(seed=4)(game_log), "replay", capsys)
    assert code == 1 and err.startswith(f"{path}:1: the header does not give the game")


def test_an_unchanged_log_still_matches(game_log, tmp_path, capsys):
    """The checks refuse no log solo wrote: the log as written replays and matches."""
    path = tmp_path / "same.jsonl"
    path.write_text("".join(ln + "\n" for ln in game_log), encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert "replay matches" in capsys.readouterr().out
    header, events = read_log(path)
    assert header.seed == 3 and len(events) == len(game_log) - 1


def test_play_load_refuses_an_edited_save(game_log, tmp_path, capsys, monkeypatch):
    """`solo play --load` of a save with a retyped seed: path:1, exit 2, no window game."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = tmp_path / "save.jsonl"
    path.write_text("".join(ln + "\n" for ln in _header(seed=None)(game_log)), encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--load", str(path), "--frames", "2"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{path}:1: the header's seed must be the seed of the dice, a whole number 0 or more, got null"
    )
