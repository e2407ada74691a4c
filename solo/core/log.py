"""The game log, which is also the save file (DESIGN.md): JSON Lines, written atomically.

Line 1 is the header: format and version, the data version (a SHA-256 of every
shipped data file), the scenario, the seed, the forced dice, the options and
the policy. Every following line is one :class:`~solo.core.events.Event`. The
player's inputs are the events with ``"automatic": false`` (kind ``choice``);
everything else is derived. :func:`replay` rebuilds the game from the header,
feeds the inputs back, and compares every derived event with the log.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from solo.core.errors import SoloError
from solo.core.events import Event
from solo.core.resources import cards_dir, maps_dir

FORMAT = "solo-log"
VERSION = 1


class LogError(SoloError):
    """A log that cannot be read or replayed: bad JSON, wrong format, another data version."""


def data_version(
    card_set: Path | str | None = None,
    map_set: Path | str | None = None,
    user_files: Iterable[Path | str] = (),
) -> str:
    """A short SHA-256 of every data file a game reads (name and bytes), in name order.

    ``card_set`` is a designer's folder whose card files replace the shipped ones; ``map_set`` a
    folder of maps added to the shipped ones (``--maps DIR``), hashed after them as
    ``map_set/<name>``; ``user_files`` the files outside those folders the game reads (a scenario
    given by path and the map its ``map:`` names by path: see
    :func:`solo.data.scenario.user_files`), hashed last as ``user/<name>``, in the order given.
    Without the last two the hash is what it always was. A user file that is not there hashes
    as ``user/<name>`` with no bytes (the load then says what is missing).
    """
    h = hashlib.sha256()
    overlay = Path(card_set) if card_set else None
    for root in (cards_dir(), maps_dir()):
        for p in sorted(root.rglob("*.yaml")):
            rel = p.relative_to(root).as_posix()
            if root == cards_dir() and overlay is not None and (overlay / rel).is_file():
                p = overlay / rel
            h.update(rel.encode())
            h.update(b"\0")
            h.update(p.read_bytes())
    if map_set:
        for p in sorted(Path(map_set).glob("*.yaml")):
            h.update(f"map_set/{p.name}".encode())
            h.update(b"\0")
            h.update(p.read_bytes())
    for f in user_files:
        p = Path(f)
        h.update(f"user/{p.name}".encode())
        h.update(b"\0")
        h.update(p.read_bytes() if p.is_file() else b"")
    return h.hexdigest()[:16]


@attrs.frozen
class Header:
    """What a replay needs to rebuild the game."""

    scenario: str
    """A shipped scenario id, or a path."""
    seed: int
    data_version: str
    options: dict[str, Any] = attrs.field(factory=dict)
    dice: tuple[int, ...] = ()
    """Forced dice results taken before the seed (``--dice``)."""
    cards: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    """Forced card draws per deck taken before the seed."""
    policy: str = ""
    turns: int | None = None
    card_set: str | None = None
    """A designer's card folder the game was played with (``solo run --cards DIR``)."""
    map_set: str | None = None
    """A designer's map folder the game was played with (``solo run --maps DIR``); written to the
    log only when set, so logs without one read as they always did."""
    parent: dict[str, Any] | None = None
    """For a branch (issue 6): ``{"path", "data_version", "at_input", "turn", "impulse"}``: the
    parent log, its data version, and the branch point (the parent's first ``at_input`` inputs
    are this log's first inputs; the point is decision ``at_input``, in that turn and Impulse)."""
    forced: tuple[dict[str, Any], ...] = ()
    """Forced results put in mid-game (a branch's "what if"): ``{"at_input": k, "dice": [...],
    "cards": {deck: [...]}}``, applied once ``k`` inputs have been given, before input ``k``.
    Those results come first, then the chance source the game had (solo.playtest.play.force_next)."""
    sandbox: bool = False
    """True when a choice was undone past new information (a card, a roll, a reveal): the
    player chose again knowing what would happen (issue 6 item 2)."""
    bookmarks: dict[str, int] = attrs.field(factory=dict)
    """Named points of the game: ``{name: input index}`` (decision ``n`` = after ``n`` inputs)."""
    auto: dict[str, str] = attrs.field(factory=dict)
    """Choices the window gave by a standing choice (issue 12): ``{input index: setting}``, e.g.
    ``{"14": "Duck Back: never"}``. They are choices like the others (a replay gives them back);
    this only says which were automatic. Written only when not empty."""

    def to_dict(self) -> dict[str, Any]:
        d = {"format": FORMAT, "version": VERSION, **attrs.asdict(self)}
        d["dice"] = list(self.dice)
        d["cards"] = {k: list(v) for k, v in self.cards.items()}
        d["forced"] = [
            {
                "at_input": f["at_input"],
                "dice": list(f.get("dice", ())),
                "cards": {k: list(v) for k, v in f.get("cards", {}).items()},
            }
            for f in self.forced
        ]
        d["bookmarks"] = dict(self.bookmarks)
        if self.map_set is None:
            del d["map_set"]
        if not self.auto:
            del d["auto"]
        else:
            d["auto"] = dict(self.auto)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], source: str = "log") -> Header:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise LogError(f"{source}:1: not a solo log (no '{FORMAT}' header)")
        if d.get("version") != VERSION:
            raise LogError(f"{source}:1: log format version {d.get('version')!r}, expected {VERSION}")
        try:
            return cls(
                scenario=d["scenario"],
                seed=d["seed"],
                data_version=d["data_version"],
                options=d.get("options", {}),
                dice=tuple(d.get("dice", ())),
                cards={k: tuple(v) for k, v in d.get("cards", {}).items()},
                policy=d.get("policy", ""),
                turns=d.get("turns"),
                card_set=d.get("card_set"),
                map_set=d.get("map_set"),
                auto={str(k): str(v) for k, v in d.get("auto", {}).items()},
                parent=_parent(d.get("parent")),
                forced=tuple(_forced(f) for f in d.get("forced", ())),
                sandbox=bool(d.get("sandbox", False)),
                bookmarks=_bookmarks(d.get("bookmarks", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise LogError(f"{source}:1: bad log header ({exc})") from None


def _parent(value: Any) -> dict[str, Any] | None:
    """The header's ``parent``: None, a dict, or (older logs) a bare path."""
    if value is None:
        return None
    if isinstance(value, str):
        return {"path": value}
    if not isinstance(value, dict):
        raise TypeError(f"parent must be a mapping, got {value!r}")
    return dict(value)


def _forced(value: Any) -> dict[str, Any]:
    """One ``forced`` entry, checked: ``{"at_input": k >= 0, "dice": [int...], "cards": {deck: [id...]}}``."""
    if not isinstance(value, dict):
        raise TypeError(f"a forced entry must be a mapping, got {value!r}")
    k = value["at_input"]
    dice = value.get("dice", [])
    cards = value.get("cards", {})
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"forced at_input must be an input index >= 0, got {k!r}")
    if not isinstance(dice, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in dice):
        raise ValueError(f"forced dice must be a list of integers, got {dice!r}")
    if not isinstance(cards, dict) or not all(
        isinstance(v, list) and all(isinstance(c, str) for c in v) for v in cards.values()
    ):
        raise ValueError(f"forced cards must map a deck to a list of card ids, got {cards!r}")
    return {"at_input": k, "dice": tuple(dice), "cards": {str(d): tuple(v) for d, v in cards.items()}}


def _bookmarks(value: Any) -> dict[str, int]:
    """The header's ``bookmarks``: names to input indexes >= 0."""
    if not isinstance(value, dict) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value.values()
    ):
        raise ValueError(f"bookmarks must map names to input indexes >= 0, got {value!r}")
    return {str(k): v for k, v in value.items()}


def write_log(path: Path | str, header: Header, events: Iterable[Event]) -> None:
    """Write the log atomically: a temporary file in the same folder, then a rename.

    A crash mid-write leaves the previous file intact.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(header.to_dict(), sort_keys=True) + "\n")
            for ev in events:
                f.write(json.dumps(ev.to_dict(), sort_keys=True, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_log(path: Path | str) -> tuple[Header, list[Event]]:
    """Read a log. Raises :class:`LogError` with ``path:line`` for anything malformed."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot read log: {exc}") from None
    if not lines:
        raise LogError(f"{path}:1: empty log")
    try:
        header = Header.from_dict(json.loads(lines[0]), str(path))
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}:1: bad JSON ({exc.msg})") from None
    events = []
    last = len(lines)
    for n, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            events.append(Event.from_dict(json.loads(line)))
        except json.JSONDecodeError as exc:
            if n == last:
                raise LogError(
                    f"{path}:{n}: the log's last line is cut off mid-line (a crash mid-write or a partial "
                    f"copy?): {len(events)} whole events before it"
                ) from None
            raise LogError(f"{path}:{n}: bad event line ({exc})") from None
        except (KeyError, TypeError) as exc:
            raise LogError(f"{path}:{n}: bad event line ({exc})") from None
    return header, events


def inputs_of(events: Iterable[Event]) -> list[str]:
    """The player's choices in order (the events with ``automatic`` False)."""
    return [ev.data["choice"] for ev in events if not ev.automatic and ev.kind == "choice"]


def comparable(ev: Event) -> tuple[Any, ...]:
    """What must match on replay: kind, turn, impulse, text, rule, actor and data."""
    return (
        ev.kind,
        ev.turn,
        ev.impulse,
        ev.text,
        ev.rule,
        ev.actor,
        json.dumps(ev.data, sort_keys=True, default=str),
    )
