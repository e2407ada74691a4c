"""The log in the order things happen: an action and its dice come before what they caused.

A fire (base-rules §10), a fire at a vehicle (C2 31.10), a main gun shot (C2 31.9.4 d) and a
grenade throw (base-rules §12) are each one event that sums up dice rolled and effects applied
along the way; the log puts that event first (``GameContext.mark``), then its dice, then the
hits, wound draws, Duck Back and morale checks they caused, in the order they were rolled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_combat import build, fire_at, man, order, script, stamps

from solo.data.friendly_deck import WoundStamp
from solo.engine.game import Game
from solo.rules.state import CarriedWeapon

GOLDEN = Path(__file__).parent / "golden"

Key = tuple[Any, ...]


def _name(ev: dict[str, Any]) -> str:
    """The acting character's name: the words before the first " (" of the event's text."""
    return str(ev["text"]).split(" (")[0]


def cause_keys(ev: dict[str, Any]) -> list[Key]:
    """The links an action event offers to its effects (kind and the data that ties them)."""
    kind, data = ev["kind"], ev.get("data", {})
    if kind == "fire":
        keys: list[Key] = [("dice", _name(ev)), ("hit by", _name(ev), data["target"])]
        if any(r["roll"] == 0 and r["hit"] for r in data["rolls"]):
            keys.append(("natural 0", data["firer"]))
        return keys
    if kind == "vehicle_fire":
        return [("dice", _name(ev)), ("hit location", data["weapon"])]
    if kind == "main_gun_fire" and data.get("gunner"):
        return [("main gun", _name(ev)), ("hit by", _name(ev), None)]
    if kind == "throw":
        return [("throw", re.split(r" (?:throws|fires) a ", ev["text"])[0])]
    return []


def effect_key(ev: dict[str, Any], names: dict[str, str]) -> Key | None:
    """The link an effect event has to its cause, or None for an event that is no such effect."""
    kind, data = ev["kind"], ev.get("data", {})
    text = str(ev["text"])
    if kind == "roll":
        purpose = str(data.get("purpose", ""))
        if m := re.match(r"fire \d+/\d+: (.+?) -> ", purpose):
            return ("dice", m[1])
        if m := re.match(r"(?:main gun|HE at \d\d\.\d\d): (.+?) \(", purpose):
            return ("main gun", m[1])
        if m := re.match(r"Grenade Check: (.+?) \(", purpose):
            return ("throw", m[1])
        if m := re.match(r"grenade deviation: (.+)$", purpose):
            return ("throw", m[1])
        return None
    if kind == "wound_draw" and (m := re.search(r" hit by (.+?): ", text)):
        return ("hit by", m[1], data["target"])
    if kind in ("wound", "killed") and (m := re.search(r"\(hit by (.+?)\)", text)):
        return ("hit by", m[1], data["character"])
    if kind == "morale" and "natural-0 hit" in text:
        return ("natural 0", data["character"])
    if kind == "reveal" and re.match(r"he (?:throws|fires) a ", str(data.get("reason", ""))):
        return ("throw", names.get(data["character"], text.split(" is now ")[0]))
    return None


def links(lines: list[dict[str, Any]]) -> Iterator[tuple[int, int, Key]]:
    """(cause index, effect index, key) for every effect: its cause is the nearest event of the same
    turn and Impulse offering its key (a wound draw "hit by" a main gun matches any of its targets)."""
    names = {ev["actor"]: _name(ev) for ev in lines if ev.get("actor") and ev["kind"] == "fire"}
    offers: dict[Key, list[int]] = {}
    for i, ev in enumerate(lines):
        for k in cause_keys(ev):
            offers.setdefault((ev["turn"], ev["impulse"], *k), []).append(i)
    for j, ev in enumerate(lines):
        got = effect_key(ev, names)
        if got is None:
            continue
        k = got
        where = (ev["turn"], ev["impulse"], *k)
        found = offers.get(where)
        if found is None and k[0] == "hit by":
            found = offers.get((ev["turn"], ev["impulse"], "hit by", k[1], None))
        if found is None:
            continue
        yield min(found, key=lambda i: abs(i - j)), j, k


def misordered(path: Path) -> list[str]:
    """Each effect in the log ``path`` that comes before its cause."""
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()[1:] if x.strip()]
    return [
        f"{path.name}: seq {lines[j]['seq']} {lines[j]['kind']} ({k[0]}) before its cause, "
        f"seq {lines[i]['seq']} {lines[i]['kind']}"
        for i, j, k in links(lines)
        if i > j
    ]


GOLDEN_LOGS = sorted(GOLDEN.glob("*.jsonl"))


@pytest.mark.parametrize("path", GOLDEN_LOGS, ids=[p.stem for p in GOLDEN_LOGS])
def test_no_effect_before_its_cause_in_golden_logs(path: Path) -> None:
    """Every golden log narrates a fire, shot or throw before its dice, hits, wounds and checks."""
    assert misordered(path) == []


def test_golden_logs_link_effects_to_causes() -> None:
    """The cause/effect links find the fires' dice, wound draws and natural-0 gains in the goldens."""
    kinds: dict[str, int] = {}
    for path in GOLDEN_LOGS:
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()[1:] if x.strip()]
        for i, _j, k in links(lines):
            kinds[f"{lines[i]['kind']}/{k[0]}"] = kinds.get(f"{lines[i]['kind']}/{k[0]}", 0) + 1
    for pair in ("fire/dice", "fire/hit by", "fire/natural 0", "vehicle_fire/dice", "main_gun_fire/main gun",
                 "main_gun_fire/hit by", "throw/throw"):  # fmt: skip
        assert kinds.get(pair, 0) > 0, (pair, kinds)


def test_the_check_catches_an_effect_before_its_cause(tmp_path: Path) -> None:
    """A log with the fire after its wound draw (the old order) is reported."""
    header = json.dumps({"format": "solo-log"})
    fire = {"seq": 0, "kind": "fire", "turn": 1, "impulse": 2, "actor": "able_1",
            "text": "Sgt Taylor (Aimed Fire) fires the M3 SMG at Obsh Brückner in 17.09 (4 hexes): ...",
            "data": {"firer": "able_1", "target": "red_1", "rolls": [{"roll": 4, "hit": True}]}}  # fmt: skip
    purpose = "fire 1/1: Sgt Taylor -> Obsh Brückner (M3 SMG, modified WS 6) (13.0)"
    roll = {"seq": 1, "kind": "roll", "turn": 1, "impulse": 2, "text": "d10 4", "data": {"purpose": purpose}}
    draw = {"seq": 2, "kind": "wound_draw", "turn": 1, "impulse": 2,
            "text": "Wound draw for Obsh Brückner hit by Sgt Taylor: f05 → light (one card).",
            "data": {"target": "red_1"}}  # fmt: skip
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text("\n".join([header, *(json.dumps(x) for x in (fire, roll, draw))]) + "\n")
    bad.write_text("\n".join([header, *(json.dumps(x) for x in (roll, draw, fire))]) + "\n")
    assert misordered(good) == []
    assert [m.split(" ")[3] for m in misordered(bad)] == ["roll", "wound_draw"]


@pytest.fixture
def duel(tmp_path: Path) -> Game:
    """Friendly able_1 (TQ 5) at 02.06; Enemy red_1 (TQ 5, Aimed Fire) at 02.10, 4 hexes, Open."""
    g = build(tmp_path, [man("able_1", "02.06")], [man("red_1", "02.10", weapon="kar98k", ws=4)])
    order(g, g.char("red_1"), "aimed_fire")
    return g


def test_one_fire_narrated_before_its_dice_and_effects(duel: Game) -> None:
    """base-rules §10, §8: ROF 3 at WS 5: 3 hits (a Light wound: Duck Back, WMC 6 fails at TQ 4), then 9
    and 7 miss. The fire event comes first, then each die with what it caused, in the order rolled."""
    duel.char("able_1").weapons = (CarriedWeapon("thompson", 5),)  # ROF 3
    start = len(duel.events)
    script(duel, [3, 6, 9, 7], stamps(duel, WoundStamp.LIGHT))
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    got = [e for e in duel.events[start:] if e.kind != "alert"]
    assert [(e.kind, e.data.get("purpose", "").split(":")[0]) for e in got] == [
        ("fire", ""),
        ("roll", "fire 1/3"),
        ("roll", "wound draw"),
        ("wound_draw", ""),
        ("wound", ""),
        ("duck_back", ""),
        ("roll", "WMC"),
        ("check", "light wound"),
        ("roll", "fire 2/3"),
        ("roll", "fire 3/3"),
    ]
    assert [r["roll"] for r in got[0].data["rolls"]] == [3, 9, 7]
    assert [e.seq for e in duel.events] == list(range(len(duel.events)))  # seq follows the new order


def test_listeners_hear_the_fire_once_after_its_effects(duel: Game) -> None:
    """A listener hears each event once as emitted (the fire last); the log's copy has the fire first."""
    heard: list[str] = []
    duel.listeners.append(lambda ev: heard.append(ev.kind))
    script(duel, [3, 6], stamps(duel, WoundStamp.LIGHT))
    duel.char("able_1").weapons = (CarriedWeapon("m1_garand", 5),)  # ROF 1
    start = len(duel.events)
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    logged = [e.kind for e in duel.events[start:]]
    assert heard.count("fire") == 1 and heard[-1] == "fire" and logged[0] == "fire"
    assert sorted(heard) == sorted(logged)
