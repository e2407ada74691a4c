"""`solo replay` on a log written before the narration-order change: the same play, lines moved.

An older version wrote a fire's own line after its dice (base-rules §10); the log still holds
the same play. `solo replay` tells such a log from one whose play differs
(:mod:`solo.playtest.same_play`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import house_data

from solo.playtest.play import replay
from solo.playtest.same_play import moved_lines, play_differences

GOLDEN = Path(__file__).parent / "golden" / "first_contact-simple-1.jsonl"
SOLO = Path(sys.executable).parent / "solo"


def _older(tmp_path: Path, *, change_a_die: bool = False) -> tuple[Path, int, int]:
    """The golden log with its first fire line moved after that fire's dice (as an older version
    wrote it), ``seq`` renumbered; returns the file, the first moved line (the fire's old line,
    now its first die) and how many lines moved (the fire and its dice)."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    header, events = lines[0], [json.loads(x) for x in lines[1:]]
    i = next(k for k, e in enumerate(events) if e["kind"] == "fire")
    j = i + 1
    while events[j]["kind"] == "roll" and str(events[j]["data"]["purpose"]).startswith("fire "):
        j += 1
    assert j - i > 1, "the fire has dice"
    fire = events.pop(i)
    events.insert(j - 1, fire)
    if change_a_die:
        events[i]["data"]["faces"] = [(events[i]["data"]["faces"][0] + 1) % 10]
    for n, ev in enumerate(events):
        ev["seq"] = n
    path = tmp_path / "older.jsonl"
    body = [json.dumps(ev, sort_keys=True, ensure_ascii=False) for ev in events]
    path.write_text("\n".join([header, *body]) + "\n", encoding="utf-8")
    return path, i + 2, j - i  # event i is on line i + 2 (the header is line 1)


def test_play_differences_ignore_only_the_order():
    """Moved lines are the same play; a changed die is not."""
    a = [
        {"seq": 0, "kind": "fire", "text": "f"},
        {"seq": 1, "kind": "roll", "data": {"faces": [3]}, "text": "r"},
    ]
    b = [{**a[1], "seq": 0}, {**a[0], "seq": 1}]
    assert play_differences(a, b) == [] and moved_lines(a, b) == [0, 1]
    c = [{**a[1], "seq": 0, "data": {"faces": [4]}}, {**a[0], "seq": 1}]
    assert play_differences(a, c) == [
        "roll records differ at the 1th (1 before, 1 after)",
        "the events differ (not only their order)",
    ]


def test_replay_tells_an_older_log_with_the_fire_after_its_dice(tmp_path):
    """The replay differs at the first moved line, and says the play is the same."""
    path, line, moved = _older(tmp_path)
    result = replay(path, data=house_data())
    assert not result.ok
    assert result.mismatch is not None and result.mismatch.startswith(f"{path}:{line}: replay differs")
    assert result.order_only == (
        "same play, narration order differs: written by an older version "
        f"({moved} of 321 event lines in another place, the first at line {line})"
    )


def test_replay_of_a_moved_and_changed_log_is_a_difference(tmp_path):
    """Lines moved and a die changed: not the same play, so not an order-only difference."""
    path, _line, _moved = _older(tmp_path, change_a_die=True)
    result = replay(path, data=house_data())
    assert not result.ok and result.order_only is None


def test_solo_replay_prints_the_order_only_difference_and_exits_0(tmp_path):
    """`solo replay` on the older log: one line on stdout, exit 0."""
    path, _line, _moved = _older(tmp_path)
    proc = subprocess.run([str(SOLO), "replay", str(path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(
        f"{path}: same play, narration order differs: written by an older version ("
    )
    assert proc.stderr == ""
