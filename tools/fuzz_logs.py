"""The log fuzzer behind ``tools/fuzz --logs``: seeded mutations of game logs, each replayed.

Base logs: short seeded games (``TURNS`` turns) of several scenarios, written in a temporary
folder. Each case applies one mutation to one of them (a header or event field retyped,
deleted, duplicated or out of range; a header field set to another valid value; a player's
choice changed; lines cut, swapped, repeated or deleted; the file cut at a byte; binary bytes)
and reads it as ``solo replay`` and ``solo inspect`` do (in process, with a per-case timeout).

Each case is one of: ``replayed-as-prefix`` (the log, or what is left of it, is a prefix of
the game and replays as such), ``reported-with-line`` (refused, or a difference named, with
``path:line:``), or a defect: a traceback, a hang, a message without a line, a message in
Python's words, or a changed log reported as matching.
"""

from __future__ import annotations

import json
import random
import re
import traceback
from pathlib import Path
from typing import Any

SCENARIOS = (
    "first_contact",
    "the_churchyard",
    "armour_in_the_rain",
    "night_at_the_ford",
    "mines_on_the_farm_road",
)
TURNS = 2
KINDS = (
    "header_retype",
    "header_drop",
    "header_out_of_range",
    "header_other_value",
    "event_retype",
    "event_drop",
    "event_duplicate_key",
    "event_out_of_range",
    "data_retype",
    "data_drop",
    "choice_change",
    "line_cut",
    "line_swap",
    "line_repeat",
    "line_delete",
    "byte_cut",
    "binary",
)
RETYPES: tuple[Any, ...] = ("seven", 7, [1, 2], {"a": 1}, None, True, "", -3, 7.5)
OUT_OF_RANGE: dict[str, tuple[Any, ...]] = {
    "seed": (-1, -7, 2**70),
    "turns": (0, 100, 1000, -1),
    "dice": ([100], [-1], [1000]),
    "forced": ([{"at_input": -1, "dice": [1], "cards": {}}], [{"at_input": 0, "dice": [100], "cards": {}}]),
    "bookmarks": ({"b": -1},),
    "version": (0, 2, 99),
    "seq": (-1, 9004, 10**9),
    "turn": (-1, 100, 9999),
    "impulse": (-1, 5, 99),
}
INFORMATIONAL = ("policy", "bookmarks", "sandbox", "auto", "parent", "files")
"""Header fields a replay does not use to rebuild the game: a valid edit of them replays as before."""
PYTHON_SPEAK = re.compile(
    r"Traceback|Error\b|NoneType|object is|' object|subscriptable|codec|list indices|Expecting|"
    r"\b(int|str|dict|float|bool)\b|\bNone\b|\bTrue\b|\bFalse\b|\('"
)


def base_logs(folder: Path, seed: int) -> list[Path]:
    """One short game log per scenario of :data:`SCENARIOS` (random policy), written in ``folder``."""
    from solo.core.log import write_log
    from solo.data.house import load_data
    from solo.playtest.play import header_for, new_game
    from solo.playtest.policies import make_policy

    data = load_data()
    out = []
    for i, scenario in enumerate(SCENARIOS):
        game = new_game(scenario, seed=seed + i, data=data, turns=TURNS)
        game.play(make_policy("random", seed=seed + i))
        path = folder / f"{scenario}.jsonl"
        write_log(path, header_for(game, scenario, seed + i, policy="random", turns=TURNS), game.events)
        out.append(path)
    return out


def mutate(text: str, kind: str, rng: random.Random) -> tuple[bytes, str]:
    """``text`` (a log) changed by one mutation of ``kind``; returns (new bytes, what was done)."""
    lines = text.splitlines()
    header = json.loads(lines[0])
    events = [json.loads(ln) for ln in lines[1:]]

    def out(h: Any = header, evs: list[Any] | None = None, raw: list[str] | None = None) -> bytes:
        body = (
            raw
            if raw is not None
            else [json.dumps(h, sort_keys=True)]
            + [
                json.dumps(e, sort_keys=True, ensure_ascii=False)
                for e in (evs if evs is not None else events)
            ]
        )
        return ("\n".join(body) + "\n").encode("utf-8")

    if kind.startswith("header_"):
        key = rng.choice(sorted(header))
        h = dict(header)
        if kind == "header_retype":
            h[key] = rng.choice(RETYPES)
            return out(h), f"header {key} retyped to {json.dumps(h[key])}"
        if kind == "header_drop":
            del h[key]
            return out(h), f"header {key} dropped"
        if kind == "header_out_of_range":
            key = rng.choice(
                sorted(
                    k
                    for k in OUT_OF_RANGE
                    if k in ("seed", "turns", "dice", "forced", "bookmarks", "version")
                )
            )
            h[key] = rng.choice(OUT_OF_RANGE[key])
            return out(h), f"header {key} out of range: {json.dumps(h[key])}"
        key = rng.choice(("seed", "scenario", "turns", "options", "dice", "policy", "data_version"))
        h[key] = {
            "seed": header["seed"] + rng.randint(1, 50),
            "scenario": rng.choice([s for s in SCENARIOS if s != header["scenario"]]),
            "turns": rng.choice((1, 3)),
            "options": {"dummy_tq": rng.choice((3, 5, 6))},
            "dice": [rng.randint(0, 9) for _ in range(rng.randint(1, 3))],
            "policy": rng.choice(("simple", "zzz", "window")),
            "data_version": "0123456789abcdef",
        }[key]
        return out(h), f"header {key} set to {json.dumps(h[key])}"
    if kind.startswith(("event_", "data_")):
        i = rng.randrange(len(events))
        e = dict(events[i])
        if kind.startswith("data_"):
            data = dict(e.get("data") or {})
            if not data:
                e["data"] = rng.choice(RETYPES)
                events[i] = e
                return out(), f"event {i} (line {i + 2}) data set to {json.dumps(e['data'])}"
            key = rng.choice(sorted(data))
            if kind == "data_retype":
                data[key] = rng.choice(RETYPES)
                what = f"retyped to {json.dumps(data[key])}"
            else:
                del data[key]
                what = "dropped"
            e["data"] = data
            events[i] = e
            return out(), f"event {i} (line {i + 2}) data.{key} {what}"
        key = rng.choice(sorted(e))
        if kind == "event_retype":
            e[key] = rng.choice(RETYPES)
            what = f"{key} retyped to {json.dumps(e[key])}"
        elif kind == "event_drop":
            del e[key]
            what = f"{key} dropped"
        elif kind == "event_duplicate_key":
            raw = json.dumps(e, sort_keys=True, ensure_ascii=False)
            extra = json.dumps(rng.choice(RETYPES))
            raw = raw[:-1] + f', "{key}": {extra}}}'
            body = lines[:]
            body[i + 1] = raw
            return out(raw=body), f"event {i} (line {i + 2}) {key} written twice, the second {extra}"
        else:
            key = rng.choice(("seq", "turn", "impulse"))
            e[key] = rng.choice(OUT_OF_RANGE[key])
            what = f"{key} out of range: {e[key]}"
        events[i] = e
        return out(), f"event {i} (line {i + 2}) {what}"
    if kind == "choice_change":
        choices = [i for i, e in enumerate(events) if e.get("automatic") is False]
        i = rng.choice(choices)
        e = json.loads(json.dumps(events[i]))
        new = rng.choice(("yes", "no", "1", "2", "f01", "hide", "sneak", "blue_5", "pass"))
        if new == e["data"]["choice"]:
            new = new + "x"
        e["data"]["choice"] = new
        events[i] = e
        return out(), f"choice at event {i} (line {i + 2}) changed to {new!r}"
    if kind == "line_cut":
        n = rng.randrange(1, len(lines))
        return out(raw=lines[:n]), f"cut after line {n}"
    if kind in ("line_swap", "line_repeat", "line_delete"):
        i = rng.randrange(1, len(lines) - 1)
        body = lines[:]
        if kind == "line_swap":
            body[i], body[i + 1] = body[i + 1], body[i]
            return out(raw=body), f"lines {i + 1} and {i + 2} swapped"
        if kind == "line_repeat":
            body.insert(i, body[i])
            return out(raw=body), f"line {i + 1} repeated"
        del body[i]
        return out(raw=body), f"line {i + 1} deleted"
    blob = text.encode("utf-8")
    if kind == "byte_cut":
        cut = rng.randrange(len(blob))
        return blob[:cut], f"cut at byte {cut}"
    if kind == "binary":
        at = rng.randrange(len(blob))
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        return blob[:at] + junk + blob[at:], f"{len(junk)} random bytes at byte {at}"
    raise ValueError(kind)


def _semantics(path: Path) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """What a replay must reproduce: the header without its informational fields, each event."""
    from solo.core.log import comparable, read_log

    header, events = read_log(path)
    h = {k: v for k, v in header.to_dict().items() if k not in INFORMATIONAL}
    return h, [(*comparable(e), e.automatic) for e in events]


def classify(
    path: Path, original: Path, data: Any, timeout: float, time_limit: Any, hang: type[BaseException]
) -> dict[str, Any]:
    """Replay and inspect the mutated log at ``path``; its outcome (see the module docstring)."""
    from solo.core.errors import DataError, SoloError
    from solo.playtest.history import History
    from solo.playtest.play import replay

    where = re.compile(re.escape(str(path)) + r":\d+: ")

    def refused(message: str) -> dict[str, Any]:
        first = message.strip().splitlines()[0] if message.strip() else ""
        if not where.match(first):
            return {"outcome": "defect", "defect": "message without a line", "detail": first}
        if PYTHON_SPEAK.search(first[len(str(path)) :]):
            return {"outcome": "defect", "defect": "message in Python's words", "detail": first}
        return {"outcome": "reported-with-line", "detail": first}

    try:
        with time_limit(timeout):
            result = replay(path, data=data)
    except Exception as exc:
        if isinstance(exc, hang):
            return {"outcome": "defect", "defect": "hang in replay"}
        if isinstance(exc, DataError):
            return refused(str(exc.problems[0]) if exc.problems else str(exc))
        if isinstance(exc, SoloError):
            inspect = _inspect(path, data, timeout, time_limit, hang, History)
            return inspect or refused(str(exc))
        return {
            "outcome": "defect",
            "defect": "traceback in replay",
            "detail": traceback.format_exc(limit=-3),
        }
    inspect = _inspect(path, data, timeout, time_limit, hang, History)
    if inspect is not None:
        return inspect
    if not result.ok:
        return refused(result.mismatch or "")
    mutated, orig = _semantics(path), _semantics(original)
    same_header = mutated[0] == orig[0]
    if result.ends_early:
        if same_header and mutated[1] == orig[1][: len(mutated[1])]:
            return {"outcome": "replayed-as-prefix", "detail": result.ends_early}
        return {"outcome": "defect", "defect": "a changed log reported as matching (as a prefix)"}
    if same_header and mutated[1] == orig[1]:
        return {"outcome": "replayed-as-prefix", "detail": "unchanged for a replay (an informational field)"}
    if mutated[1] == orig[1] and _same_game(path, data):
        # a header edited to other valid values (an option, forced dice) that this game never
        # used: the game of the new header gives exactly the logged events (checked here
        # without solo's replay), so "matches" is the truth
        return {"outcome": "replayed-as-prefix", "detail": "the header change does not alter this game"}
    return {"outcome": "defect", "defect": "a changed log reported as matching"}


def _same_game(path: Path, data: Any) -> bool:
    """Whether the game the log's header describes, given the log's choices, gives its events."""
    from solo.core.log import comparable, inputs_of, read_log
    from solo.playtest.play import force_due, game_from_header

    header, events = read_log(path)
    game = game_from_header(header, data=data)
    for choice in inputs_of(events):
        force_due(game, header.forced)
        if choice not in game.legal():
            return False
        game.apply(choice)
    return [comparable(e) for e in game.events] == [comparable(e) for e in events]


def _inspect(
    path: Path, data: Any, timeout: float, time_limit: Any, hang: type[BaseException], history: Any
) -> dict[str, Any] | None:
    """``solo inspect``'s reading of the log: None when it gives no traceback, no hang, and refuses
    only with a line (a log replay accepts may still be refused by inspect: its divergence)."""
    from solo.core.errors import DataError, SoloError

    try:
        with time_limit(timeout):
            history.from_log(path, data=data).positions()
    except Exception as exc:
        if isinstance(exc, hang):
            return {"outcome": "defect", "defect": "hang in inspect"}
        if isinstance(exc, DataError):
            return None
        if isinstance(exc, SoloError):
            first = str(exc).strip().splitlines()[0]
            if not re.match(re.escape(str(path)) + r":\d+: ", first):
                return {"outcome": "defect", "defect": "message without a line (inspect)", "detail": first}
            if PYTHON_SPEAK.search(first[len(str(path)) :]):
                return {"outcome": "defect", "defect": "message in Python's words (inspect)", "detail": first}
            return None
        return {
            "outcome": "defect",
            "defect": "traceback in inspect",
            "detail": traceback.format_exc(limit=-3),
        }
    return None


def fuzz_logs(
    n: int, seed: int, *, timeout: float, time_limit: Any, hang: type[BaseException], start: int = 0
) -> list[dict[str, Any]]:
    """Run log cases ``start`` .. ``start + n - 1`` of ``seed``; return their outcomes.

    ``time_limit(seconds)`` is a context manager raising ``hang`` when a case runs too long."""
    import tempfile

    from solo.data.house import load_data

    data = load_data()
    with tempfile.TemporaryDirectory(prefix="solo-fuzz-logs-") as tmp:
        folder = Path(tmp)
        bases = base_logs(folder, seed)
        texts = {p: p.read_text(encoding="utf-8") for p in bases}
        results = []
        for case in range(start, start + n):
            rng = random.Random(f"fuzz-logs:{seed}:{case}")
            base = rng.choice(bases)
            kind = rng.choice(KINDS)
            blob, what = mutate(texts[base], kind, rng)
            path = folder / f"case{case}.jsonl"
            path.write_bytes(blob)
            out = {"case": case, "file": base.name, "kind": kind, "what": what}
            out.update(classify(path, base, data, timeout, time_limit, hang))
            path.unlink()
            results.append(out)
        return results


def summary(results: list[dict[str, Any]]) -> str:
    """The outcome counts, by mutation kind, then every defect."""
    names = ("replayed-as-prefix", "reported-with-line", "defect")
    by = {k: sum(r["outcome"] == k for r in results) for k in names}
    lines = [f"{len(results)} log mutation(s): " + ", ".join(f"{k} {by[k]}" for k in names)]
    for kind in KINDS:
        rs = [r for r in results if r["kind"] == kind]
        counts = ", ".join(f"{k} {sum(r['outcome'] == k for r in rs)}" for k in names)
        lines.append(f"  {kind:<20} {len(rs):4d}: {counts}")
    for r in results:
        if r["outcome"] == "defect":
            lines.append(f"DEFECT case {r['case']}: {r['defect']}: {r['file']}: {r['what']}")
            if r.get("detail"):
                lines.extend("    " + ln for ln in r["detail"].strip().splitlines()[-6:])
    return "\n".join(lines)
