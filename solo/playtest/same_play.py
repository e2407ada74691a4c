"""Whether two logs record the same play, whatever the order of their narration.

Two logs record the same play when they have the same dice and card records (events of kind
``roll``: purpose, faces, cards, in the order they were drawn), the same choices (events of kind
``choice``, in order) and the same events as a whole, each counted once, ignoring their ``seq``:
only the order of the lines may differ. A log written before the narration-order change (an
action's line before its dice: base-rules §10 fire, §12 throws, C2 31.9-31.10 vehicle fire and
main gun) records the same play as the log the engine writes now.

:func:`play_differences` compares two lists of events (as the log holds them, plain dicts);
:func:`log_differences` two log files, their headers too. ``tools/same_play`` runs it over two
folders of logs; :func:`solo.playtest.play.replay` uses it to tell an older log whose lines only
moved from one whose play differs.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

EventDict = Mapping[str, Any]
"""One event as a log line holds it (:meth:`solo.core.events.Event.to_dict`)."""


def event_key(ev: EventDict) -> str:
    """The event as canonical JSON text without its ``seq`` (equal keys: the same event)."""
    return json.dumps({k: v for k, v in ev.items() if k != "seq"}, sort_keys=True, ensure_ascii=False)


def read_events(path: Path) -> tuple[str, list[dict[str, Any]]]:
    """The header line and the events of the log at ``path`` (plain JSON, not checked).

    Raises :class:`OSError` for a file that cannot be read and :class:`json.JSONDecodeError`
    for a line that is not JSON.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines[0], [json.loads(line) for line in lines[1:] if line.strip()]


def play_differences(old: Sequence[EventDict], new: Sequence[EventDict]) -> list[str]:
    """What differs in play between the events ``old`` and ``new`` (empty: the same play).

    Each entry is one sentence: the ``roll`` or ``choice`` records differ (at the n-th), the
    events differ as a whole (not only their order), or ``new``'s ``seq`` is not 0, 1, 2...
    """
    out = []
    for kind in ("roll", "choice"):
        xa = [event_key(e) for e in old if e["kind"] == kind]
        xb = [event_key(e) for e in new if e["kind"] == kind]
        if xa != xb:
            pairs = enumerate(zip(xa, xb, strict=False))
            i = next((i for i, (p, q) in pairs if p != q), min(len(xa), len(xb)))
            out.append(f"{kind} records differ at the {i + 1}th ({len(xa)} before, {len(xb)} after)")
    if Counter(map(event_key, old)) != Counter(map(event_key, new)):
        out.append("the events differ (not only their order)")
    if [e["seq"] for e in new] != list(range(len(new))):
        out.append("seq is not 0, 1, 2... in order")
    return out


def moved_lines(old: Sequence[EventDict], new: Sequence[EventDict]) -> list[int]:
    """The indexes (event numbers) where ``old`` and ``new`` hold different events."""
    return [i for i, (x, y) in enumerate(zip(old, new, strict=False)) if event_key(x) != event_key(y)]


def log_differences(old: Path, new: Path) -> list[str]:
    """What differs in play between the logs ``old`` and ``new`` (empty: the same play): a
    missing ``new``, a different header, then :func:`play_differences`."""
    if not new.is_file():
        return [f"{new.name}: missing"]
    head_a, a = read_events(old)
    head_b, b = read_events(new)
    out = ["header differs"] if head_a != head_b else []
    return out + play_differences(a, b)
