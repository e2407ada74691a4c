"""The game engine: the sequence of play as a resumable state machine (base-rules §1).

:class:`Game` advances on its own and stops only where the Friendly player
must choose. Each stop is a :class:`Decision` with its legal options (keys);
:meth:`Game.apply` takes one of them, or raises
:class:`~solo.core.errors.IllegalChoiceError` and changes nothing. The same API
drives the window, the bots, the tests and replay.

Inside, the sequence of play is one generator (:meth:`Game._play`) that yields
a :class:`Decision` whenever it needs the player; rule procedures that may need
a choice are generators too and are entered with ``yield from``. The game
never needs to be serialised mid-generator: the log (header + the player's
inputs) is the save, and replaying the inputs with the same seed reproduces
every derived event exactly (DESIGN.md).

Rule modules take the game as their first argument, as a
:class:`~solo.rules.context.GameContext` (the part of :class:`Game` they may use); the Enemy's
decisions reach them as ``game.enemy`` (:class:`~solo.enemy.hooks.Enemy`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from solo.core.decisions import Decision, DecisionKind, Option
from solo.core.dice import Dice
from solo.core.errors import IllegalChoiceError, MalformedChoiceError
from solo.core.options import Options
from solo.data.cards import DirectionString
from solo.data.house import HouseData
from solo.data.orders import Order, TrackStep
from solo.enemy import alerting, order_phase, vom_orders
from solo.enemy.hooks import Enemy
from solo.rules import (
    artillery,
    card_effects,
    direction_numbers,
    end_phase,
    event_cards,
    fire_action,
    friendly_orders,
    grenades,
    melee,
    movement,
    orders,
    spotting,
    terrain_fire,
    victory,
    weather,
)
from solo.rules.context import GameContext
from solo.rules.state import Character, Phase, Side, Status
from solo.rules.vehicles import crew, crew_orders, hazards, light_at, markers, mount_up

__all__ = ["FRIENDLY_TEAMS", "HAND_LIMIT", "Decision", "DecisionKind", "Game", "Option", "Policy"]

FRIENDLY_TEAMS = ("able", "baker", "charlie", "com")
"""Friendly teams in their same-side tie order (base-rules §2)."""
HAND_LIMIT = 5
"""Friendly hand size after Step 1 c) (base-rules §18)."""


Policy = Callable[["Game", Decision], str]
"""A Friendly-side player: given the game and a decision, returns one of its keys."""


def _given_text(
    ch: Character, order: Order, directions: DirectionString | None, target: str | None
) -> Callable[[], str]:
    """The words of a ``friendly_order`` event, built when the log asks for them (7.0)."""
    return lambda: (
        f"{ch.name} is given {order.name}"
        + (f" {directions}" if directions else "")
        + (f" at {target}" if target else "")
        + "."
    )


def _given_data(
    key: str, directions: DirectionString | None, target: str | None
) -> Callable[[], dict[str, Any]]:
    """The data of a ``friendly_order`` event, built when the log asks for it (7.0)."""
    return lambda: {"order": key, "directions": str(directions or ""), "target": target}


class Game(GameContext):
    """One game of a scenario: state, dice, events and the sequence of play.

    ``Game(scenario, data, dice=Dice(seed))``; then read :attr:`pending` and
    call :meth:`apply` until :attr:`over`, or :meth:`play` with a policy.
    """

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
        self.enemy = Enemy()
        super().__init__(
            scenario, data, dice=dice, options=options, record_rolls=record_rolls, keep_events=keep_events
        )
        self.pending: Decision | None = None
        self._alive: list[Character | None] = [None, None]
        """A Friendly and an Enemy character last seen active on the map, not dummies (:meth:`_check_end`)."""
        self._gen: Generator[Decision, str, None] = self._play()
        self._advance(None)

    # -- the public API ----------------------------------------------------

    @property
    def over(self) -> bool:
        """True when the game has ended (last turn played or a side has no one left)."""
        return self.state.over

    def legal(self) -> tuple[str, ...]:
        """The keys the pending decision accepts (empty when the game is over)."""
        return self.pending.keys if self.pending is not None else ()

    def apply(self, key: str) -> None:
        """Answer the pending decision with ``key``.

        Raises :class:`MalformedChoiceError` for a non-string,
        :class:`IllegalChoiceError` (naming the decision and its options) for a
        key not among the options or when nothing is pending. Either way the
        game is unchanged.
        """
        d = self.pending
        if not isinstance(key, str):
            raise MalformedChoiceError(f"a choice is an option key (a string), got {key!r}")
        if d is None:
            raise IllegalChoiceError("no decision is pending (the game is over)")
        if key not in d.keys:
            shown = ", ".join(d.keys[:20]) + (" ..." if len(d.keys) > 20 else "")
            raise IllegalChoiceError(
                f"{key!r} is not a legal answer to {d.kind.value} ({d.prompt}); legal: {shown}"
            )
        kind = d.kind.value
        self.inputs.append({"decision": kind, "actor": d.actor, "choice": key})
        self.emit(
            "choice",
            lambda: f"{d.prompt}: {next(label for k, label in d.pairs if k == key)}",
            actor=d.actor,
            data={"decision": kind, "choice": key},
            automatic=False,
        )
        self._advance(key)

    def play(self, policy: Policy, *, max_decisions: int = 1_000_000) -> None:
        """Answer every decision with ``policy`` until the game is over."""
        n = 0
        while self.pending is not None:
            self.apply(policy(self, self.pending))
            n += 1
            if n > max_decisions:
                raise RuntimeError("too many decisions: the policy or the engine loops")

    def _advance(self, key: str | None) -> None:
        try:
            self.pending = self._gen.send(key) if key is not None else next(self._gen)
        except StopIteration:
            self.pending = None

    # -- the sequence of play (base-rules §1) ------------------------------

    def _play(self) -> Generator[Decision, str, None]:
        st = self.state
        self.emit("setup", f"Scenario {self.scenario.name} on map {self.board.map.name}.", rule="19")
        yield from self._setup()
        while not st.over:
            st.flow.turn += 1
            self.emit("turn", f"Turn {st.flow.turn} begins.", rule="4.0")
            if st.vehicles:
                hazards.note_turn_start(self)  # C2 31.10.7: who starts the turn in an AFV's hex
            if self.scenario.barrages:
                artillery.scenario_barrages(self)  # §14 special rules: timed barrages
            yield from self._friendly_card_phase()
            yield from self._friendly_order_phase()
            self._enemy_card_and_order_phase()
            swap = card_effects.initiative_swap_options(self)
            if swap:
                key = yield self.decision(DecisionKind.INITIATIVE_SWAP, "Swap initiatives", swap)
                card_effects.apply_initiative_swap(self, key)
            self._arrange_track()
            st.flow.phase = Phase.ACTION
            for impulse in (1, 2, 3, 4):
                st.flow.impulse = impulse
                self.emit("impulse", f"Impulse {impulse}.", rule="4.0 step 4")
                spotting.record_known_at_impulse_start(self)
                if st.vehicles:
                    crew.impulse_start(self)
                spotting.impulse_start(self)
                active = Status.ACTIVE
                for team_id in list(st.flow.track):
                    st.flow.active_team = team_id
                    team = st.teams[team_id]
                    if team.side is Side.ENEMY and self.options.optional_enemy_activation:
                        # C2 23.5: orders are drawn when the team activates (crews: the VOM, 31.1).
                        assign = (
                            vom_orders.assign_on_activation
                            if team.id in st.vehicles
                            else alerting.assign_on_activation
                        )
                        for cid in list(team.members):
                            ch = st.characters[cid]
                            if ch.status is active and ch.alert and ch.order is None and ch.hex is not None:
                                assign(self, ch)
                    for cid in list(team.members):
                        ch = st.characters[cid]
                        if ch.status is not active or ch.hex is None:  # Character.is_active, inlined
                            continue
                        st.flow.active_character = cid
                        yield from self._activate(ch)
                        if self._check_end():
                            break
                    st.flow.active_character = None
                    if st.over:
                        break
                st.flow.active_team = None
                movement.end_of_impulse(self)
                if st.over:
                    break
            st.flow.impulse = 0
            if not st.over:
                self._end_phase()
        st.flow.phase = Phase.OVER
        self._final_result()

    def _setup(self) -> Generator[Decision, str, None]:
        st = self.state
        weather.setup_weather(self)
        if self.scenario.fires:
            terrain_fire.scenario_fires(self)  # C2 29.0: the scenario's fires burn from the start
        self.friendly_deck.shuffle(self.dice, "Friendly deck: shuffle at set-up")
        self.enemy_deck.shuffle(self.dice, "Enemy Order deck: shuffle at set-up")
        for _ in range(self.scenario.hand):
            st.cards.hand.append(self.draw_friendly("starting hand"))
        return
        yield  # pragma: no cover - makes this a generator

    # Step 1
    def _friendly_card_phase(self) -> Generator[Decision, str, None]:
        st = self.state
        st.flow.phase = Phase.FRIENDLY_CARD
        cards = st.cards
        if not cards.hand:
            cards.hand.append(self.draw_friendly("empty hand (5.0 a)"))
        if cards.plan:
            cards.hand.extend(cards.plan)
            self.emit("plan", f"Cards from Plan taken into hand: {', '.join(cards.plan)}.", rule="7.12")
            cards.plan.clear()
        while len(cards.hand) > HAND_LIMIT:
            key = yield self.decision(
                DecisionKind.DISCARD,
                f"Discard down to {HAND_LIMIT} cards",
                [(c, self._card_label(c)) for c in cards.hand],
            )
            cards.hand.remove(key)
            self.friendly_deck.discard(key)
        key = yield self.decision(
            DecisionKind.PLAY_CARD,
            "Play a card to the Initiative Track",
            [(c, self._card_label(c)) for c in cards.hand],
        )
        cards.hand.remove(key)
        yield from self._play_friendly_card(key)

    def _card_label(self, card_id: str) -> str:
        c = self.data.friendly_deck.card(card_id)
        if c.initiatives is None:
            return f"{c.id} {c.title} (Event)"
        i = c.initiatives
        return f"{c.id} {c.title} [{c.kind.value}] A{i.able:02d} B{i.baker:02d} C{i.charlie:02d}"

    def _play_friendly_card(self, key: str) -> Generator[Decision, str, None]:
        st = self.state
        card = self.data.friendly_deck.card(key)
        while card.initiatives is None:  # an Event card (5.0 e)
            self.emit("event_card", f"Event card {card.title} played.", rule="5.0 e), 18")
            event_cards.resolve_event_card(self, card)
            self.friendly_deck.discard(card.id)
            card = self.data.friendly_deck.card(self.draw_friendly("replacement for an Event card (5.0 e)"))
            self.friendly_deck.shuffle_all(self.dice, "deck and discards after an Event (5.0 e)")
        st.cards.played = card.id
        i = card.initiatives
        for team, value in (("able", i.able), ("baker", i.baker), ("charlie", i.charlie)):
            if team in st.teams:
                st.teams[team].initiative = value
        self.emit(
            "card_played",
            f"Card {card.id} {card.title} played: Able {i.able}, Baker {i.baker}, Charlie {i.charlie}.",
            rule="5.0 d)",
            data={"card": card.id},
        )
        if "com" in st.teams:  # C2 25.0: the Command team's initiative from a new card's Able value
            com = self.draw_friendly("Command initiative (C2 25.0)")
            c = self.data.friendly_deck.card(com)
            shuffle = False
            while c.initiatives is None:
                self.friendly_deck.discard(com)
                com = self.draw_friendly("Command initiative, redraw after an Event (C2 25.0)")
                c = self.data.friendly_deck.card(com)
                shuffle = True
            st.teams["com"].initiative = c.initiatives.able
            self.friendly_deck.discard(com)
            if shuffle:
                self.friendly_deck.shuffle_all(self.dice, "after an Event drawn for COM (C2 25.0)")
            self.emit(
                "initiative",
                f"Command team initiative {c.initiatives.able} from card {c.id}.",
                rule="C2 25.0",
            )
        if st.vehicles:
            crew_orders.friendly_vehicle_initiatives(self)
        options = card_effects.card_effect_options(self, card)
        choice = None
        if options:
            choice = yield self.decision(DecisionKind.CARD_EFFECT, f"{card.title}: choose", options)
        card_effects.apply_card_effect(self, card, choice)

    # Step 2
    def _friendly_order_phase(self) -> Generator[Decision, str, None]:
        st = self.state
        st.flow.phase = Phase.FRIENDLY_ORDER
        for ch in st.active(Side.FRIENDLY):
            if ch.order is not None:
                continue
            if ch.vehicle is not None:  # crew and passengers (C2 31.11.2)
                options = crew_orders.friendly_crew_order_options(self, ch)
            else:
                options = friendly_orders.friendly_order_options(self, ch)
                if st.vehicles and mount_up.mount_places(self, ch):  # C2 31.11.2
                    options = [*options, (mount_up.MOUNT_UP, self.data.orders.get(mount_up.MOUNT_UP).name)]
            key = yield self.decision(DecisionKind.GIVE_ORDER, f"Order for {ch.name}", options, actor=ch.id)
            order = self.data.orders.get(key)
            directions = None
            target = None
            if key == mount_up.MOUNT_UP and ch.vehicle is None:
                target = yield self.decision(
                    DecisionKind.ORDER_TARGET,
                    f"Vehicle and seat for {ch.name}'s Mount Up",
                    mount_up.mount_places(self, ch),
                    actor=ch.id,
                )
            elif direction_numbers.needs_direction(order):
                dkey = yield self.decision(
                    DecisionKind.ORDER_DIRECTION,
                    f"Direction for {ch.name}'s {order.name}",
                    direction_numbers.direction_options(self, ch),
                    actor=ch.id,
                )
                directions = direction_numbers.parse_directions(dkey)
            targets = orders.order_targets(self, ch, order)
            if targets is not None:
                tkey = yield self.decision(
                    DecisionKind.ORDER_TARGET, f"Target for {ch.name}'s {order.name}", targets, actor=ch.id
                )
                target = tkey
            self.set_order(ch, key, directions=directions, target=target, source="player")
            light_at.light_at_order_placed(self, ch)
            self.emit(
                "friendly_order",
                _given_text(ch, order, directions, target),
                rule="7.0",
                actor=ch.id,
                data=_given_data(key, directions, target),
            )

    # Step 3
    def _enemy_card_and_order_phase(self) -> None:
        self.state.flow.phase = Phase.ENEMY_CARD_ORDER
        if self.state.vehicles:
            markers.refresh_markers(self)  # LOS may have changed since the End Phase (31.7.4)
            # C2 32.3: Panzerfaust holders take Fire Light AT first.
            for ch in self.state.active(Side.ENEMY):
                if ch.order is None and ch.vehicle is None:
                    light_at.panzerfaust_order(self, ch)
        order_phase.enemy_card_and_order_phase(self)
        if self.state.vehicles:
            vom_orders.enemy_vehicle_orders(self)

    def _arrange_track(self) -> None:
        """Step 3 c): teams on the Initiative Track, lowest first (base-rules §2)."""
        st = self.state
        tie = {
            t: i for i, t in enumerate([*FRIENDLY_TEAMS, *[t for t in st.teams if t not in FRIENDLY_TEAMS]])
        }
        teams = [t for t in st.teams.values() if t.initiative is not None and t.members]
        teams.sort(key=lambda t: (t.initiative, 0 if t.side is Side.FRIENDLY else 1, tie[t.id]))
        st.flow.track = [t.id for t in teams]
        shown = ", ".join(f"{t.name} {t.initiative:02d}" for t in teams)
        self.emit(
            "track",
            f"Initiative Track: {shown}.",
            rule="2, 9.1",
            data={"track": [(t.id, t.initiative) for t in teams]},
        )

    # Step 4
    def _activate(self, ch: Character) -> Generator[Decision, str, None]:
        """One character's activation: a) i) to iv) (base-rules §1 Step 4)."""
        if ch.vehicle is not None:  # a crew member or passenger (C2 31)
            yield from crew.activate(self, ch)
            return
        imp = self.state.flow.impulse
        # i) passive start-of-activation effects
        if not orders.start_of_activation(self, ch):
            return
        if ch.side is Side.ENEMY and self.state.vehicles:
            light_at.enemy_panzerfaust_check(self, ch)  # C2 32.3 placement
        # ii) spotting segment
        spotting.spotting_segment(self, ch)
        # iii) Duck Back declaration (7.19)
        if ch.side is Side.FRIENDLY and ch.order is not None and ch.order.order not in ("duck_back",):
            o = self.order_def(ch)
            if o is not None and (o.steps[imp - 1] if 1 <= imp <= 4 else o.track(imp)) is not TrackStep.NONE:
                key = yield self.decision(
                    DecisionKind.DUCK_BACK,
                    f"{ch.name} ({o.name}): Duck Back?",
                    [("no", f"Carry on with {o.name}"), ("yes", "Duck Back")],
                    actor=ch.id,
                )
                if key == "yes":
                    self.set_order(ch, "duck_back", source="player: Duck Back (7.19)")
                    self.emit("duck_back", f"{ch.name} ducks back.", rule="7.19", actor=ch.id)
        # iv) the order's action this Impulse
        o = self.order_def(ch)
        if o is None:
            return
        if o.id == mount_up.MOUNT_UP:  # a man on foot mounting a vehicle (C2 31.11.2)
            mount_up.mount_up_step(self, ch)
            return
        step = o.steps[imp - 1] if 1 <= imp <= 4 else o.track(imp)  # Order.track without its call
        if step in (TrackStep.MAY_MOVE, TrackStep.MOVE, TrackStep.MOVE_2):
            yield from movement.move(self, ch, o, step)
        elif step is TrackStep.FIRE:
            yield from fire_action.fire_step(self, ch, o)
        elif step is TrackStep.MELEE:
            yield from melee.melee_step(self, ch, o)
        if imp == 4:
            orders.impulse_four_effects(self, ch, o)
        if self.state.vehicles:
            light_at.panzerfaust_pickup(self, ch)  # C2 32.3

    def _check_end(self) -> bool:
        """A side with no active character left ends the game (base-rules §1 Step 5 f).

        Asked after every activation: each side's last man found active on the map (not a
        dummy) is asked first, and the roster is read again only when he no longer is.
        """
        st = self.state
        active = Status.ACTIVE
        witnesses = self._alive
        for i, side in enumerate((Side.FRIENDLY, Side.ENEMY)):
            c = witnesses[i]
            if c is not None and c.status is active and c.hex is not None:
                continue  # a dummy is never a witness, and nobody becomes one
            for c in st.roster(side):  # a plain loop: any() over a generator, unrolled
                if c.status is active and c.hex is not None and not c.dummy:
                    witnesses[i] = c
                    break
            else:
                st.over = True
                self.emit("game_over", f"The {side.value} side has no one left.", rule="5 f)")
                return True
        return False

    # Step 5
    def _end_phase(self) -> None:
        st = self.state
        st.flow.phase = Phase.END
        if self.scenario.c4 is not None:
            artillery.place_c4(self)  # §14 special rules: C4 set by a carrier
        grenades.end_phase_explosions(self)  # a)
        spotting.end_phase_hide(self)  # b)
        spotting.end_phase_alerts(self)  # c)
        end_phase.end_phase_environment(self)  # a), d): smoke, fire, weather
        if st.vehicles:
            hazards.end_phase_vehicle_fires(self)  # C2 31.10.8
            hazards.hatch_grenades_explode(self)  # C2 31.10.7
            mount_up.end_phase(self)  # C2 31.11.2: in through a closed hatch
            crew.end_phase(self)  # C2 31.11.2, 28.2
        for ch in st.characters.values():  # e)
            ch.order = None
            ch.acted.clear()
        if st.cards.played:
            self.friendly_deck.discard(st.cards.played)
            st.cards.played = None
        order_phase.return_enemy_cards(self)
        self._check_end()
        if st.flow.turn >= self.scenario.turns:
            st.over = True
            self.emit("game_over", f"Turn {st.flow.turn} was the last turn.", rule="19")

    def _final_result(self) -> None:
        victory.final_victory(self)
