"""The scenario checks of the setting (:func:`solo.data.scenario.load_scenario`): the top keys,
options, overlays, fires, the set-up opponents and victory.

The id, map, month, turns, hand (§18 hand limit), wind, Direction Counters, edges, target and
first-order tables, barrages, C4, minefields and prisoners; option names and values; overlays
(C2 27.4); no unit on an opponent's hex at set-up (§19); fires on terrain that burns, with
nobody in them (C2 29.2); victory points and bands (§19). Mixed into the scenario checker by
:mod:`solo.data.scenario`.

May import: :mod:`solo.core` and :mod:`solo.data`.
"""

from __future__ import annotations

from solo.core.datafile import SNAKE_ID, structure
from solo.core.errors import DataError, GeometryError
from solo.core.hexes import Hex
from solo.core.options import OPTION_CHOICES, OPTION_RANGES, Options
from solo.data.scenario_check import ScenarioCheck
from solo.data.scenario_format import ReinforcementSpec, parse_forced_order
from solo.data.terrain import Placement

MAX_TURNS = 99
MAX_HAND = 5
"""The Friendly hand limit (base-rules §18); a starting hand may not exceed it."""


def text_has(hexes: str, h: Hex) -> bool:
    """Whether the space-separated hex list ``hexes`` names ``h`` (bad tokens are skipped)."""
    for tok in hexes.split():
        try:
            if Hex.parse(tok) == h:
                return True
        except GeometryError:
            continue
    return False


class SettingCheck(ScenarioCheck):
    """The checks of the scenario's own keys: everything but the forces."""

    def check_top(self) -> None:
        sc, data = self.sc, self.data
        if not SNAKE_ID.match(sc.id):
            self.add(("id",), f"scenario id {sc.id!r} must be snake_case")
        if self.map is None:
            known = ", ".join(sorted(data.maps))
            self.add(("map",), self.map_error or f"unknown map {sc.map!r} (expected one of: {known})")
        if self.has_key((), "map_def"):
            self.add(("map_def",), "unknown key 'map_def' (give the map with 'map')", at_key=True)
        if not 1 <= sc.month <= 12:
            self.add(("month",), f"month {sc.month} outside 1-12")
        if not 1 <= sc.turns <= MAX_TURNS:
            self.add(("turns",), f"turns {sc.turns} outside 1-{MAX_TURNS}")
        if not 1 <= sc.hand <= MAX_HAND:
            self.add(("hand",), f"starting hand {sc.hand} outside 1-{MAX_HAND} (the hand limit, §18)")
        if sc.wind is not None and not 1 <= sc.wind <= 6:
            self.add(("wind",), f"wind {sc.wind} is not a direction 1-6 (omit it to roll a d6)")
        for i, dc in enumerate(sc.direction_counters):
            self.check_hex(("direction_counters", i, "hex"), dc.hex, passable=False)
            if not 0 <= dc.rotation <= 5:
                self.add(("direction_counters", i, "rotation"), f"rotation {dc.rotation} outside 0-5")
        if sc.edges.friendly == sc.edges.enemy:
            self.add(("edges",), f"the Friendly and Enemy edges are both {sc.edges.friendly.value}")
        for key, hexes in sc.target_tables.items():
            if key not in ("friendly", "enemy"):
                self.add(("target_tables", key), f"{key!r} is not a side (friendly or enemy)", at_key=True)
            if len(hexes) != 10:
                self.add(("target_tables", key), f"a target table has 10 hexes (d10 0-9), not {len(hexes)}")
            for k, text in enumerate(hexes):
                self.check_hex(("target_tables", key, k), text, passable=False)
        if sc.first_orders and len(sc.first_orders) != 10:
            self.add(
                ("first_orders",), f"a first-order table has 10 orders (d10 0-9), not {len(sc.first_orders)}"
            )
        for k, text in enumerate(sc.first_orders):
            try:
                parse_forced_order(text, self.data.orders)
            except ValueError as exc:
                self.add(("first_orders", k), str(exc))
        for i, b in enumerate(sc.barrages):
            where = ("barrages", i)
            if not 1 <= b.turn <= sc.turns:
                self.add((*where, "turn"), f"turn {b.turn} outside 1-{sc.turns}")
            if b.calibre not in ("60mm", "81mm", "105mm"):
                self.add((*where, "calibre"), f"calibre {b.calibre!r} is not one of 60mm, 81mm, 105mm")
            if b.rounds not in ("d6", "d10") and not (b.rounds.isdigit() and 1 <= int(b.rounds) <= 20):
                self.add((*where, "rounds"), f"rounds {b.rounds!r} must be d6, d10 or a number 1-20")
        if sc.c4 is not None:
            for text in sc.c4.hexes.split():
                self.check_hex(("c4", "hexes"), text, passable=False)
        if sc.minefields:
            seen: set[str] = set()
            for k, text in enumerate(sc.minefields.split()):
                h = self.check_hex(("minefields",), text, k=k, passable=False)
                if h is not None and str(h) in seen:
                    self.add_token(("minefields",), k, f"hex {text} is given twice")
                if h is not None:
                    seen.add(str(h))
        if sc.prisoners.capture_range < 0:
            self.add(("prisoners", "capture_range"), "capture_range must be 0 or more")

    def check_options(self) -> None:
        if not self.sc.options:
            return
        try:
            opts = structure(self.doc, Options, at=("options",))
        except DataError as exc:
            self.probs.extend(list(exc.problems))
            return
        for name, choices in OPTION_CHOICES.items():
            if name in self.sc.options and getattr(opts, name) not in choices:
                self.add(
                    ("options", name),
                    f"option {name} {getattr(opts, name)!r} (expected one of: {', '.join(choices)})",
                )
        for name, (lo, hi) in OPTION_RANGES.items():
            if name in self.sc.options and not lo <= getattr(opts, name) <= hi:
                self.add(("options", name), f"option {name} {getattr(opts, name)} outside {lo}-{hi}")

    def check_overlays(self) -> None:
        """The scenario's overlays (C2 27.4): overlay terrain ids on hexes of the map, none twice."""
        table = self.data.terrain
        for i, o in enumerate(self.sc.overlays):
            t = table.get(o.feature) if o.feature in table else None
            if t is None or t.placement not in (Placement.OVERLAY, Placement.HEX_OR_OVERLAY):
                self.add(
                    ("overlays", i, "feature"),
                    f"{o.feature!r} is not an overlay (expected e.g. trench, foxhole, barbed_wire)",
                )
                continue
            where = ("overlays", i, "hexes")
            seen: set[Hex] = set()
            for k, h in enumerate(
                self.check_hex_list(where, o.hexes, side=None, label="overlay", passable=False)
            ):
                if h is None:
                    continue
                if h in seen or (self.map is not None and t.id in self.map.overlays.get(h, ())):
                    self.add_token(where, k, f"{t.id} on {h} is given twice (or the map has it already)")
                seen.add(h)

    def check_opponents(self) -> None:
        """No unit may start on a hex an opponent starts on (set-up, base-rules §19)."""
        for h, entries in self.placed.items():
            sides = {e[0] for e in entries}
            if len(sides) < 2:
                continue
            for side, path, k, _label in entries:
                others = [lab for s, _p, _k, lab in entries if s is not side]
                self.add_token(
                    path,
                    k,
                    f"hex {h} holds an opponent at set-up ({', '.join(others)}): "
                    "the two sides may not start in one hex",
                )

    def check_fires(self) -> None:
        """``fires:`` (C2 29.0): hexes on the map, each once, of terrain that burns (a kindling
        value, C2 29.2), with nobody and no vehicle set up in them and no reinforcement wave entering
        by them (29.2: no one enters a Fire)."""
        sc = self.sc
        if not sc.fires:
            return
        seen: set[str] = set()
        vehicle_hexes = {v.hex for v in sc.vehicles}
        waves: dict[str, list[tuple[int, ReinforcementSpec]]] = {}  # C2 29.2: a wave enters there
        for i, w in enumerate(sc.reinforcements):
            tokens = (w.hexes or "").split() + [c.hex for c in w.characters if c.hex]
            for tok in dict.fromkeys(tokens):
                try:
                    waves.setdefault(str(Hex.parse(tok)), []).append((i, w))
                except GeometryError:
                    continue  # reported with the wave
        for k, text in enumerate(sc.fires.split()):
            h = self.check_hex(("fires",), text, k=k, passable=False)
            if h is None:
                continue
            if str(h) in seen:
                self.add_token(("fires",), k, f"hex {text} is given twice")
                continue
            seen.add(str(h))
            if self.map is None:
                continue
            own = [o.feature for o in sc.overlays if o.feature in self.data.terrain and text_has(o.hexes, h)]
            ids = (self.map.terrain[h], *self.map.overlays.get(h, ()), *own)  # the scenario's overlays too
            kinds = [self.data.terrain[t] for t in ids]
            if all(t.kindling is None for t in kinds):
                self.add_token(
                    ("fires",), k, f"hex {text} is {kinds[0].name}, which does not burn (C2 29.2 kindling)"
                )
            who = [lab for _s, _p, _k, lab in self.placed.get(h, [])]
            if str(h) in vehicle_hexes:
                who.append("a vehicle")
            who.extend(f"reinforcement wave {i + 1} ({w.team})" for i, w in waves.get(str(h), []))
            if who:
                names = ", ".join(who)
                self.add_token(
                    ("fires",), k, f"hex {text} burns at set-up but {names} starts or enters there (C2 29.2)"
                )

    def check_victory(self) -> None:
        v = self.sc.victory
        for key in ("kill", "leader_kill", "prisoner", "friendly_killed", "friendly_captured"):
            if getattr(v, key) < 0:
                self.add(("victory", key), f"{key} is VP and must be 0 or more (losses are subtracted)")
        for i, obj in enumerate(v.objectives):
            self.check_hex(("victory", "objectives", i, "hex"), obj.hex, passable=False)
        for i, ex in enumerate(v.exits):
            where = ("victory", "exits", i)
            if (ex.edge is None) == (ex.hexes is None):
                self.add(where, "an exit names an edge or hexes (one of them)")
            self.check_hex_list((*where, "hexes"), ex.hexes, side=None, label="", passable=False)
        if not v.bands:
            self.add(("victory", "bands"), "no victory bands")
            return
        last = None
        for i, band in enumerate(v.bands):
            where = ("victory", "bands", i)
            final = i == len(v.bands) - 1
            if band.min_vp is None and not final:
                self.add(where, "only the last band may have no min_vp")
            if band.min_vp is not None and last is not None and band.min_vp >= last:
                self.add((*where, "min_vp"), "bands must be written best first (min_vp falling)")
            if band.min_vp is not None:
                last = band.min_vp
        if v.bands[-1].min_vp is not None:
            self.add(
                ("victory", "bands", len(v.bands) - 1), "the last band must have no min_vp (anything lower)"
            )
