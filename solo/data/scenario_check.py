"""The common ground of the scenario checks (:func:`solo.data.scenario.load_scenario`): one
bag of problems, the unstructured document, the ids and counters seen, and the hexes.

:class:`ScenarioCheck` holds the state the checks share and the hex checks every section uses:
a hex well formed, on the map and (for characters) enterable, and the set-up hexes of each side
recorded for the opponents check (base-rules §19: the two sides may not start in one hex).
The checks of each section are mixed in by :mod:`solo.data.scenario_forces` (teams, characters,
cups, reinforcements, vehicles) and :mod:`solo.data.scenario_setting` (the top keys, options,
overlays, fires, set-up opponents, victory).

May import: :mod:`solo.core` and :mod:`solo.data` (never :mod:`solo.data.house`, but for types).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from solo.core.datafile import DataFile, DocPath, Problems, node_at
from solo.core.errors import GeometryError
from solo.core.hexes import Hex
from solo.core.sides import Side
from solo.data.characters import CharacterBook
from solo.data.scenario_format import Scenario
from solo.data.scenario_needs import source_of

if TYPE_CHECKING:
    from solo.data.maps import MapDef


class ScenarioCheck:
    """The state of the semantic checks of a structured scenario; every problem goes to one bag.

    ``data`` is the card set checked against (:class:`~solo.data.house.HouseData`), ``book`` the
    character profiles and counters; ``map_def`` a map the scenario gives by path (else its id is
    looked up in ``data.maps``) and ``map_error`` why that map could not be read.
    """

    def __init__(
        self,
        doc: DataFile,
        sc: Scenario,
        data: Any,
        book: CharacterBook,
        *,
        map_def: MapDef | None = None,
        map_error: str | None = None,
    ) -> None:
        self.doc = doc
        self.sc = sc
        self.data = data
        self.book = book
        self.probs = Problems()
        self.map: MapDef | None = map_def if map_def is not None else data.maps.get(sc.map)
        self.map_error, self.crews_file = map_error, source_of(data, "crews.yaml")
        self.ids: dict[str, DocPath] = {}
        self.counters: dict[tuple[int, bool], DocPath] = {}
        # hex -> [(side, path, token index or None, label)] of set-up placements
        self.placed: dict[Hex, list[tuple[Side, DocPath, int | None, str]]] = {}

    def add(self, path: DocPath, message: str, *, at_key: bool = False) -> None:
        self.probs.add(self.doc, path, message, at_key=at_key)

    def add_token(self, path: DocPath, k: int | None, message: str) -> None:
        if k is None:
            self.add(path, message)
        else:
            self.probs.items.append(self.doc.token_problem(path, k, message))

    def raw(self, path: DocPath) -> Any:
        """The unstructured node at ``path`` (None if absent)."""
        return node_at(self.doc.data, path)

    def has_key(self, path: DocPath, key: str) -> bool:
        node = self.raw(path)
        return isinstance(node, dict) and key in node

    def character_ids(self) -> Iterator[tuple[DocPath, str]]:
        """Every character id of the scenario with its path: the teams', then the reinforcements'."""
        sc = self.sc
        for key, teams in (("friendly", sc.friendly), ("enemy", sc.enemy)):
            for i, team in enumerate(teams):
                for j, c in enumerate(team.characters):
                    yield (key, i, "characters", j, "id"), c.id
        for i, wave in enumerate(sc.reinforcements):
            for j, c in enumerate(wave.characters):
                yield ("reinforcements", i, "characters", j, "id"), c.id

    # -- hexes -----------------------------------------------------------------

    def check_hex(
        self, path: DocPath, text: str, *, k: int | None = None, passable: bool = True
    ) -> Hex | None:
        """The hex ``text`` if it is well formed, on the map and (``passable``) enterable."""
        try:
            h = Hex.parse(text)
        except GeometryError as exc:
            self.add_token(path, k, str(exc))
            return None
        m = self.map
        if m is None:
            return h
        if not m.has_hex(h):
            self.add_token(path, k, f"hex {text} is not on map {m.id!r}")
            return None
        if passable:
            blocked = self.impassable(h)
            if blocked:
                self.add_token(path, k, f"hex {text} is {blocked}: characters cannot enter it")
                return None
        return h

    def impassable(self, h: Hex) -> str:
        """The name of what keeps characters out of ``h`` (``character_passable``), or ''."""
        table = self.data.terrain
        assert self.map is not None
        for tid in (self.map.terrain[h], *self.map.overlays.get(h, ())):
            t = table[tid]
            if not t.character_passable:
                return str(t.name)
        return ""

    def check_hex_list(
        self,
        path: DocPath,
        text: str | None,
        *,
        side: Side | None,
        label: str,
        passable: bool = True,
    ) -> list[Hex | None]:
        """Each hex of a space-separated list (None where bad); set-up hexes of ``side`` are recorded."""
        if text is None:
            return []
        out: list[Hex | None] = []
        tokens = text.split()
        if not tokens:
            self.add(path, "no hexes given")
        for k, tok in enumerate(tokens):
            h = self.check_hex(path, tok, k=k, passable=passable)
            out.append(h)
            if h is not None and side is not None:
                self.placed.setdefault(h, []).append((side, path, k, label))
        return out
