"""A scenario being edited (``solo edit SCENARIO.yaml``): :class:`ScenarioDraft`.

The draft is the scenario's document (:func:`~solo.data.scenario_writer.scenario_doc`: plain
dicts and lists) and the edits the scenario editor makes on it: place, move and remove
Friendly characters (a ``profile`` of ``cards/characters.yaml``, C2 25.0), Enemy characters (a
``counter`` 1–21, C2 24.0) and dummies (base-rules §3), cup set-up hexes with a counter or a
dummy (§19), a team's set-up hexes, vehicles with their facing (C2 31) and a crew taken from
the characters in their hex, Direction Counters (§6), objectives (§19) and the entry hexes of a
reinforcement wave (§5.7). :meth:`ScenarioDraft.pieces` lists what stands on the map, each
with the path of its entry in the document.

Pure: no pygame; nothing here checks the rules (the validator does, on save).

May import: :mod:`solo.core` and :mod:`solo.data`.
"""

from __future__ import annotations

import contextlib
import copy
import os
import pathlib
from collections.abc import Collection, Sequence
from typing import Any

import attrs

from solo.core.errors import DataError
from solo.core.hexes import Hex
from solo.data.characters import FriendlyProfile
from solo.data.scenario_format import ENEMY_TEAMS, FRIENDLY_TEAMS, STANDARD_BANDS, Scenario
from solo.data.scenario_writer import dump_scenario, order_doc, parse_scenario_text, scenario_doc

__all__ = ["Piece", "ScenarioDraft", "side_of_team"]

Path = tuple[Any, ...]
"""A path of keys and indexes into the document."""
PathLike = str | os.PathLike[str]
"""A folder given as text or a path."""


def side_of_team(team: str) -> str:
    """``"friendly"`` for a Friendly team id (§2), else ``"enemy"``."""
    return "friendly" if team in FRIENDLY_TEAMS else "enemy"


@attrs.frozen
class Piece:
    """One thing on the map, as the document holds it.

    ``kind``: ``character``, ``dummy``, ``team_hex`` (a set-up hex of a team whose members take
    them in order), ``cup_hex`` (a cup's set-up hex), ``wave_hex`` (a reinforcement's entry hex),
    ``vehicle``, ``direction_counter`` or ``objective``. ``path`` leads to the entry (a dict), and
    ``token`` is the index of the hex in a space-separated ``hexes`` string, if it is one.
    """

    kind: str
    path: Path
    hex: Hex
    label: str
    side: str = ""
    team: str = ""
    token: int | None = None
    facing: int | None = None


class ScenarioDraft:
    """The scenario document and its edits; ``doc`` is the document (plain data)."""

    def __init__(self, doc: dict[str, Any], *, source: str | None = None) -> None:
        self.doc = doc
        self.source = source
        """The text the scenario was read from (None: a new scenario)."""
        self.original: dict[str, Any] | None = copy.deepcopy(doc) if source is not None else None
        """The document as read, to tell which sections changed (None: a new scenario)."""

    @classmethod
    def from_scenario(cls, sc: Scenario) -> ScenarioDraft:
        """The draft of a structured scenario (defaults left out), written afresh on save."""
        return cls(scenario_doc(sc))

    @classmethod
    def from_text(cls, text: str, name: str) -> ScenarioDraft:
        """The draft of scenario text; saving keeps the sections left alone as written.

        Raises :class:`~solo.core.errors.DataError` (``name:line``) for text that does not read
        as a scenario (YAML or field types).
        """
        return cls(scenario_doc(parse_scenario_text(text, name)), source=text)

    @classmethod
    def new(cls, map_ref: str, scenario_id: str, name: str, *, turns: int = 6) -> ScenarioDraft:
        """An empty scenario on ``map_ref`` (a map id or a path relative to the scenario file).

        It has no forces yet (the validator says so until some are placed), the standard VP
        bands (§19) and the Friendly edge south.
        """
        doc: dict[str, Any] = {
            "id": scenario_id,
            "name": name,
            "map": map_ref,
            "month": 6,
            "weather": "clear",
            "ground": "normal",
            "turns": turns,
            "hand": 3,
            "friendly": [],
            "enemy": [],
        }
        return cls(doc)

    def relocate_map(self, from_dir: PathLike, to_dir: PathLike, map_ids: Collection[str]) -> str | None:
        """Rewrite a ``map:`` given as a path relative to the scenario file (issue 12 item 4) for a
        scenario read in ``from_dir`` and saved in ``to_dir``: the same map file, relative to
        ``to_dir`` (an absolute path if the two share no root). A map id of ``map_ids``, an
        absolute path or an unchanged folder are left alone. Returns the new ``map:`` or None.
        """
        ref = str(self.doc.get("map", ""))
        if not ref or ref in map_ids or pathlib.Path(ref).expanduser().is_absolute():
            return None
        src, dst = pathlib.Path(from_dir).resolve(), pathlib.Path(to_dir).resolve()
        if src == dst:
            return None
        target = (src / ref).resolve()
        try:
            new = pathlib.Path(os.path.relpath(target, dst)).as_posix()
        except ValueError:  # another drive (Windows): no relative path
            new = target.as_posix()
        if new == ref:
            return None
        self.doc["map"] = new
        return new

    def copy(self) -> ScenarioDraft:
        """A deep copy (for undo)."""
        out = ScenarioDraft(copy.deepcopy(self.doc))
        out.source, out.original = self.source, self.original
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScenarioDraft) and self.doc == other.doc

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable, as Python's idiom

    def text(self) -> str:
        """The YAML text to save (:func:`~solo.data.scenario_writer.dump_scenario`).

        A draft that reads back is written in the writer's normal form (nested keys in field
        order, defaults left out), so saving it again gives the same text; one that does not is
        written as it is (the editor then refuses to save it). A draft read from text keeps the
        sections left alone as they were written, comments included.
        """
        doc = order_doc(self.doc)
        with contextlib.suppress(DataError):  # the editor shows why and does not save
            doc = scenario_doc(parse_scenario_text(dump_scenario(doc), "draft"))
        return dump_scenario(doc, source=self.source, original=self.original)

    # -- reading -------------------------------------------------------------

    def get(self, path: Path) -> Any:
        """The node at ``path`` (KeyError/IndexError when absent)."""
        node: Any = self.doc
        for step in path:
            node = node[step]
        return node

    def teams(self, side: str) -> list[dict[str, Any]]:
        """The teams of ``side`` (``friendly``/``enemy``), the list itself."""
        teams: list[dict[str, Any]] = self.doc.setdefault(side, [])
        return teams

    def team(self, team_id: str) -> tuple[int, dict[str, Any]]:
        """(index, entry) of the team ``team_id``, added (empty) if the scenario has none."""
        teams = self.teams(side_of_team(team_id))
        for i, t in enumerate(teams):
            if t.get("id") == team_id:
                return i, t
        teams.append({"id": team_id})
        return len(teams) - 1, teams[-1]

    def all_characters(self) -> list[tuple[Path, dict[str, Any]]]:
        """Every character entry with its path: teams, then reinforcement waves."""
        out: list[tuple[Path, dict[str, Any]]] = []
        for side in ("friendly", "enemy"):
            for i, t in enumerate(self.doc.get(side, [])):
                for j, c in enumerate(t.get("characters", [])):
                    out.append(((side, i, "characters", j), c))
        for i, w in enumerate(self.doc.get("reinforcements", [])):
            for j, c in enumerate(w.get("characters", [])):
                out.append((("reinforcements", i, "characters", j), c))
        return out

    def used_ids(self) -> set[str]:
        """Character and vehicle ids in use."""
        ids = {c.get("id", "") for _p, c in self.all_characters()}
        return ids | {v.get("id", "") for v in self.doc.get("vehicles", [])}

    def next_id(self, prefix: str) -> str:
        """``prefix_N`` for the lowest N ≥ 1 not in use."""
        used = self.used_ids()
        n = 1
        while f"{prefix}_{n}" in used:
            n += 1
        return f"{prefix}_{n}"

    def used_counters(self) -> list[int]:
        """Enemy counter numbers placed as characters or in cups."""
        out = [int(c["counter"]) for _p, c in self.all_characters() if c.get("counter") is not None]
        for t in self.doc.get("enemy", []):
            for cup in t.get("cup", []):
                out += [int(n) for n in cup.get("counters", [])]
        for w in self.doc.get("reinforcements", []):
            out += [int(n) for n in (w.get("cup") or {}).get("counters", [])]
        return out

    def next_counter(self, start: int = 1, step: int = 1) -> int:
        """The next Enemy counter number 1–21 from ``start`` (in ``step`` direction) not in use."""
        used = set(self.used_counters())
        n = start
        for _ in range(21):
            if n not in used:
                return n
            n = (n - 1 + step) % 21 + 1
        return start

    def pieces(self) -> list[Piece]:
        """Everything with a hex on the map, in document order (later pieces are drawn on top)."""
        out: list[Piece] = []
        for side in ("friendly", "enemy"):
            for i, t in enumerate(self.doc.get(side, [])):
                tid = t.get("id", "")
                for k, tok in enumerate(_tokens(t.get("hexes"))):
                    out.append(Piece("team_hex", (side, i), tok, f"{tid} set-up hex", side, tid, k))
                for j, c in enumerate(t.get("characters", [])):
                    h = _hex(c.get("hex"))
                    if h is not None:
                        kind = "dummy" if c.get("dummy") else "character"
                        out.append(Piece(kind, (side, i, "characters", j), h, _label(c), side, tid))
                for c_i, cup in enumerate(t.get("cup", [])):
                    for k, tok in enumerate(_tokens(cup.get("hexes"))):
                        where = (side, i, "cup", c_i)
                        out.append(Piece("cup_hex", where, tok, f"{tid} cup hex", side, tid, k))
        for i, w in enumerate(self.doc.get("reinforcements", [])):
            tid = w.get("team", "")
            when = f"turn {w['turn']}" if w.get("turn") is not None else "event"
            for k, tok in enumerate(_tokens(w.get("hexes"))):
                out.append(
                    Piece(
                        "wave_hex",
                        ("reinforcements", i),
                        tok,
                        f"{tid} entry ({when})",
                        side_of_team(tid),
                        tid,
                        k,
                    )
                )
        for i, v in enumerate(self.doc.get("vehicles", [])):
            h = _hex(v.get("hex"))
            if h is not None:
                label = v.get("name") or v.get("type", "vehicle")
                facing = int(v.get("facing", 1))
                out.append(Piece("vehicle", ("vehicles", i), h, label, v.get("side", ""), "", None, facing))
        for i, dc in enumerate(self.doc.get("direction_counters", [])):
            h = _hex(dc.get("hex"))
            if h is not None:
                rot = int(dc.get("rotation", 0))
                out.append(Piece("direction_counter", ("direction_counters", i), h, f"DC {rot}", facing=rot))
        for i, o in enumerate((self.doc.get("victory") or {}).get("objectives", [])):
            h = _hex(o.get("hex"))
            if h is not None:
                label = f"{o.get('vp', 0)} VP" + (f" {o['name']}" if o.get("name") else "")
                out.append(
                    Piece("objective", ("victory", "objectives", i), h, label, o.get("side", "friendly"))
                )
        return out

    def pieces_at(self, h: Hex) -> list[Piece]:
        """The pieces in hex ``h``, in drawing order."""
        return [p for p in self.pieces() if p.hex == h]

    # -- placing -------------------------------------------------------------

    def add_character(self, team_id: str, h: Hex, *, profiles: Sequence[str] = ()) -> Path:
        """A character of ``team_id`` in ``h``: Friendly, the first of ``profiles`` not in use
        (C2 25.0); Enemy, the next counter not in use (C2 24.0). Returns its path."""
        i, team = self.team(team_id)
        side = side_of_team(team_id)
        entry: dict[str, Any] = {"id": self.next_id(team_id)}
        if side == "friendly":
            used = {c.get("profile") for _p, c in self.all_characters()}
            free = [p for p in profiles if p not in used] or list(profiles[:1])
            if free:
                entry["profile"] = free[0]
            else:  # no profiles given: a written-out rifleman
                entry.update({"name": f"Pvt {team_id.capitalize()}", "tq": 5})
                entry["weapons"] = [{"weapon": "m1_garand", "ws": 5}]
        else:
            entry["counter"] = self.next_counter()
        entry["hex"] = str(h)
        team.setdefault("characters", []).append(entry)
        return (side, i, "characters", len(team["characters"]) - 1)

    def add_dummy(self, team_id: str, h: Hex) -> Path:
        """An Enemy dummy counter (base-rules §3) of ``team_id`` in ``h``."""
        i, team = self.team(team_id)
        team.setdefault("characters", []).append(
            {"id": self.next_id(f"{team_id}_dummy"), "dummy": True, "hex": str(h)}
        )
        return (side_of_team(team_id), i, "characters", len(team["characters"]) - 1)

    def add_cup_hex(self, team_id: str, h: Hex, *, dummy: bool = False) -> Path:
        """A set-up hex for ``team_id``'s cup, with one more counter (or dummy) in the cup (§19)."""
        i, team = self.team(team_id)
        cups = team.setdefault("cup", [])
        if not cups:
            cups.append({})
        cup = cups[0]
        if dummy:
            cup["dummies"] = int(cup.get("dummies", 0)) + 1
        else:
            cup.setdefault("counters", []).append(self.next_counter())
        cup["hexes"] = " ".join([*(str(x) for x in _tokens(cup.get("hexes"))), str(h)])
        cups[0] = {k: cup[k] for k in ("counters", "dummies", "hexes") if k in cup}
        return ("enemy", i, "cup", 0)

    def add_team_hex(self, team_id: str, h: Hex) -> Path:
        """A set-up hex of ``team_id`` (members without a hex take them in order)."""
        i, team = self.team(team_id)
        team["hexes"] = " ".join([*(str(x) for x in _tokens(team.get("hexes"))), str(h)])
        return (side_of_team(team_id), i)

    def add_vehicle(self, type_id: str, side: str, h: Hex, *, facing: int = 1, name: str = "") -> Path:
        """A vehicle of ``type_id`` for ``side`` in ``h`` facing ``facing`` (C2 31)."""
        vehicles = self.doc.setdefault("vehicles", [])
        entry: dict[str, Any] = {"id": self.next_id(type_id), "type": type_id, "side": side}
        if name:
            entry["name"] = name
        entry.update({"hex": str(h), "facing": facing})
        vehicles.append(entry)
        return ("vehicles", len(vehicles) - 1)

    def add_direction_counter(self, h: Hex) -> Path:
        """A Direction Counter in ``h``, rotation 0 (§6)."""
        dcs = self.doc.setdefault("direction_counters", [])
        dcs.append({"hex": str(h), "rotation": 0})
        return ("direction_counters", len(dcs) - 1)

    def add_objective(self, h: Hex, *, vp: int = 2, side: str = "friendly") -> Path:
        """An objective worth ``vp`` to ``side`` in ``h`` (§19)."""
        victory = self.doc.setdefault("victory", {})
        objectives = victory.setdefault("objectives", [])
        entry: dict[str, Any] = {"hex": str(h), "vp": vp}
        if side != "friendly":
            entry["side"] = side
        objectives.append(entry)
        self.doc["victory"] = {k: victory[k] for k in _VICTORY_ORDER if k in victory}
        return ("victory", "objectives", len(objectives) - 1)

    def add_wave(self, team_id: str, turn: int) -> int:
        """A reinforcement wave of ``team_id`` on ``turn`` (§5.7): Enemy, a cup of one counter;
        Friendly, no one yet. Its entry hexes are added with :meth:`add_wave_hex`."""
        waves = self.doc.setdefault("reinforcements", [])
        wave: dict[str, Any] = {"team": team_id, "hexes": "", "turn": turn}
        if side_of_team(team_id) == "enemy":
            wave["cup"] = {"counters": [self.next_counter()]}
        waves.append(wave)
        return len(waves) - 1

    def add_wave_hex(self, wave: int, h: Hex) -> Path:
        """An entry hex of reinforcement wave ``wave``."""
        w = self.doc["reinforcements"][wave]
        w["hexes"] = " ".join([*(str(x) for x in _tokens(w.get("hexes"))), str(h)])
        return ("reinforcements", wave)

    def set_wave_who(self, wave: int, counters: Sequence[int], dummies: int) -> None:
        """An Enemy wave's cup: ``counters`` and ``dummies``."""
        w = self.doc["reinforcements"][wave]
        cup: dict[str, Any] = {"counters": list(counters)}
        if dummies:
            cup["dummies"] = dummies
        w["cup"] = cup

    def set_band(self, index: int, min_vp: int) -> None:
        """The ``min_vp`` of VP band ``index`` (§19; the standard bands are copied first)."""
        victory = self.doc.setdefault("victory", {})
        if "bands" not in victory:
            victory["bands"] = [{"result": b.result, "min_vp": b.min_vp} for b in STANDARD_BANDS]
            victory["bands"][-1] = {"result": STANDARD_BANDS[-1].result}
        victory["bands"][index]["min_vp"] = min_vp
        self.doc["victory"] = {k: victory[k] for k in _VICTORY_ORDER if k in victory}

    def toggle_hex(self, key: str, h: Hex) -> bool:
        """Add ``h`` to the top-level hex list ``key`` (``minefields``, C2 31.5; ``fires``, C2 29.0)
        or take it out if it is there; returns True if it is now in. An empty list is left out.
        Tokens that are not hexes stay as written (the validator reports them with their line)."""
        tokens = str(self.doc.get(key) or "").split()
        same = [t for t in tokens if _hex(t) == h]
        added = not same
        tokens = [*tokens, str(h)] if added else [t for t in tokens if t not in same]
        if tokens:
            self.doc[key] = " ".join(tokens)
        else:
            self.doc.pop(key, None)
        return added

    def set_victory_value(self, key: str, vp: int | None) -> None:
        """A per-kill VP value of ``victory`` (``kill``, ``leader_kill``, ``prisoner``,
        ``friendly_killed``, ``friendly_captured``; §19); None or the default leaves it out."""
        victory = self.doc.setdefault("victory", {})
        default = {"kill": 1, "leader_kill": 2}.get(key, 1)
        if vp is None or vp == default:
            victory.pop(key, None)
        else:
            victory[key] = vp
        self.doc["victory"] = {k: victory[k] for k in _VICTORY_ORDER if k in victory}
        if not self.doc["victory"]:
            del self.doc["victory"]

    def add_exit(self, *, vp: int = 1, side: str = "friendly", edge: str | None = None) -> int:
        """An exit of ``victory`` (§19): ``vp`` per character of ``side`` leaving by ``edge`` (a map
        side) or, with no edge, from its ``hexes`` (added with :meth:`toggle_exit_hex`). Returns
        its index."""
        victory = self.doc.setdefault("victory", {})
        entry: dict[str, Any] = {"vp": vp}
        if side != "friendly":
            entry["side"] = side
        if edge is not None:
            entry["edge"] = edge
        victory.setdefault("exits", []).append(entry)
        self.doc["victory"] = {k: victory[k] for k in _VICTORY_ORDER if k in victory}
        return len(victory["exits"]) - 1

    def remove_exit(self, index: int) -> None:
        """Take exit ``index`` out of ``victory``."""
        victory = self.doc["victory"]
        del victory["exits"][index]
        if not victory["exits"]:
            del victory["exits"]
        if not victory:
            del self.doc["victory"]

    def toggle_exit_hex(self, index: int, h: Hex) -> bool:
        """Add ``h`` to exit ``index``'s ``hexes`` or take it out; returns True if it is now in."""
        entry = self.doc["victory"]["exits"][index]
        tokens = [str(x) for x in _tokens(entry.get("hexes"))]
        added = str(h) not in tokens
        tokens = [*tokens, str(h)] if added else [t for t in tokens if t != str(h)]
        if tokens:
            entry["hexes"] = " ".join(tokens)
        else:
            entry.pop("hexes", None)
        _reorder(entry, ("vp", "side", "edge", "hexes"))
        return added

    def set_option(self, name: str, value: Any, default: Any) -> None:
        """House option ``name`` (:class:`~solo.core.options.Options`) set to ``value`` for this
        scenario; the ``default`` value leaves it out (and an empty ``options`` too)."""
        options = self.doc.setdefault("options", {})
        if value == default:
            options.pop(name, None)
        else:
            options[name] = value
        if not options:
            del self.doc["options"]
        self._order_top()

    def set_top(self, key: str, value: Any, default: Any = None) -> None:
        """A top-level key (``wind``, ``description``, ...); ``default`` leaves it out."""
        if value == default:
            self.doc.pop(key, None)
        else:
            self.doc[key] = value
            self._order_top()

    def set_nested(self, key: str, field: str, value: Any, default: Any) -> None:
        """``key.field`` of a section of plain fields (``edges``, ``events``); ``default`` leaves it
        out, and an empty section too. Fields keep the order ``friendly``, ``enemy``."""
        section = self.doc.setdefault(key, {})
        if value == default:
            section.pop(field, None)
        else:
            section[field] = value
        _reorder(section, ("friendly", "enemy"))
        if not section:
            del self.doc[key]
        self._order_top()

    def _order_top(self) -> None:
        ordered = order_doc(self.doc)
        self.doc.clear()
        self.doc.update(ordered)

    def bands(self) -> list[tuple[str, int | None]]:
        """(result, min_vp) of each VP band, best first."""
        got = (self.doc.get("victory") or {}).get("bands")
        if got is None:
            return [(b.result, b.min_vp) for b in STANDARD_BANDS]
        return [(b.get("result", ""), b.get("min_vp")) for b in got]

    # -- changing what is placed ---------------------------------------------

    def move(self, piece: Piece, h: Hex) -> None:
        """Put ``piece`` in ``h`` (a vehicle takes its crew and passengers with it)."""
        entry = self.get(piece.path)
        if piece.token is not None:
            tokens = [str(x) for x in _tokens(entry.get("hexes"))]
            tokens[piece.token] = str(h)
            entry["hexes"] = " ".join(tokens)
            return
        if piece.kind == "vehicle":
            aboard = {*entry.get("crew", {}).values(), *entry.get("passengers", {}).values()}
            for _p, c in self.all_characters():
                if c.get("id") in aboard and c.get("hex") == entry.get("hex"):
                    c["hex"] = str(h)
        entry["hex"] = str(h)

    def remove(self, piece: Piece) -> None:
        """Take ``piece`` off: its entry, or its hex token (a cup loses a dummy, else a counter)."""
        entry = self.get(piece.path)
        if piece.token is not None:
            tokens = [str(x) for x in _tokens(entry.get("hexes"))]
            del tokens[piece.token]
            entry["hexes"] = " ".join(tokens)
            if piece.kind == "cup_hex" and len(tokens) < len(entry.get("counters", [])) + entry.get(
                "dummies", 0
            ):
                if entry.get("dummies", 0):
                    entry["dummies"] -= 1
                    if not entry["dummies"]:
                        del entry["dummies"]
                elif entry.get("counters"):
                    entry["counters"].pop()
            if (
                piece.kind == "cup_hex"
                and not tokens
                and not entry.get("counters")
                and not entry.get("dummies")
            ):
                cups = self.get(piece.path[:-1])
                del cups[piece.path[-1]]
                if not cups:
                    del self.get(piece.path[:-2])["cup"]
            elif piece.kind == "team_hex" and not tokens:
                del entry["hexes"]
            return
        parent = self.get(piece.path[:-1])
        del parent[piece.path[-1]]
        if piece.kind in ("character", "dummy"):
            gone = entry.get("id")
            for v in self.doc.get("vehicles", []):
                for key in ("crew", "passengers"):
                    seats = v.get(key, {})
                    for pos in [p for p, who in seats.items() if who == gone]:
                        del seats[pos]
                    if key in v and not seats:
                        del v[key]
        if not parent and piece.path[-2] in ("vehicles", "direction_counters", "objectives"):
            del self.get(piece.path[:-2])[piece.path[-2]]

    def rotate(self, piece: Piece, steps: int = 1) -> None:
        """Turn a vehicle's facing (1–6; the turret with it) or a Direction Counter's rotation (0–5)."""
        entry = self.get(piece.path)
        if piece.kind == "vehicle":
            entry["facing"] = (int(entry.get("facing", 1)) - 1 + steps) % 6 + 1
            if "turret" in entry:
                entry["turret"] = (int(entry["turret"]) - 1 + steps) % 6 + 1
        elif piece.kind == "direction_counter":
            entry["rotation"] = (int(entry.get("rotation", 0)) + steps) % 6

    def crew_from_hex(self, piece: Piece, crew: Sequence[str], passengers: Sequence[str]) -> list[str]:
        """Seat the vehicle's side's characters in its hex: crew positions ``crew`` first (Jeeps,
        Trucks, Half-Tracks: characters crew them, C2 31.3), then passenger positions. Returns
        the ids seated (AFV crews are counters drawn at set-up: pass no ``crew``)."""
        v = self.get(piece.path)
        seated: dict[str, str] = {}
        chars = [
            c["id"]
            for (side, *_rest), c in self.all_characters()
            if side == v.get("side") and c.get("hex") == v.get("hex") and not c.get("dummy")
        ]
        seats = [("crew", p) for p in crew] + [("passengers", p) for p in passengers]
        out: dict[str, dict[str, str]] = {"crew": {}, "passengers": {}}
        for (key, pos), who in zip(seats, chars, strict=False):
            out[key][pos] = who
            seated[pos] = who
        for key in ("crew", "passengers"):
            if out[key]:
                v[key] = out[key]
            else:
                v.pop(key, None)
        return list(seated.values())

    def write_out(self, piece: Piece, profile: FriendlyProfile) -> None:
        """Turn a Friendly character given by ``profile`` into one written out with its values
        (name, TQ, weapons, LDR, skills; C2 25.0), to be edited by hand."""
        c = self.get(piece.path)
        out: dict[str, Any] = {"id": c["id"], "name": profile.name, "tq": profile.tq}
        out["weapons"] = [{"weapon": w.weapon, "ws": w.ws} for w in profile.weapons]
        if profile.ldr:
            out["ldr"] = profile.ldr
        if profile.skills:
            out["skills"] = [s.value for s in profile.skills]
        out.update({k: v for k, v in c.items() if k not in ("id", "profile", "counter")})
        if profile.mg_role is not None:
            out["mg_role"] = profile.mg_role.value
        if profile.trained_medic:
            out["trained_medic"] = True
        c.clear()
        c.update(out)

    def use_profile(self, piece: Piece, profiles: Sequence[str]) -> None:
        """Turn a written-out Friendly character back into one given by a profile: the first of
        ``profiles`` not in use (C2 25.0); his hex, morale and Spotted flag are kept."""
        c = self.get(piece.path)
        used = {x.get("profile") for _p, x in self.all_characters()}
        free = [p for p in profiles if p not in used] or list(profiles[:1])
        keep = {k: c[k] for k in ("hex", "revealed", "morale") if k in c}
        out: dict[str, Any] = {"id": c["id"], **keep}
        if free:
            out["profile"] = free[0]
        c.clear()
        c.update(out)

    def set_weapons(self, piece: Piece, text: str) -> str:
        """A written-out character's weapons from ``"m1_garand:5 grenade:4"`` (weapon id and WS,
        base-rules §3); returns "" or what is wrong (nothing is changed then)."""
        weapons: list[dict[str, Any]] = []
        for tok in text.split():
            weapon, _, ws = tok.partition(":")
            if not weapon or not ws.isdigit():
                return f"weapons: {tok!r} is not weapon:WS (e.g. m1_garand:5)"
            weapons.append({"weapon": weapon, "ws": int(ws)})
        c = self.get(piece.path)
        if weapons:
            c["weapons"] = weapons
        else:
            c.pop("weapons", None)
        return ""

    def retarget(self, piece: Piece, step: int, *, profiles: Sequence[str] = ()) -> str:
        """The next (``step`` +1) or previous (−1) Friendly profile or Enemy counter of a character;
        returns its new label."""
        c = self.get(piece.path)
        if "profile" in c and profiles:
            k = list(profiles).index(c["profile"]) if c["profile"] in profiles else -1
            c["profile"] = profiles[(k + step) % len(profiles)]
        elif "counter" in c:
            c["counter"] = self.next_counter((int(c["counter"]) - 1 + step) % 21 + 1, step)
        return _label(c)


_VICTORY_ORDER = (
    "kill",
    "leader_kill",
    "prisoner",
    "friendly_killed",
    "friendly_captured",
    "objectives",
    "exits",
    "bands",
)


def _reorder(entry: dict[str, Any], order: tuple[str, ...]) -> None:
    """Put ``entry``'s keys in ``order`` (others after, as they were), in place."""
    items = [(k, entry[k]) for k in order if k in entry] + [
        (k, v) for k, v in entry.items() if k not in order
    ]
    entry.clear()
    entry.update(items)


def _tokens(text: Any) -> list[Hex]:
    out: list[Hex] = []
    for tok in str(text or "").split():
        h = _hex(tok)
        if h is not None:
            out.append(h)
    return out


def _hex(text: Any) -> Hex | None:
    if text is None:
        return None
    try:
        return Hex.parse(str(text))
    except ValueError:
        return None


def _label(c: dict[str, Any]) -> str:
    if c.get("dummy"):
        return "dummy"
    if c.get("name"):
        return str(c["name"])
    if c.get("profile"):
        return str(c["profile"])
    if c.get("counter") is not None:
        return f"counter {c['counter']}"
    return str(c.get("id", "?"))


ALL_TEAMS: tuple[str, ...] = FRIENDLY_TEAMS + ENEMY_TEAMS
"""Every team id, Friendly first (§2)."""
