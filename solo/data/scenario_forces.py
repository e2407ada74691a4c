"""The scenario checks of the forces (:func:`solo.data.scenario.load_scenario`): teams, characters,
counters, cups, reinforcement waves and vehicles.

Team ids allowed for their side (§2); profiles, counters, weapons and skills known (C2 24.0,
25.0), each counter once; cups no larger than their set-up hexes; waves with a turn or called by
the Event table (§18); vehicles of a known type on enterable hexes, their hatches, crews and
passengers (C2 31.3). Mixed into the scenario checker by :mod:`solo.data.scenario`.

May import: :mod:`solo.core` and :mod:`solo.data`.
"""

from __future__ import annotations

from solo.core.datafile import SNAKE_ID, DocPath
from solo.core.errors import GeometryError
from solo.core.hexes import Hex
from solo.core.sides import Side
from solo.data.characters import ROLLED_TEAMS, check_stats
from solo.data.scenario_check import ScenarioCheck
from solo.data.scenario_format import (
    ENEMY_TEAMS,
    FRIENDLY_TEAMS,
    CharacterSpec,
    CupSpec,
    ReinforcementSpec,
    TeamSpec,
    VehicleSpec,
    parse_forced_order,
)

_STAT_KEYS = ("name", "tq", "ldr", "weapons", "skills", "mg_role", "trained_medic")
_ENEMY_ONLY_TEAM_KEYS = ("alert", "prepared", "elite", "cup")


class ForcesCheck(ScenarioCheck):
    """The checks of ``friendly:``, ``enemy:``, ``reinforcements:`` and ``vehicles:``."""

    def check_team(self, side: Side, where: DocPath, team: TeamSpec) -> None:
        allowed = FRIENDLY_TEAMS if side is Side.FRIENDLY else ENEMY_TEAMS
        if team.id not in allowed:
            self.add(
                (*where, "id"),
                f"team {team.id!r} is not a {side.value} team (expected one of: {', '.join(allowed)})",
            )
        if side is Side.FRIENDLY:
            for key in _ENEMY_ONLY_TEAM_KEYS:
                if self.has_key(where, key):
                    self.add((*where, key), f"{key!r} is for Enemy teams only", at_key=True)
        hexes = self.check_hex_list((*where, "hexes"), team.hexes, side=side, label=f"team {team.id}")
        if team.roll is not None:
            if side is not Side.FRIENDLY or team.id not in ROLLED_TEAMS:
                self.add((*where, "roll"), "only the Friendly able, baker and charlie are rolled (C2 25.0)")
            if team.characters:
                self.add(
                    (*where, "characters"), "a rolled team takes its members from the table: no characters"
                )
            if team.hexes is None:
                self.add((*where, "roll"), 'a rolled team needs set-up hexes (hexes: "15.16 14.16")')
        elif not team.characters and not team.cup:
            self.add(where, f"team {team.id!r} has no characters" + (" or cup" if side is Side.ENEMY else ""))
        elite = team.elite if team.elite is not None else self.sc.elite
        for j, c in enumerate(team.characters):
            self.check_character(side, (*where, "characters", j), c, elite=elite, team_hexes=hexes)
        cup_hexes: dict[Hex, DocPath] = {}
        for j, cup in enumerate(team.cup):
            self.check_cup(side, (*where, "cup", j), cup, elite=elite, team=team.id, used=cup_hexes)

    def check_character(
        self,
        side: Side,
        where: DocPath,
        c: CharacterSpec,
        *,
        elite: bool,
        team_hexes: list[Hex | None] | None,
        reinforcement: bool = False,
    ) -> None:
        if not SNAKE_ID.match(c.id):
            self.add((*where, "id"), f"character id {c.id!r} must be snake_case (e.g. able_1)")
        given = [k for k in _STAT_KEYS if self.has_key(where, k)]
        counter = c.counter
        if side is Side.FRIENDLY:
            counter = None
            for key in ("counter", "dummy"):
                if self.has_key(where, key):
                    self.add((*where, key), f"{key!r} is for Enemy characters only", at_key=True)
        elif c.profile is not None:
            self.add((*where, "profile"), "profiles are Friendly; an Enemy takes a counter number")
        if c.dummy and side is Side.ENEMY:
            for k in given:
                self.add((*where, k), "a dummy has no values", at_key=True)
        elif c.profile is not None:
            if self.book.profile(c.profile) is None:
                self.add((*where, "profile"), f"unknown profile {c.profile!r} (not in {self.book.source})")
            for k in given:
                self.add(
                    (*where, k), f"{k!r} comes from profile {c.profile!r}: give one or the other", at_key=True
                )
        elif counter is not None and c.tq is None:
            self.check_counter((*where, "counter"), counter, elite=elite)
            for k in given:
                self.add(
                    (*where, k),
                    f"counter {counter} takes its values from {self.book.source} "
                    f"(write tq, name and weapons to give your own)",
                    at_key=True,
                )
        else:
            if c.tq is None:
                self.add(where, "give tq, name and weapons (or a profile, or an Enemy counter number)")
            if not c.name:
                self.add(where, "a character written out needs a name")
            check_stats(self.doc, self.probs, where, c, self.data.weapons)
            if counter is not None and not 1 <= counter <= 21:
                self.add((*where, "counter"), f"counter {counter} outside 1-21")
        if c.hex is not None:
            h = self.check_hex((*where, "hex"), c.hex)
            if h is not None and not reinforcement:
                self.placed.setdefault(h, []).append((side, (*where, "hex"), None, c.name or c.id))
        elif not reinforcement and not team_hexes:
            self.add(where, f"{c.id}: no starting hex (give hex, or hexes on the team)")

    def check_counter(self, path: DocPath, n: int, *, elite: bool, k: int | None = None) -> None:
        if not 1 <= n <= 21:
            self.add_token(path, k, f"counter {n} outside 1-21")
            return
        if self.book.counter(n, elite=elite) is None:
            kind = "elite counter" if elite else "counter"
            self.add_token(path, k, f"{kind} {n} has no profile in {self.book.source}")
        key = (n, elite)
        if key in self.counters:
            line = self.doc.line_of(self.counters[key])
            self.add_token(path, k, f"counter {n} is used twice (also on line {line})")
        else:
            self.counters[key] = path if k is None else (*path, k)

    def check_cup(
        self,
        side: Side,
        where: DocPath,
        cup: CupSpec,
        *,
        elite: bool,
        team: str,
        used: dict[Hex, DocPath],
        wave: bool = False,
    ) -> None:
        if side is Side.FRIENDLY:
            self.add(where, "cups are for Enemy teams only")
            return
        for k, n in enumerate(cup.counters):
            self.check_counter((*where, "counters", k), n, elite=elite)
        if cup.dummies < 0:
            self.add((*where, "dummies"), "dummies must be 0 or more")
        if cup.size <= 0:
            self.add(where, "an empty cup (give counters and/or dummies)")
        if wave:
            if cup.hexes is not None:
                self.add((*where, "hexes"), "a reinforcement's cup enters by the wave's hexes", at_key=True)
            return
        if cup.hexes is None:
            self.add(where, 'a cup needs its set-up hexes (hexes: "15.06 14.07 ...")')
            return
        hexes = self.check_hex_list((*where, "hexes"), cup.hexes, side=side, label=f"cup of team {team}")
        for k, h in enumerate(hexes):
            if h is None:
                continue
            if h in used:
                self.add_token((*where, "hexes"), k, f"hex {h} is a set-up hex twice (one counter per hex)")
            used[h] = (*where, "hexes")
        if cup.size > len(hexes):
            self.add(
                where,
                f"the cup holds {len(cup.counters)} counters and {max(cup.dummies, 0)} dummies but has only "
                f"{len(hexes)} set-up hexes (one counter per hex)",
            )

    def check_wave(self, where: DocPath, wave: ReinforcementSpec) -> None:
        sc = self.sc
        if wave.event and wave.turn is not None:
            self.add((*where, "turn"), "an event wave (event: true) has no turn: the Event table calls it")
        elif not wave.event and wave.turn is None:
            self.add(where, "a reinforcement wave needs a turn (or event: true, §18)")
        elif wave.turn is not None and not 1 <= wave.turn <= sc.turns:
            self.add((*where, "turn"), f"turn {wave.turn} outside 1-{sc.turns}")
        if wave.team in FRIENDLY_TEAMS:
            side = Side.FRIENDLY
        elif wave.team in ENEMY_TEAMS:
            side = Side.ENEMY
        else:
            self.add(
                (*where, "team"),
                f"team {wave.team!r} is neither a Friendly team ({', '.join(FRIENDLY_TEAMS)}) "
                f"nor an Enemy colour ({', '.join(ENEMY_TEAMS)})",
            )
            side = Side.ENEMY
        if side is Side.FRIENDLY and wave.elite is not None:
            self.add((*where, "elite"), "'elite' is for Enemy reinforcements", at_key=True)
        entry = self.check_hex_list((*where, "hexes"), wave.hexes, side=None, label="")
        if not wave.characters and wave.cup is None:
            self.add(where, "a reinforcement needs characters or a cup")
        elite = wave.elite if wave.elite is not None else sc.is_elite(wave.team)
        for j, c in enumerate(wave.characters):
            self.check_character(
                side,
                (*where, "characters", j),
                c,
                elite=elite,
                team_hexes=entry,
                reinforcement=True,
            )
        if wave.cup is not None:
            self.check_cup(side, (*where, "cup"), wave.cup, elite=elite, team=wave.team, used={}, wave=True)
        if wave.order is not None:
            try:
                parse_forced_order(wave.order, self.data.orders)
            except ValueError as exc:
                self.add((*where, "order"), str(exc))

    def check_vehicle(self, where: DocPath, v: VehicleSpec) -> None:
        """A vehicle: known type, side, hex on the map and enterable, facing, seats and crew (C2 31)."""
        types = getattr(self.data, "vehicles", None)
        if v.id in self.ids:
            self.add((*where, "id"), f"id {v.id!r} is already used")
        self.ids[v.id] = (*where, "id")
        if v.side not in ("friendly", "enemy"):
            self.add((*where, "side"), f"side must be friendly or enemy, got {v.side!r}")
        if not 1 <= v.facing <= 6:
            self.add((*where, "facing"), f"facing is a direction 1-6, got {v.facing}")
        if v.turret is not None and not 1 <= v.turret <= 6:
            self.add((*where, "turret"), f"turret is a direction 1-6, got {v.turret}")
        if v.loaded not in (None, "he", "ap"):
            self.add((*where, "loaded"), f"loaded must be he or ap, got {v.loaded!r}")
        if types is None or v.type not in types:
            known = ", ".join(t.id for t in types) if types is not None else ""
            self.add((*where, "type"), f"unknown vehicle type {v.type!r} (expected one of: {known})")
            return
        vtype = types.get(v.type)
        try:
            h = Hex.parse(v.hex)
        except GeometryError as exc:
            self.add((*where, "hex"), str(exc))
            h = None
        if h is not None and self.map is not None:
            if not self.map.has_hex(h):
                self.add((*where, "hex"), f"hex {v.hex} is not on map {self.sc.map!r}")
            else:
                terrain = self.data.terrain[self.map.terrain[h]]
                wheeled = vtype.kind.is_wheeled
                if terrain.vehicles.value == "impassable" or (wheeled and not terrain.wheeled_passable):
                    self.add(
                        (*where, "hex"), f"a {vtype.kind.value} cannot stand in {terrain.name} ({v.hex})"
                    )
        positions = {
            p.id: p for p in (*vtype.crew, *vtype.passengers, *((vtype.cupola,) if vtype.cupola else ()))
        }
        for pos, state in v.hatches.items():
            if pos not in positions or not positions[pos].hatch:
                self.add((*where, "hatches", pos), f"{vtype.name} has no hatch at {pos!r}", at_key=True)
            elif state not in ("open", "closed"):
                self.add((*where, "hatches", pos), f"a hatch is open or closed, got {state!r}")
        if v.wrecked and (v.crew or v.passengers or v.road_orders):
            self.add((*where, "wrecked"), "a wreck has no crew, passengers or road orders")
        afv = vtype.kind.value == "afv"
        crews = getattr(self.data, "crews", None)
        for pos, who in v.crew.items():
            if pos not in positions or positions[pos].role is None:
                self.add((*where, "crew", pos), f"{vtype.name} has no crew position {pos!r}", at_key=True)
                continue
            if afv:
                try:
                    counter = crews.get(who) if crews is not None else None
                except KeyError:
                    counter = None
                if counter is None:
                    self.add((*where, "crew", pos), f"unknown crew counter {who!r} ({self.crews_file})")
                elif counter.role.value != pos:
                    self.add((*where, "crew", pos), f"{who} is a {counter.role.value} counter, not a {pos}")
            elif who not in self.ids:
                self.add(
                    (*where, "crew", pos),
                    f"unknown character {who!r} (a Jeep/Truck/Half-Track is "
                    "driven by a scenario character, C2 31.3)",
                )
        for pos, who in v.passengers.items():
            if pos not in positions or positions[pos].role is not None:
                self.add(
                    (*where, "passengers", pos),
                    f"{vtype.name} has no passenger position {pos!r}",
                    at_key=True,
                )
            elif afv:
                self.add((*where, "passengers", pos), "no Character may ride on an AFV (C2 31.3)")
            elif who not in self.ids:
                self.add((*where, "passengers", pos), f"unknown character {who!r}")
