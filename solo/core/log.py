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

from solo.core.errors import LogError
from solo.core.events import Event
from solo.core.log_schema import LogProblem, check_event, check_header
from solo.core.resources import cards_dir, maps_dir

FORMAT = "solo-log"
VERSION = 1


def data_files(
    card_set: Path | str | None = None,
    map_set: Path | str | None = None,
    user_files: Iterable[Path | str] = (),
) -> list[tuple[str, Path, bool]]:
    """Every data file a game reads, as ``(name in the hash, path, shipped)``, in hash order.

    The shipped ``cards/`` and ``maps/`` files by name (a card set's file of the same name in
    place of the shipped one; a card set with a ``vehicles/`` folder gives every vehicle file,
    as the loader reads that folder instead of the shipped one), then ``map_set/<name>`` for
    each map of ``--maps DIR``, then ``user/<name>`` for the files given by path (a scenario and
    the map its ``map:`` names: :func:`solo.data.scenario.user_files`), in the order given.
    """
    out: list[tuple[str, Path, bool]] = []
    overlay = Path(card_set) if card_set else None
    own_vehicles = overlay is not None and (overlay / "vehicles").is_dir()
    cards: list[tuple[str, Path, bool]] = []
    for p in sorted(cards_dir().rglob("*.yaml")):
        rel = p.relative_to(cards_dir()).as_posix()
        if own_vehicles and rel.startswith("vehicles/"):
            continue
        if overlay is not None and (overlay / rel).is_file():
            cards.append((rel, overlay / rel, False))
        else:
            cards.append((rel, p, True))
    if own_vehicles and overlay is not None:
        cards += [(f"vehicles/{p.name}", p, False) for p in (overlay / "vehicles").glob("*.yaml")]
    out += sorted(cards, key=lambda t: t[0])
    out += [(p.relative_to(maps_dir()).as_posix(), p, True) for p in sorted(maps_dir().rglob("*.yaml"))]
    if map_set:
        out += [(f"map_set/{p.name}", p, False) for p in sorted(Path(map_set).glob("*.yaml"))]
    out += [(f"user/{Path(f).name}", Path(f), False) for f in user_files]
    return out


def data_version(
    card_set: Path | str | None = None,
    map_set: Path | str | None = None,
    user_files: Iterable[Path | str] = (),
) -> str:
    """A short SHA-256 of every data file a game reads (:func:`data_files`: name and bytes).

    ``card_set`` is a designer's folder whose card files replace the shipped ones; ``map_set`` a
    folder of maps added to the shipped ones (``--maps DIR``); ``user_files`` the files outside
    those folders the game reads (a scenario given by path and the map its ``map:`` names by
    path). Without them the hash is what it always was. A user file that is not there hashes
    with no bytes (the load then says what is missing).
    """
    h = hashlib.sha256()
    for name, p, _shipped in data_files(card_set, map_set, user_files):
        h.update(name.encode())
        h.update(b"\0")
        h.update(p.read_bytes() if p.is_file() else b"")
    return h.hexdigest()[:16]


def file_versions(
    card_set: Path | str | None = None,
    map_set: Path | str | None = None,
    user_files: Iterable[Path | str] = (),
) -> dict[str, str]:
    """``{path: short SHA-256 of its bytes}`` of each file read that is not shipped (the card and
    map folders' files, the files given by path), for the header's ``files``; ``{}`` for a game
    of shipped data only. A file that is not there is left out."""
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest()[:16]
        for _name, p, shipped in data_files(card_set, map_set, user_files)
        if not shipped and p.is_file()
    }


def changed_files(recorded: dict[str, str], here: dict[str, str]) -> list[str]:
    """What differs between the header's ``files`` and those here, in words, by path."""
    out = []
    for path in sorted(set(recorded) | set(here)):
        if path not in here:
            out.append(f"{path} is gone")
        elif path not in recorded:
            out.append(f"{path} is new")
        elif recorded[path] != here[path]:
            out.append(f"{path} changed")
    return out


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
    window: dict[str, Any] = attrs.field(factory=dict)
    """The window's settings for this game, restored on Continue: the pace of the Enemy's turn
    and the standing choices, e.g. ``{"pace": "step", "pace_seconds": 1.0, "standing":
    {"duck_back": "never", "carry_on": true, "rules_defaults": false}}``. They change no play
    (a replay ignores them). Written only when not empty."""
    standing: dict[str, Any] = attrs.field(factory=dict)
    """The window's standing choices when the game was saved (solo.playtest.standing:
    ``{"duck_back": "never", "carry_on": true, ...}``), given back on Continue. They change no
    play (the choices they gave are in the log). Written only when not empty."""
    files: dict[str, str] = attrs.field(factory=dict)
    """The files outside the shipped data the game read (its card and map folders' files, a
    scenario and a map given by path): ``{name: short SHA-256}`` (:func:`file_versions`), so a
    replay after one changed can say which. Written only when not empty."""

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
        if not self.standing:
            del d["standing"]
        if not self.files:
            del d["files"]
        if not self.auto:
            del d["auto"]
        else:
            d["auto"] = dict(self.auto)
        if not self.window:
            del d["window"]
        return d

    @classmethod
    def from_dict(cls, d: Any, source: str = "log") -> Header:
        """The header of a log from its first line (parsed JSON), checked field by field.

        Raises :class:`LogError` ``source:1: message`` for anything the schema refuses
        (:func:`solo.core.log_schema.check_header`).
        """
        try:
            fields = check_header(d)
        except LogProblem as exc:
            raise LogError(f"{source}:1: {exc.message}") from None
        return cls(**fields)


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
    """Read a log, checking the header and every event (:mod:`solo.core.log_schema`).

    Raises :class:`LogError` ``path:line: message`` in the player's words for anything
    malformed: a file that is not text, an empty file, a line that is not JSON, a last line cut
    mid-line, a field missing, retyped, out of range or unknown, events out of order.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LogError(f"{path}:1: cannot read the log ({exc.strerror or 'unreadable'})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = raw.count(b"\n", 0, exc.start) + 1
        raise LogError(
            f"{path}:{at}: not a solo log: the file is not text (byte {exc.start + 1} is not UTF-8)"
        ) from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise LogError(f"{path}:1: empty log (the first line must be the header)")
    try:
        first = json.loads(lines[0])
    except (json.JSONDecodeError, RecursionError) as exc:
        raise LogError(f"{path}:1: not a solo log: the header is not a JSON line ({_where(exc)})") from None
    header = Header.from_dict(first, str(path))
    events: list[Event] = []
    last = len(lines)
    for n, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            if n == last:
                raise LogError(
                    f"{path}:{n}: the log's last line is cut off mid-line (a crash mid-write or a partial "
                    f"copy?): {len(events)} whole events before it"
                ) from None
            raise LogError(f"{path}:{n}: this line is not a JSON event ({_where(exc)})") from None
        try:
            events.append(Event(**check_event(d, n, len(events))))
        except LogProblem as exc:
            raise LogError(f"{path}:{exc.line}: {exc.message}") from None
    return header, events


def _where(exc: Exception) -> str:
    """Where a line stops being JSON, in words."""
    if isinstance(exc, json.JSONDecodeError):
        return f"broken at column {exc.colno}"
    return "nested too deep"


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
