"""The schema of a log (the save file): every field of the header and of each event, checked.

A log is a file the player may have edited, copied half-way or mixed up with another file,
so it is read as untrusted input: :func:`check_header` and :func:`check_event` check every
field's type and range, the names the header uses (a shipped scenario or a scenario file, the
house options), and that events are numbered 0, 1, 2... in order. A problem raises
:class:`LogProblem` with the 1-based line and a message in the player's words (``the header's
seed must be a whole number 0 or more, got "abc"``); :func:`solo.core.log.read_log` puts the
path in front. Values are shown as they are written in the file (JSON: ``null``, ``true``).

May import: solo.core only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from solo.core.options import OPTION_CHOICES, OPTION_RANGES, Options
from solo.core.resources import maps_dir

TURNS_MAX = 99
"""The most turns a game can have (``solo.data.scenario.MAX_TURNS``; core cannot import it)."""
IMPULSES = 4
"""Impulses of a turn's Action Phase (base-rules §1); 0 is outside the Action Phase."""
DIE_MAX = 99
"""The largest forced die reading (%D reads 00-99)."""
WINDOW_POLICIES = ("window", "window (table)")
"""The policy a save from the window names (the player chose)."""

HEADER_FIELDS = (
    "format",
    "version",
    "scenario",
    "seed",
    "data_version",
    "options",
    "dice",
    "cards",
    "policy",
    "turns",
    "card_set",
    "map_set",
    "parent",
    "forced",
    "sandbox",
    "bookmarks",
    "auto",
    "files",
    "window",
    "standing",
)
EVENT_FIELDS = ("seq", "kind", "turn", "impulse", "text", "rule", "actor", "data", "automatic")
_DATA_VERSION = re.compile(r"[0-9a-f]{16}")


class LogProblem(ValueError):
    """One problem of a log: its 1-based ``line`` and a message in the player's words."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def show(value: Any, limit: int = 60) -> str:
    """``value`` as the file writes it (JSON), cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = "?"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _header(message: str) -> LogProblem:
    return LogProblem(1, message)


def _whole(d: Mapping[str, Any], name: str, what: str, lo: int, hi: int | None = None) -> int:
    v = d[name]
    if not _is_int(v) or v < lo or (hi is not None and v > hi):
        span = f"{lo}-{hi}" if hi is not None else f"{lo} or more"
        raise _header(f"the header's {name} must be {what}, a whole number {span}, got {show(v)}")
    return int(v)


def _text(d: Mapping[str, Any], name: str, what: str, *, optional: bool = False) -> str | None:
    v = d.get(name)
    if v is None and optional:
        return None
    if not isinstance(v, str) or not v.strip():
        tail = " or null" if optional else ""
        raise _header(f"the header's {name} must be {what} (a text{tail}), got {show(v)}")
    return v


def looks_like_path(scenario: str) -> bool:
    """True when a header's scenario names a file rather than a shipped scenario id."""
    return "/" in scenario or "\\" in scenario or Path(scenario).suffix in (".yaml", ".yml")


def shipped_scenario_ids() -> list[str]:
    """The ids of the shipped scenarios, sorted."""
    return sorted(p.stem for p in (maps_dir() / "scenarios").glob("*.yaml"))


def check_header(d: Any) -> dict[str, Any]:
    """The header line ``d`` (parsed JSON) checked field by field; returns its fields with defaults.

    Raises :class:`LogProblem` (line 1) for a header that is not a mapping, is not a solo log,
    has another format version, lacks a field, has a field it does not know, or a field of the
    wrong type or out of range: seed 0 or more, turns 1-99 or null, a scenario that is a shipped
    id or a file, known options with values they take, forced dice 0-99, bookmarks and forced
    results at input indexes 0 or more.
    """
    if not isinstance(d, dict):
        raise _header(f"the first line must be the log's header (a JSON object), got {show(d)}")
    if d.get("format") != "solo-log":
        raise _header('not a solo log (the first line has no "format": "solo-log")')
    if d.get("version") != 1:
        raise _header(f"log format version {show(d.get('version'))}, expected 1 (a log from another solo?)")
    unknown = sorted(str(k) for k in d if k not in HEADER_FIELDS)
    if unknown:
        raise _header(f"the header has a field this version does not know: {', '.join(unknown)}")
    for name in ("scenario", "seed", "data_version"):
        if name not in d:
            raise _header(f"the header has no {name}")
    out: dict[str, Any] = {}
    scenario = _text(d, "scenario", "a shipped scenario id or the path of a scenario file")
    assert scenario is not None
    own_maps = isinstance(d.get("map_set"), str)  # an id of the --maps folder: checked when it loads
    if not looks_like_path(scenario) and not Path(scenario).exists() and not own_maps:
        ids = shipped_scenario_ids()
        if scenario not in ids:
            raise _header(
                f"the header names scenario {show(scenario)}, which is not a shipped scenario "
                f"({', '.join(ids)}) nor a scenario file here"
            )
    out["scenario"] = scenario
    out["seed"] = _whole(d, "seed", "the seed of the dice", 0)
    dv = d["data_version"]
    if not isinstance(dv, str) or not dv.strip():
        raise _header(f"the header's data_version must be the version of the data (a text), got {show(dv)}")
    out["data_version"] = dv
    out["options"] = check_options(d.get("options", {}))
    out["dice"] = _dice(d.get("dice", []), "the header's dice (results forced before the seed)")
    out["cards"] = _cards(d.get("cards", {}), "the header's cards (draws forced before the seed)")
    policy = d.get("policy", "")
    if not isinstance(policy, str):
        raise _header(
            f"the header's policy must be the name of who played the Friendly side, got {show(policy)}"
        )
    out["policy"] = policy
    out["turns"] = (
        None if d.get("turns") is None else _whole(d, "turns", "the number of turns played", 1, TURNS_MAX)
    )
    out["card_set"] = _text(d, "card_set", "the card folder the game was played with", optional=True)
    out["map_set"] = _text(d, "map_set", "the map folder the game was played with", optional=True)
    out["parent"] = _parent(d.get("parent"))
    forced = d.get("forced", [])
    if not isinstance(forced, list):
        raise _header(f"the header's forced must be a list of forced results, got {show(forced)}")
    out["forced"] = tuple(_forced(f) for f in forced)
    sandbox = d.get("sandbox", False)
    if not isinstance(sandbox, bool):
        raise _header(f"the header's sandbox must be true or false, got {show(sandbox)}")
    out["sandbox"] = sandbox
    out["bookmarks"] = _indexes(d.get("bookmarks", {}), "bookmarks", "map names to decision numbers")
    auto = d.get("auto", {})
    if not isinstance(auto, dict) or not all(
        str(k).isdigit() and isinstance(v, str) for k, v in auto.items()
    ):
        raise _header(f"the header's auto must map decision numbers to standing choices, got {show(auto)}")
    out["auto"] = {str(k): v for k, v in auto.items()}
    files = d.get("files", {})
    if not isinstance(files, dict) or not all(
        isinstance(v, str) and _DATA_VERSION.fullmatch(v) for v in files.values()
    ):
        raise _header(f"the header's files must map file names to 16 hex digits, got {show(files)}")
    out["files"] = {str(k): v for k, v in files.items()}
    out["window"] = _window(d.get("window", {}))
    standing = d.get("standing", {})
    if not isinstance(standing, dict):
        raise _header(f"the header's standing must map standing choices to values, got {show(standing)}")
    out["standing"] = dict(standing)
    return out


PACES = ("instant", "step", "timed")
"""The paces of the Enemy's turn a save's ``window`` may name (the window's Pace values)."""


def _window(value: Any) -> dict[str, Any]:
    """The header's ``window``: the window's settings kept with a save (the Enemy's turn pace)."""
    if not isinstance(value, dict):
        raise _header(f"the header's window must map the window's settings to values, got {show(value)}")
    pace = value.get("pace", "instant")
    if pace not in PACES:
        raise _header(f"the header's window pace must be one of {', '.join(PACES)}, got {show(pace)}")
    secs = value.get("pace_seconds", 1.0)
    if isinstance(secs, bool) or not isinstance(secs, int | float) or not 0.25 <= secs <= 2:
        raise _header(f"the header's window pace_seconds must be a number 0.25-2 (seconds), got {show(secs)}")
    return dict(value)


_OPTION_WORDS = {bool: "true or false", int: "a whole number", str: "a word", float: "a number"}


def check_options(value: Any) -> dict[str, Any]:
    """The header's ``options``: known names (:class:`~solo.core.options.Options`) with values they take."""
    if not isinstance(value, dict):
        raise _header(f"the header's options must map option names to values, got {show(value)}")
    defaults = Options()
    known = sorted(defaults.to_dict())
    for name, v in value.items():
        if name not in known:
            raise _header(f"the header names an unknown option {show(name)} (known: {', '.join(known)})")
        want = type(getattr(defaults, name))
        if type(v) is not want:
            raise _header(
                f"the header's option {name} takes {_OPTION_WORDS.get(want, 'a value')}, got {show(v)}"
            )
        if name in OPTION_CHOICES and v not in OPTION_CHOICES[name]:
            raise _header(
                f"the header's option {name} takes one of {', '.join(OPTION_CHOICES[name])}, got {show(v)}"
            )
        lo, hi = OPTION_RANGES.get(name, (None, None))
        if lo is not None and hi is not None and not lo <= v <= hi:
            raise _header(f"the header's option {name} takes {lo}-{hi}, got {show(v)}")
    return dict(value)


def _dice(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(v) and 0 <= v <= DIE_MAX for v in value):
        raise _header(f"{what} must be a list of die readings 0-{DIE_MAX}, got {show(value)}")
    return tuple(value)


def _cards(value: Any, what: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict) or not all(
        isinstance(v, list) and all(isinstance(c, str) for c in v) for v in value.values()
    ):
        raise _header(f"{what} must map a deck to a list of card ids, got {show(value)}")
    return {str(k): tuple(v) for k, v in value.items()}


def _indexes(value: Any, name: str, what: str) -> dict[str, int]:
    if not isinstance(value, dict) or not all(_is_int(n) and n >= 0 for n in value.values()):
        raise _header(f"the header's {name} must {what} (0 or more), got {show(value)}")
    return {str(k): int(v) for k, v in value.items()}


def _parent(value: Any) -> dict[str, Any] | None:
    """The header's ``parent``: null, the parent log (older logs: a bare path) and the branch point."""
    if value is None:
        return None
    if isinstance(value, str):
        return {"path": value}
    if not isinstance(value, dict) or not isinstance(value.get("path", ""), str):
        raise _header(f"the header's parent must name the parent log and the branch point, got {show(value)}")
    for key in ("at_input", "turn", "impulse"):
        if key in value and not (_is_int(value[key]) and value[key] >= 0):
            raise _header(
                f"the header's parent {key} must be a whole number 0 or more, got {show(value[key])}"
            )
    return dict(value)


def _forced(value: Any) -> dict[str, Any]:
    """One ``forced`` entry: ``{"at_input": k >= 0, "dice": [0-99...], "cards": {deck: [id...]}}``."""
    if not isinstance(value, dict) or set(value) - {"at_input", "dice", "cards"}:
        raise _header(f"a forced result must give at_input, dice and cards, got {show(value)}")
    k = value.get("at_input")
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise _header(f"a forced result's at_input must be a decision number 0 or more, got {show(k)}")
    return {
        "at_input": k,
        "dice": _dice(value.get("dice", []), "a forced result's dice"),
        "cards": _cards(value.get("cards", {}), "a forced result's cards"),
    }


def check_event(d: Any, line: int, expected_seq: int) -> dict[str, Any]:
    """The event on ``line`` (parsed JSON) checked field by field; returns its fields with defaults.

    ``expected_seq`` is its place in the log (events are numbered 0, 1, 2... in order). Raises
    :class:`LogProblem` for a line that is not a mapping, lacks a field or has one it does not
    know, a field of the wrong type or out of range (turn 0-99, impulse 0-4), a ``seq`` out of
    order, or a player's choice (``automatic: false``) that is not a ``choice`` event naming
    the option chosen.
    """
    if not isinstance(d, dict):
        raise LogProblem(line, f"this line must be an event (a JSON object), got {show(d)}")
    unknown = sorted(str(k) for k in d if k not in EVENT_FIELDS)
    if unknown:
        raise LogProblem(line, f"the event has a field this version does not know: {', '.join(unknown)}")
    for name in ("seq", "kind", "turn", "impulse", "text"):
        if name not in d:
            raise LogProblem(line, f"the event has no {name}")
    seq = d["seq"]
    if not _is_int(seq) or seq != expected_seq:
        why = ""
        if _is_int(seq):
            why = "; a line repeated or moved?" if seq < expected_seq else "; a line deleted or moved?"
        raise LogProblem(
            line,
            f"the event's seq is {show(seq)}, expected {expected_seq} (events are numbered in order{why})",
        )
    kind = d["kind"]
    if not isinstance(kind, str) or not kind:
        raise LogProblem(line, f'the event\'s kind must be a word such as "roll", got {show(kind)}')
    for name, hi in (("turn", TURNS_MAX), ("impulse", IMPULSES)):
        v = d[name]
        if not _is_int(v) or not 0 <= v <= hi:
            raise LogProblem(line, f"the event's {name} must be a whole number 0-{hi}, got {show(v)}")
    for name in ("text", "rule"):
        if not isinstance(d.get(name, ""), str):
            raise LogProblem(line, f"the event's {name} must be a text, got {show(d[name])}")
    actor = d.get("actor")
    if actor is not None and not isinstance(actor, str):
        raise LogProblem(line, f"the event's actor must be a character id or absent, got {show(actor)}")
    data = d.get("data", {})
    if not isinstance(data, dict):
        raise LogProblem(line, f"the event's data must be a JSON object, got {show(data)}")
    automatic = d.get("automatic", True)
    if not isinstance(automatic, bool):
        raise LogProblem(line, f"the event's automatic must be true or false, got {show(automatic)}")
    if kind == "choice" and not automatic:
        choice = data.get("choice")
        if not isinstance(choice, str) or not choice:
            raise LogProblem(
                line, f"the player's choice names no option chosen (data.choice), got {show(choice)}"
            )
        if not isinstance(data.get("decision"), str):
            raise LogProblem(
                line,
                f"the player's choice names no decision (data.decision), got {show(data.get('decision'))}",
            )
    elif not automatic:
        raise LogProblem(
            line, f"only a choice event can be the player's (automatic: false), this is a {show(kind)}"
        )
    return {
        "seq": seq,
        "kind": kind,
        "turn": d["turn"],
        "impulse": d["impulse"],
        "text": d["text"],
        "rule": d.get("rule", ""),
        "actor": actor,
        "data": data,
        "automatic": automatic,
    }
