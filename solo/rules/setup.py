"""Set-up: a scenario turned into the initial :class:`~solo.rules.state.GameState` (base-rules §19; C2 25.0).

:func:`build_state` rolls the C2 25.0 New Character Selection Table, draws the Enemy counters
from their cups with the dummies, rolls the wind and the weather LOS, all through the game's
dice and logged; :func:`place_reinforcements` brings on a scenario's reinforcements (§18-19).
"""

from __future__ import annotations

from typing import Any

import attrs

from solo.core.dice import Dice
from solo.core.errors import ChanceError, DataError, Problem
from solo.core.hexes import Hex
from solo.core.options import Options
from solo.data.cards import DirectionString
from solo.data.characters import (
    _MAX_REROLLS,
    ROLLED_TEAMS,
    CharacterBook,
    FriendlyProfile,
    SelectionRow,
    SelectionTable,
    _book_for,
)
from solo.data.house import HouseData
from solo.data.scenario_format import (
    FRIENDLY_TEAMS,
    TEAM_NAMES,
    CharacterSpec,
    CupSpec,
    ForcedOrder,
    ReinforcementSpec,
    Scenario,
    TeamSpec,
    VehicleSpec,
    parse_forced_order,
)
from solo.data.tables import MoraleState
from solo.rules.state import CarriedWeapon, Character, GameState, Side, Team

__all__ = ["build_state", "place_reinforcements", "roll_character_selection"]

TRUCK_DRIVER_MAX = 18
"""C2 31.3: an Enemy Truck's Driver is a Character numbered 1-18."""


def roll_character_selection(dice: Dice, table: SelectionTable) -> tuple[SelectionRow, tuple[int, ...]]:
    """Roll the C2 25.0 New Character Selection Table: a d10, re-rolled while its row says so (9).

    Returns the row and every face rolled. Raises :class:`ChanceError` after
    an absurd run of re-rolls (a scripted source that only gives 9s).
    """
    faces: list[int] = []
    for _ in range(_MAX_REROLLS):
        purpose = "squad: New Character Selection Table (C2 25.0)"
        if faces:
            purpose += f", re-roll after a {faces[-1]}"
        face = dice.d10(purpose).total
        faces.append(face)
        row = table.row(face)
        if not row.reroll:
            return row, tuple(faces)
    raise ChanceError(f"{_MAX_REROLLS} re-rolls in a row on the New Character Selection Table (C2 25.0)")


def build_state(
    scenario: Scenario,
    data: HouseData,
    dice: Dice,
    game: Any = None,
    *,
    characters: CharacterBook | None = None,
) -> GameState:
    """The initial :class:`GameState` of ``scenario``: characters placed, teams formed.

    Rolled here, in this order, through ``dice`` (each with its purpose; the
    game logs them): the C2 25.0 selection table (if a team is rolled), each
    cup's draws (one :meth:`~solo.core.dice.Dice.choice` per set-up hex, in the
    order the hexes are written; then the reinforcements' cups), the wind (d6,
    if the scenario gives none; §13, §20 Q34) and the maximum LOS of heavy
    rain, mist or fog (C2 28.1). Elite teams take the SS counterparts of their
    counters (C2 24.0). ``game`` (optional) receives a ``setup`` event for each
    step. Reinforcements are in ``state.characters`` off the map (hex None) and
    in no team until :func:`place_reinforcements`; their schedule is
    ``state.flags["reinforcements"]``.
    """
    return _Builder(scenario, data, dice, game, _book_for(data, characters)).build()


class _Builder:
    def __init__(self, sc: Scenario, data: Any, dice: Dice, game: Any, book: CharacterBook) -> None:
        self.sc = sc
        self.data = data
        self.dice = dice
        self.game = game
        self.book = book
        self.characters: dict[str, Character] = {}
        self.teams: dict[str, Team] = {}
        self.flags: dict[str, Any] = {}
        self.used_ids = self._explicit_ids()
        options = getattr(game, "options", None)
        self.dummy_tq = options.dummy_tq if isinstance(options, Options) else sc.game_options().dummy_tq

    def _explicit_ids(self) -> set[str]:
        ids = {c.id for t in (*self.sc.friendly, *self.sc.enemy) for c in t.characters}
        ids.update(c.id for w in self.sc.reinforcements for c in w.characters)
        return ids

    def note(self, text: str, rule: str, **data: Any) -> None:
        if self.game is not None:
            self.game.emit("setup", text, rule=rule, data=data)

    def new_id(self, team: str) -> str:
        n = 1
        while f"{team}_{n}" in self.used_ids:
            n += 1
        cid = f"{team}_{n}"
        self.used_ids.add(cid)
        return cid

    def build(self) -> GameState:
        sc = self.sc
        row = self.roll_squad() if any(t.roll is not None for t in sc.friendly) else None
        for side, specs in ((Side.FRIENDLY, sc.friendly), (Side.ENEMY, sc.enemy)):
            for t in specs:
                self.build_team(side, t, row)
        self.flags["reinforcements"] = [self.build_wave(i, w) for i, w in enumerate(sc.reinforcements)]
        wind = sc.wind
        if wind is None:
            wind = self.dice.d6("wind: direction smoke drifts toward, at set-up (13, Q34)").total
            self.note(f"The wind blows toward direction {wind} (d6 at set-up).", "13; Q34", wind=wind)
        max_los = None
        expr = sc.weather.max_los_dice
        if expr is not None:
            max_los = self.dice.roll(expr, f"weather: maximum LOS in {sc.weather.value} (C2 28.1)").total
            self.note(
                f"{sc.weather.value.replace('_', ' ').capitalize()}: maximum LOS {max_los} hexes ({expr}).",
                "C2 28.1",
                weather=sc.weather.value,
                max_los=max_los,
            )
        vehicles = {v.id: self.build_vehicle(v) for v in sc.vehicles}
        return GameState(
            characters=self.characters,
            teams=self.teams,
            weather=sc.weather.value,
            ground=sc.ground.value,
            wind=wind,
            max_los=max_los,
            flags=self.flags,
            vehicles=vehicles,
        )

    def build_vehicle(self, spec: VehicleSpec) -> Any:
        """A vehicle, its crew drawn or named (C2 31.3), its team on the Initiative Track (31.1)."""
        from solo.rules.vehicles.state import CREW_ORDER, Ammo, Hatch, Seat, Vehicle

        vtype = self.data.vehicles.get(spec.type)
        side = Side(spec.side)
        h = Hex.parse(spec.hex)
        seats: dict[str, Seat] = {}
        afv = vtype.kind.value == "afv"
        for pos in (*vtype.crew, *vtype.passengers, *((vtype.cupola,) if vtype.cupola else ())):
            if pos.hatch:
                hatch = Hatch(spec.hatches.get(pos.id, "closed"))
            else:
                hatch = Hatch.NONE
            seats[pos.id] = Seat(pos.id, hatch=hatch)
        vehicle = Vehicle(
            id=spec.id,
            type=vtype.id,
            name=spec.name or vtype.name,
            side=side,
            hex=h,
            facing=spec.facing,
            turret=(spec.turret or spec.facing) if vtype.turret else None,
            seats=seats,
            loaded=Ammo(spec.loaded) if spec.loaded else None,
            rounds=(
                {"he": vtype.main_gun.rounds.he, "ap": vtype.main_gun.rounds.ap}
                if vtype.main_gun is not None and vtype.main_gun.rounds is not None
                else {}
            ),
            road_orders=spec.road_orders,
            destroyed=spec.wrecked,
        )
        team = Team(spec.id, side, vehicle.name)
        for role in CREW_ORDER:
            if role not in seats or spec.wrecked:  # a wreck has no crew (C2 27.9)
                continue
            given = spec.crew.get(role)
            if afv:
                if given is None:
                    pool = self.data.crews.pool(vtype.nation, role)
                    pick = self.dice.choice(
                        [c.id for c in pool], f"crew: {vehicle.name} {role} drawn at random (C2 31.3)"
                    )
                    counter = pool[pick.index]
                else:
                    counter = self.data.crews.get(given)
                ch = Character(
                    id=f"{spec.id}_{role}",
                    name=counter.name,
                    side=side,
                    team=spec.id,
                    tq=counter.tq,
                    ldr=counter.ldr,
                    weapons=tuple(CarriedWeapon(w.weapon, w.ws) for w in counter.weapons),
                    hex=h,
                    morale=counter.morale,
                    revealed=True,
                    alert=True,
                    prepared=True,
                    vehicle=spec.id,
                    seat=role,
                )
                self.characters[ch.id] = ch
            elif given is not None:
                ch = self.characters[given]
                self._leave_team(ch)
                ch.team, ch.vehicle, ch.seat, ch.hex, ch.revealed = spec.id, spec.id, role, h, True
            elif side is Side.ENEMY and vtype.kind.value == "truck" and role == "driver":
                drawn = self.truck_driver(spec.id, vehicle.name, h)
                if drawn is None:
                    continue
                ch = drawn
            else:
                continue
            seats[role].occupant = ch.id
            team.members.append(ch.id)
        for pos_id, cid in spec.passengers.items():
            ch = self.characters[cid]
            ch.vehicle, ch.seat, ch.hex = spec.id, pos_id, h
            seats[pos_id].occupant = cid
        self.teams[team.id] = team
        crew = ", ".join(
            f"{r} {self.characters[occupant].name}"
            for r in CREW_ORDER
            if r in seats and (occupant := seats[r].occupant)
        )
        self.note(
            f"{vehicle.name} ({vtype.name}) in {h} facing {spec.facing}; "
            + ("a wreck (C2 27.9)." if spec.wrecked else f"crew: {crew}."),
            "C2 31.3",
            vehicle=spec.id,
            crew={r: seats[r].occupant for r in CREW_ORDER if r in seats},
        )
        return vehicle

    def truck_driver(self, vid: str, name: str, h: Hex) -> Character | None:
        """C2 31.3: an Enemy Truck's Driver, a random Character 1-18 "from any Cup in play, or from unused
        Characters if none are available in the Cup(s)". Every cup is emptied onto its set-up or entry
        hexes when the game is built (one counter per hex, checked with the scenario), so none is
        left in a cup and the Driver is one of the counters 1-18 not in play, a logged random pick
        (the cup's dummies, returned, never change it). None (logged) when all 18 are in play."""
        rule = "C2 31.3"
        used = {c.counter for c in self.characters.values() if c.side is Side.ENEMY and c.counter}
        unused = [n for n in range(1, TRUCK_DRIVER_MAX + 1) if n not in used]
        if not unused:
            self.note(f"{name}: no Enemy Character 1-18 is left to drive it.", rule, vehicle=vid)
            return None
        pick = self.dice.choice(
            [f"counter {n}" for n in unused], f"the Driver of {name}, from the unused Characters ({rule})"
        )
        number = unused[pick.index]
        prof = self.book.counter(number, elite=self.sc.elite)
        if prof is None:
            raise DataError([Problem(self.book.source, None, f"no profile for counter {number}")])
        ch = self.make(Side.ENEMY, None, self.new_id(vid), prof, hex_=h, counter=number, elite=self.sc.elite)
        ch.revealed, ch.team, ch.alert, ch.prepared = True, vid, True, True
        ch.vehicle, ch.seat = vid, "driver"
        self.characters[ch.id] = ch
        self.note(
            f"{name}: its Driver {ch.name} (counter {number}) is drawn from the unused Characters.",
            rule,
            driver=ch.id,
        )
        return ch

    def _leave_team(self, ch: Character) -> None:
        team = self.teams.get(ch.team)
        if team is not None and ch.id in team.members:
            team.members.remove(ch.id)

    def roll_squad(self) -> SelectionRow:
        row, faces = roll_character_selection(self.dice, self.book.selection_table)
        names = "; ".join(
            f"{t.capitalize()}: " + ", ".join(self._profile(p).name for p in row.members(t))
            for t in ROLLED_TEAMS
        )
        rerolls = f" after re-rolling {', '.join(map(str, faces[:-1]))}" if len(faces) > 1 else ""
        self.note(
            f"New Character Selection Table: d10 = {row.roll}{rerolls}. {names}.",
            self.book.selection_table.rule,
            roll=row.roll,
            faces=list(faces),
            members={t: list(row.members(t)) for t in ROLLED_TEAMS},
        )
        self.flags["character_selection"] = row.roll
        return row

    def _profile(self, pid: str) -> FriendlyProfile:
        p = self.book.profile(pid)
        if p is None:  # the book was checked; only a hand-built book gets here
            raise DataError([Problem(self.book.source, None, f"unknown profile {pid!r}")])
        return p

    def build_team(self, side: Side, t: TeamSpec, row: SelectionRow | None) -> None:
        team = Team(t.id, side, t.display_name)
        self.teams[t.id] = team
        elite = self.sc.is_elite(t.id) if side is Side.ENEMY else False
        hexes = [Hex.parse(x) for x in (t.hexes or "").split()]
        k = 0

        def next_hex() -> Hex | None:
            nonlocal k
            if not hexes:
                return None
            h = hexes[k % len(hexes)]
            k += 1
            return h

        replaced: list[int] = []
        if t.roll is not None and row is not None:
            for pid in row.members(t.id):
                p = self._profile(pid)
                ch = self.make(side, t, self.new_id(t.id), p, hex_=next_hex())
                self.add(team, ch)
        for c in t.characters:
            h = Hex.parse(c.hex) if c.hex else next_hex()
            ch = self.from_spec(side, t, c, h, elite=elite)
            if ch.elite:
                replaced.append(c.counter or 0)
            self.add(team, ch)
        for j, cup in enumerate(t.cup):
            cup_hexes = [Hex.parse(x) for x in (cup.hexes or "").split()]
            what = f"cup {j + 1} of team {team.name}" if len(t.cup) > 1 else f"the cup of team {team.name}"
            drawn = self.draw_cup(t.id, what, cup, [str(h) for h in cup_hexes])
            for h, item in zip(cup_hexes, drawn, strict=False):
                ch = self.from_cup(side, t, item, h, elite=elite)
                if ch.elite:
                    replaced.append(item)
                self.add(team, ch)
        if replaced:
            shown = ", ".join(map(str, sorted(replaced)))
            self.note(
                f"Elite SS: team {team.name}'s counters {shown} are their SS counterparts.",
                "C2 24.0",
                team=t.id,
                counters=sorted(replaced),
            )

    def add(self, team: Team | None, ch: Character) -> None:
        self.characters[ch.id] = ch
        if team is not None:
            team.members.append(ch.id)

    def draw_cup(self, team: str, what: str, cup: CupSpec, spots: list[str]) -> list[int]:
        """Draw the cup's contents at random, one for each of ``spots`` (hexes) in order (base-rules §19).

        Returns the counter numbers drawn, 0 standing for a dummy; spots beyond
        the cup's size stay empty. Each draw is a logged random pick.
        """
        pool: list[int] = [*cup.counters, *([0] * cup.dummies)]
        drawn: list[int] = []
        placements: list[list[str]] = []
        for spot in spots:
            if not pool:
                break
            labels = [f"counter {n}" if n else "dummy" for n in pool]
            pick = self.dice.choice(labels, f"cup: {what}, the counter for {spot} (19)")
            drawn.append(pool.pop(pick.index))
            placements.append([spot, labels[pick.index]])
        counters = _plural(len(cup.counters), "counter")
        dummies = _plural(cup.dummies, "dummy", "dummies")
        self.note(
            f"{what[:1].upper()}{what[1:]}: {counters} and {dummies} drawn at random onto "
            f"{_plural(len(drawn), 'hex', 'hexes')}, placed Unknown.",
            "19",
            team=team,
            placements=placements,
        )
        return drawn

    def from_spec(
        self, side: Side, t: TeamSpec | None, c: CharacterSpec, h: Hex | None, *, elite: bool
    ) -> Character:
        """A character as the scenario writes him (values, profile, counter or dummy)."""
        if c.dummy:
            return self.dummy(side, t, c.id, h, revealed=c.revealed)
        if c.profile is not None:
            return self.make(side, t, c.id, self._profile(c.profile), hex_=h, spec=c)
        if c.counter is not None and c.tq is None:
            prof = self.book.counter(c.counter, elite=elite)
            if prof is None:
                raise DataError([Problem(self.book.source, None, f"no profile for counter {c.counter}")])
            return self.make(side, t, c.id, prof, hex_=h, spec=c, counter=c.counter, elite=elite)
        return self.make(side, t, c.id, c, hex_=h, spec=c, counter=c.counter)

    def from_cup(self, side: Side, t: TeamSpec | None, item: int, h: Hex | None, *, elite: bool) -> Character:
        team_id = t.id if t is not None else ""
        cid = self.new_id(team_id)
        if item == 0:
            return self.dummy(side, t, cid, h, revealed=False)
        prof = self.book.counter(item, elite=elite)
        if prof is None:
            raise DataError([Problem(self.book.source, None, f"no profile for counter {item}")])
        ch = self.make(side, t, cid, prof, hex_=h, counter=item, elite=elite)
        ch.revealed = False  # drawn from a cup: Unknown (19)
        return ch

    def dummy(
        self, side: Side, t: TeamSpec | None, cid: str, h: Hex | None, *, revealed: bool | None
    ) -> Character:
        return Character(
            id=cid,
            name="Dummy",
            side=side,
            team=t.id if t is not None else "",
            tq=self.dummy_tq,
            ldr=0,
            weapons=(),
            hex=h,
            revealed=bool(revealed),
            alert=t.alert if t is not None else False,
            prepared=t.prepared if t is not None else True,
            dummy=True,
            morale=(t.morale if t is not None and t.morale is not None else MoraleState.NORMAL),
        )

    def make(
        self,
        side: Side,
        t: TeamSpec | None,
        cid: str,
        prof: Any,
        *,
        hex_: Hex | None,
        spec: CharacterSpec | None = None,
        counter: int | None = None,
        elite: bool = False,
    ) -> Character:
        """A character with ``prof``'s values; ``spec`` (if any) gives hex-independent choices."""
        morale = spec.morale if spec is not None else None
        if morale is None and t is not None:
            morale = t.morale
        revealed = spec.revealed if spec is not None else None
        if revealed is None and t is not None:
            revealed = t.revealed
        enemy = side is Side.ENEMY
        return Character(
            id=cid,
            name=prof.name,
            side=side,
            team=t.id if t is not None else "",
            tq=prof.tq,
            ldr=prof.ldr,
            weapons=tuple(CarriedWeapon(w.weapon, w.ws) for w in prof.weapons),
            skills=tuple(s.value for s in prof.skills),
            hex=hex_,
            morale=morale if morale is not None else MoraleState.NORMAL,
            revealed=bool(revealed),
            alert=(t.alert if t is not None else False) if enemy else True,
            prepared=(t.prepared if t is not None else True) if enemy else True,
            mg_role=prof.mg_role.value if prof.mg_role is not None else None,
            trained_medic=prof.trained_medic,
            elite=elite,
            counter=counter,
        )

    def build_wave(self, i: int, w: ReinforcementSpec) -> dict[str, Any]:
        """Off-map characters of a reinforcement wave, and its schedule entry (JSON-able)."""
        side = Side.FRIENDLY if w.team in FRIENDLY_TEAMS else Side.ENEMY
        spec = self.sc.team_spec(w.team)
        if w.team not in self.teams:
            self.teams[w.team] = Team(w.team, side, w.name or TEAM_NAMES.get(w.team, w.team.capitalize()))
        elite = w.elite if w.elite is not None else self.sc.is_elite(w.team)
        t = (
            attrs.evolve(spec, alert=True, prepared=True)
            if spec is not None
            else TeamSpec(w.team, alert=True)
        )
        ids: list[str] = []
        for c in w.characters:
            ch = self.from_spec(side, t, c, None, elite=elite and side is Side.ENEMY)
            ch.hex = None
            self.add(None, ch)
            ids.append(ch.id)
        entries = w.hexes.split()
        if w.cup is not None:
            team_name = self.teams[w.team].name
            spots = [entries[(len(ids) + k) % len(entries)] for k in range(w.cup.size)]
            what = f"the reinforcements of team {team_name} " + (
                f"on turn {w.turn}" if w.turn is not None else "called by an event"
            )
            for item in self.draw_cup(w.team, what, w.cup, spots):
                ch = self.from_cup(side, t, item, None, elite=elite)
                self.add(None, ch)
                ids.append(ch.id)
        replaced = sorted(self.characters[c].counter or 0 for c in ids if self.characters[c].elite)
        if replaced:
            self.note(
                f"Elite SS: counter(s) {', '.join(map(str, replaced))} of team {self.teams[w.team].name}'s "
                f"reinforcements {'on turn ' + str(w.turn) if w.turn is not None else 'called by an event'} "
                "are their SS counterparts.",
                "C2 24.0",
                team=w.team,
                counters=replaced,
            )
        hexes = [entries[k % len(entries)] for k in range(len(ids))]
        for k, c in enumerate(w.characters):  # a reinforcement's own hex overrides the entry hexes
            if c.hex:
                hexes[k] = c.hex
        forced = parse_forced_order(w.order, self.data.orders) if w.order else None
        return {
            "wave": i,
            "turn": w.turn,
            "event": w.event,
            "team": w.team,
            "characters": ids,
            "hexes": hexes,
            "order": forced.order if forced else None,
            "directions": str(forced.directions) if forced and forced.directions else None,
            "placed": False,
        }


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _entries_burning(game: Any, wave: dict[str, Any]) -> bool:
    """C2 29.2: nobody enters a burning hex. [house] A due wave's man whose entry hex burns takes
    the wave's first entry hex (scenario order) that does not burn; if every one burns, the whole
    wave waits a turn (logged). Rewrites ``wave["hexes"]``; True if the wave waits."""
    fire = game.state.markers.fire
    hexes = [Hex.parse(x) for x in wave["hexes"]]
    if not any(h in fire for h in hexes):
        return False
    specs = game.scenario.reinforcements
    spec = specs[wave["wave"]] if wave["wave"] < len(specs) else None
    entries = [Hex.parse(t) for t in ((spec.hexes or "").split() if spec is not None else [])]
    free = [h for h in dict.fromkeys([*entries, *hexes]) if h not in fire]
    team = game.state.teams[wave["team"]].name
    if not free:
        wave["turn"] += 1
        game.emit(
            "reinforcements",
            f"Reinforcements for team {team}: every entry hex burns; they wait until turn {wave['turn']}.",
            rule="C2 29.2 [house]",
            data={"wave": wave["wave"], "hexes": list(wave["hexes"]), "turn": wave["turn"]},
        )
        return True
    moved = [str(free[0]) if h in fire else str(h) for h in hexes]
    game.emit(
        "reinforcements",
        f"Reinforcements for team {team}: "
        + ", ".join(sorted({str(h) for h in hexes if h in fire}))
        + f" burns; they enter by {free[0]} instead.",
        rule="C2 29.2 [house]",
        data={"wave": wave["wave"], "from": list(wave["hexes"]), "hexes": moved},
    )
    wave["hexes"] = moved
    return False


def place_reinforcements(game: Any) -> list[Character]:
    """Step 3 a): place the reinforcements due this turn (base-rules §1, §5.7).

    Each due wave's characters go to their entry hexes, join their team (in
    roster order), enter Alert and Prepared, and take the wave's forced order if
    it has one (e.g. Evade along "5/6", read through the Direction Counter). A
    ``reinforcements`` event names who came where. Returns the characters placed.
    """
    st = game.state
    placed: list[Character] = []
    for wave in st.flags.get("reinforcements", ()):
        if wave["placed"] or wave["turn"] != st.flow.turn:
            continue
        if _entries_burning(game, wave):
            continue
        wave["placed"] = True
        team = st.teams[wave["team"]]
        forced = None
        if wave["order"]:
            dirs = DirectionString.parse(wave["directions"]) if wave["directions"] else None
            forced = ForcedOrder(wave["order"], dirs)
        arrived: list[Character] = []
        for cid, hx in zip(wave["characters"], wave["hexes"], strict=True):
            ch = st.characters[cid]
            ch.hex = Hex.parse(hx)
            ch.alert = True
            ch.prepared = True
            if cid not in team.members:
                team.members.append(cid)
            if forced is not None:
                game.set_order(
                    ch, forced.order, directions=forced.directions, source="reinforcement (scenario)"
                )
            arrived.append(ch)
        label = ""
        if forced is not None:
            label = game.data.orders.get(forced.order).name
            label += f" {forced.directions}" if forced.directions else ""
        shown = ", ".join(
            f"{'an Unknown counter' if ch.side is Side.ENEMY and not ch.revealed else ch.name} at {ch.hex}"
            for ch in arrived
        )
        game.emit(
            "reinforcements",
            f"Reinforcements for team {team.name} arrive: {shown}" + (f", on {label}." if label else "."),
            rule="5.7; 1 Step 3 a)",
            data={
                "wave": wave["wave"],
                "characters": list(wave["characters"]),
                "hexes": list(wave["hexes"]),
                "order": str(forced) if forced else None,
            },
        )
        placed.extend(arrived)
    return placed
