"""What the rules see of a game (:class:`GameContext`) and what they ask the Enemy (:class:`EnemyHooks`).

The engine's :class:`~solo.engine.game.Game` extends :class:`GameContext` with the sequence of
play. Rules never import the engine: they take a :class:`GameContext`, yield
:class:`~solo.core.decisions.Decision` objects built by :meth:`GameContext.decision` when the
Friendly player must choose, and ask ``game.enemy`` when the Enemy must decide.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from solo.core.decisions import Decision, DecisionKind
from solo.core.decks import Deck
from solo.core.dice import Dice
from solo.core.events import Event
from solo.core.hexes import Hex, distance
from solo.core.options import Options
from solo.data.house import HouseData
from solo.data.maps import Board
from solo.data.orders import Order
from solo.rules.los import LineOfSight, Sight
from solo.rules.state import Character, GameState, GivenOrder, Status
from solo.rules.visibility import KeptSight

if TYPE_CHECKING:
    from solo.rules.vehicles.state import Vehicle


class EnemyHooks(Protocol):
    """The Enemy's decisions a rule needs in the middle of its procedure (filled from :mod:`solo.enemy`).

    Each takes the game first and returns what the Enemy does; each emits its own explaining event.
    """

    def alert(self, game: GameContext, ch: Character, reason: str, rule: str) -> GivenOrder | None:
        """A Waiting Enemy becomes Alert (base-rules §5.6); a Prepared one takes his order at once."""

    def unprepared_activation(self, game: GameContext, ch: Character) -> bool:
        """An Unprepared Enemy alerted earlier draws now and does nothing more (§5.6): True if so."""

    def assign_on_activation(self, game: GameContext, ch: Character) -> GivenOrder | None:
        """C2 23.5: the order of an Alert Enemy without one, drawn now."""

    def duck_back_on_entering(self, game: GameContext, ch: Character) -> bool:
        """Whether a moving Enemy ducks back on entering his new hex (9.4)."""

    def choose_enemy_fire(self, game: GameContext, ch: Character) -> tuple[Character, str] | None:
        """The Friendly an Enemy fires at and the weapon [house] (13.0; C2 23.2, 30.1), or None."""

    def sniper_aims(self, game: GameContext, ch: Character) -> bool:
        """C2 24.1: an Enemy Sniper holds his Impulse 2 shot for Impulse 4."""

    def place_enemy_marker(self, game: GameContext, ch: Character) -> None:
        """Place or move an Enemy crewman's Target Marker (C2 31.7.3-31.7.4)."""

    def commander_turret_target(self, game: GameContext, vehicle: Vehicle) -> Hex | None:
        """The hex the turret turns toward for the Commander's marker (C2 31.6, 31.7.4)."""

    def enemy_emergency_stop(self, game: GameContext, driver: Character) -> bool:
        """C2 31.2 (1): the Enemy Driver's Emergency Stop."""

    def smoke_discharger_hex(self, game: GameContext, vehicle: Vehicle) -> Hex | None:
        """The hex for a vehicle's smoke dischargers (C2 31.11.2)."""


class GameContext:
    """What the rules see of one game: scenario, data, options, dice, board, LOS, state and events.

    The engine's :class:`~solo.engine.game.Game` is one; rule modules take it as their first
    argument and use only: ``state``, ``data``, ``board``, ``los``, ``dice``, ``options``,
    ``scenario``, ``enemy``, the decks and the helpers below (:meth:`emit`, :meth:`sight`,
    :meth:`in_cover`, :meth:`decision`...).
    """

    enemy: EnemyHooks
    """The Enemy's decisions the rules ask for (set by the engine before the state is built)."""

    def __init__(
        self,
        scenario: Any,
        data: HouseData,
        *,
        dice: Dice,
        options: Options | None = None,
        record_rolls: bool = True,
        keep_events: bool = True,
    ) -> None:
        from solo.rules.setup import build_state

        self.scenario = scenario
        self.data = data
        self.options = options if options is not None else scenario.game_options()
        self.dice = dice
        self.board = Board.for_map(scenario.map_of(data.maps), data.terrain)
        self.los = LineOfSight(
            self.board, month=scenario.month, hexside_vertex=self.options.hexside_vertex_los
        )
        self._low_orders = frozenset(o.id for o in data.orders if o.low)
        self._order_defs: dict[str, Order] = {o.id: o for o in data.orders}
        self._plain_orders: dict[tuple[str, str], GivenOrder] = {}
        """One :class:`GivenOrder` per (order, source) with no directions or target (:meth:`set_order`)."""
        self._kept_sight = KeptSight()
        """Who can see whom, kept between activations (:meth:`opponents_in_sight`)."""
        self.events: list[Event] = []
        self.inputs: list[dict[str, Any]] = []
        self._keep_events = keep_events
        self._seq = 0
        self.listeners: list[Callable[[Event], None]] = []
        self.memo: dict[str, Any] = {}
        """Values a rule module derives from ``data`` alone, built once a game (no state in them)."""
        if record_rolls:
            dice.listener = self._on_roll
        self.friendly_deck = Deck("friendly", [c.id for c in data.friendly_deck.cards])
        self.enemy_deck = Deck("enemy", [c.id for c in data.enemy_deck.cards])
        self.state: GameState = build_state(scenario, data, dice, self)

    # -- events ------------------------------------------------------------

    @property
    def narrates(self) -> bool:
        """Whether events get their text: True when the game keeps its events (a log, the window).

        A batch game (``keep_events=False``) skips the text of the events emitted with a
        callable text (see :meth:`emit`); its listeners read kinds and data.
        """
        return self._keep_events

    def mark(self) -> int:
        """Where an action's own event goes in the log: the ``seq`` the next event will take.

        An action whose event sums up dice rolled and effects applied along the way (a fire,
        base-rules §10) takes a mark before its first roll and passes it to :meth:`emit` as
        ``at``: the log then narrates the cause (the action and its dice) before its effects
        (hit, wound draw, Duck Back, morale check), though the event is built last. Only the
        order of the narration changes, never a roll or a choice.
        """
        return self._seq

    def emit(
        self,
        kind: str,
        text: str | Callable[[], str],
        *,
        rule: str = "",
        actor: str | None = None,
        data: dict[str, Any] | Callable[[], dict[str, Any]] | None = None,
        automatic: bool = True,
        at: int | None = None,
    ) -> Event | None:
        """Record an event (and hand it to the listeners); returns it, or None when it is not built.

        ``text``: the words, or a callable building them, called at once when the game
        :attr:`narrates` and never otherwise (the event's text is then ``""``).
        ``data``: the event's data, or a callable building it, called at once when the event is
        built (the same dict, so listeners and kept logs read the same data) and never otherwise.
        A game that keeps no events builds one only for its listeners: a listener with a
        ``kinds`` attribute (a collection of kinds) is handed only those; when no listener
        wants ``kind``, the event takes its number (``seq``) and nothing is built.
        ``at``: a :meth:`mark` taken earlier; the event takes that ``seq`` and its place in the
        log, and the events logged since the mark move one place on (their ``seq`` with them).
        Listeners hear every event once, when it is emitted (the order things were worked out
        in): they hear this one after the events it went in front of, which they heard with
        their ``seq`` of then. Read :attr:`events` for the order of the narration.
        """
        if not self._keep_events:
            for listener in self.listeners:
                kinds = getattr(listener, "kinds", None)
                if kinds is None or kind in kinds:
                    break
            else:
                self._seq += 1
                return None
            text = text if isinstance(text, str) else ""
        elif not isinstance(text, str):
            text = text()
        if callable(data):
            data = data()
        flow = self.state.flow if hasattr(self, "state") else None
        ev = Event(
            seq=self._seq if at is None else min(at, self._seq),
            kind=kind,
            turn=flow.turn if flow else 0,
            impulse=flow.impulse if flow else 0,
            text=text,
            rule=rule,
            actor=actor,
            data=data or {},
            automatic=automatic,
        )
        self._seq += 1
        if self._keep_events:
            if ev.seq == len(self.events):
                self.events.append(ev)
            else:
                self._insert(ev)
        for listener in self.listeners:
            kinds = getattr(listener, "kinds", None)
            if kinds is None or kind in kinds:
                listener(ev)
        return ev

    def _insert(self, ev: Event) -> None:
        """Put ``ev`` in the log at its ``seq``; the events from there on move one place on."""
        events = self.events
        at = ev.seq
        events[at:] = [ev, *(attrs.evolve(e, seq=e.seq + 1) for e in events[at:])]

    def _on_roll(self, record: Any) -> None:
        from solo.core.chance_records import record_to_dict

        d = record_to_dict(record)
        purpose = d.get("purpose", "")
        if "total" in d:
            text = f"{d['kind']} → {d['total']} ({purpose})"
        elif "card" in d:
            text = f"draw {d['card']} from {d['deck']} ({purpose})"
        elif "index" in d:
            text = f"random pick {d['index'] + 1} of {d['size']} ({purpose})"
        else:
            text = f"shuffle {d.get('deck', '')} ({purpose})"
        self.emit("roll", text, data=d)

    # -- helpers for rule modules -----------------------------------------

    def char(self, cid: str) -> Character:
        """The character with id ``cid``."""
        return self.state.characters[cid]

    def order_def(self, ch: Character) -> Order | None:
        """The definition of ``ch``'s current order, or None."""
        given = ch.order
        if given is None:
            return None
        found = self._order_defs.get(given.order)
        return found if found is not None else self.data.orders.get(given.order)  # KeyError: unknown

    def is_low(self, ch: Character) -> bool:
        """Whether ``ch`` has a low order (Sneak, Hide, Reload, Rally: C2 27.8, base-rules §4)."""
        return ch.order is not None and ch.order.order in self._low_orders

    def distance(self, a: Hex, b: Hex) -> int:
        """Hexes from ``a`` to ``b`` on this map."""
        return distance(a, b, self.board.map.stagger)

    def change_terrain(self, h: Hex, terrain_id: str) -> None:
        """Change the terrain of ``h`` for this game only (a Building hit becomes Rubble, base-rules
        §14): kept in ``state.terrain_changes``; :attr:`board` and :attr:`los` become the map's board
        with the game's changes (:meth:`~solo.data.maps.Board.with_terrain`), keeping the smoke and
        fire markers. The map's own board is not touched (its shared LOS answers only gain lines that
        pass no changed hex: the same answers).
        Raises :class:`~solo.core.errors.GeometryError` for a hex off the map, KeyError for an
        unknown terrain id (the state is then unchanged)."""
        changes = {**self.state.terrain_changes, h: terrain_id}
        board = self.board.with_terrain(changes)
        self.state.terrain_changes = changes
        self.board = board
        self.los = self.los.on_board(board)

    def night_range(self) -> int | None:
        """The night LOS limit (§15) or None by day."""
        return self.options.night_los if self.scenario.night else None

    def sight(self, viewer: Character, target_hex: Hex, *, target: Character | None = None) -> Sight:
        """LOS from ``viewer`` to ``target_hex`` with weather, night, smoke and low orders."""
        state = self.state
        lights = state.markers.illuminated
        lit = bool(lights) and any(
            self.distance(h, x) <= 3 for h in lights for x in (viewer.on_hex, target_hex)
        )
        low = self._low_orders
        vo = viewer.order
        to = target.order if target is not None else None
        low_a = vo is not None and vo.order in low
        low_b = to is not None and to.order in low
        viewer_tq = viewer.tq if not viewer.wounds else viewer.effective_tq
        night = self.options.night_los if self.scenario.night else None
        los = self.los
        index = los.board.index
        try:  # the hot path: LineOfSight.check by indices, without its keyword call
            ia, ib = index[viewer.on_hex], index[target_hex]
        except KeyError:
            return los.check(
                viewer.on_hex,
                target_hex,
                low_a=low_a,
                low_b=low_b,
                viewer_tq=viewer_tq,
                max_range=state.max_los,
                night_range=night,
                illuminated=lit,
            )
        return los.check_index(ia, ib, low_a, low_b, viewer_tq, state.max_los, night, lit)

    def clear_sights(
        self, viewer: Character, targets: Iterable[Character]
    ) -> Iterator[tuple[Character, Sight]]:
        """``(target, sight)`` for each of ``targets`` still to be spotted that ``viewer`` sees now.

        The spotting scan (base-rules §9 step 6): in the order of ``targets``, each one that is
        active, on the map and not Spotted/Known (read when his turn in the scan comes) with a
        clear :meth:`sight` from ``viewer``. The scan stops when ``viewer`` is no longer active
        on the map (a dummy removed after spotting, §3). The caller may spot between two answers:
        the viewer's part (hex, order, wounds, the illuminated hexes) is read again after each
        one, so every answer is the one :meth:`sight` gives at that moment. The hot path: one
        Python call a target (the LOS's own :meth:`~solo.rules.los.LineOfSight.from_viewer`).
        """
        active = Status.ACTIVE  # Character.is_active, inlined: the hot loop
        index = self.los.board.index
        low = self._low_orders
        one = self._viewer_line(viewer)
        for t in targets:
            if viewer.status is not active or viewer.hex is None:
                return
            th = t.hex
            if t.revealed or th is None or t.status is not active:
                continue
            ib = index.get(th) if one is not None else None
            if ib is None or one is None:
                sight = self.sight(viewer, th, target=t)  # lit, or off the map (raises as sight does)
            else:
                to = t.order
                sight = one(ib, to is not None and to.order in low)
            if sight.clear:
                yield t, sight
                index = self.los.board.index  # read again after the caller's spot, as sight does
                one = self._viewer_line(viewer)

    def opponents_in_sight(self, viewer: Character) -> Iterator[tuple[Character, Sight]]:
        """:meth:`clear_sights` of ``viewer`` over every opponent in roster order (base-rules §9
        step 6): the same answers, with the frequent "none" read from the kept masks of
        :class:`~solo.rules.visibility.KeptSight` without a LOS look-up a target."""
        targets = self.state.roster(viewer.side.other)
        if self.state.markers.illuminated:  # §15: lit hexes see past the night limit; the scan decides
            return self.clear_sights(viewer, targets)
        night = self.options.night_los if self.scenario.night else None
        if self._kept_sight.none_in_sight(
            viewer, targets, self.los, self._low_orders, self.state.max_los, night, self._viewer_line
        ):
            return iter(())
        return self.clear_sights(viewer, targets)

    def _viewer_line(self, viewer: Character) -> Callable[[int, bool], Sight] | None:
        """The viewer's part of :meth:`sight`: ``(target index, target low) -> Sight``, exact when
        clear (a blocked answer may name another rule: the scan reads only ``.clear``); None when a
        hex is illuminated (§15) or the viewer is off the map (the full :meth:`sight` then)."""
        state = self.state
        ia = self.los.board.index.get(viewer.hex) if viewer.hex is not None else None
        if state.markers.illuminated or ia is None:
            return None
        vo = viewer.order
        low_a = vo is not None and vo.order in self._low_orders
        viewer_tq = viewer.tq if not viewer.wounds else viewer.effective_tq
        night = self.options.night_los if self.scenario.night else None
        return self.los.from_viewer(ia, low_a, viewer_tq, state.max_los, night, clear_only=True)

    def sees(self, viewer: Character, target: Character) -> bool:
        """Whether ``viewer`` has LOS to ``target`` now."""
        if viewer.hex is None or target.hex is None:
            return False
        return self.sight(viewer, target.hex, target=target).clear

    def in_cover(self, ch: Character) -> bool:
        """Cover (True) or Open for ``ch``'s hex (base-rules §5.4; smoke makes Cover)."""
        h = ch.on_hex
        return self.board.is_cover(h) or bool(self.state.markers.smoke.get(h))

    def opponents(self, ch: Character) -> list[Character]:
        """Active, on-map characters of the other side."""
        return self.state.active(ch.side.other)

    def set_order(
        self,
        ch: Character,
        order: str,
        *,
        directions: Any = None,
        target: str | None = None,
        source: str = "",
    ) -> None:
        """Give ``ch`` an order (replacing any).

        A plain order (no directions, no target) is one :class:`GivenOrder` per (order, source) a
        game, built once: a given order is a frozen value compared by value (saves, logs and
        equality see no difference), and an attrs frozen instance costs ~4,600 instructions to build.
        """
        if directions is None and target is None:
            ch.order = self.plain_order(order, source)
        else:
            ch.order = GivenOrder(order, directions, target, source)

    def plain_order(self, order: str, source: str) -> GivenOrder:
        """The :class:`GivenOrder` ``order`` with no directions or target, from ``source``: the one
        kept for (order, source) this game (see :meth:`set_order`)."""
        given = self._plain_orders.get((order, source))
        if given is None:
            given = self._plain_orders[(order, source)] = GivenOrder(order, None, None, source)
        return given

    def draw_friendly(self, purpose: str) -> str:
        """Draw a Friendly card, reshuffling discards when the deck is empty (base-rules §18)."""
        return self.friendly_deck.draw_card(self.dice, f"Friendly deck: {purpose}")

    # -- decisions ---------------------------------------------------------

    def decision(
        self, kind: DecisionKind, prompt: str, options: Iterable[tuple[str, str]], *, actor: str | None = None
    ) -> Decision:
        """A :class:`Decision` for the Friendly player, stamped with the turn and Impulse.

        ``options`` are ``(key, label)`` pairs, at least one (an empty list is an engine bug:
        raises RuntimeError).
        """
        pairs = tuple(options)  # kept as given: Decision.options wraps them in Option objects when asked
        if not pairs:
            raise RuntimeError(f"engine bug: decision {kind.value} ({prompt}) has no legal option")
        flow = self.state.flow
        return Decision(kind, prompt, pairs, actor, flow.turn, flow.impulse)
