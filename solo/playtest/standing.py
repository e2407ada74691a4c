"""Standing choices: routine decisions answered for the player by settings he can change any time.

The window asks :meth:`StandingChoices.answer` before showing a Decision; an answer is given
through ``game.apply`` like a click, so the log holds it as the player's choice and a replay
feeds it back unchanged. Settings (issue 12 item 2):

* ``duck_back``: the Duck Back declaration of Step 4 a) iii) (7.19): ``ask``; ``never``
  ("no" every time); ``when_hurt`` ("yes" when a Known enemy who sees the man holds an order
  that fires this Impulse or later, else "no"). The Driver's Emergency Stop (C2 31.2) is
  always asked.
* ``carry_on``: an ``m`` step of the track (base-rules §6.7): move, without asking.
* ``rules_defaults``: the decisions whose rules give a default: no initiative swap (§18), the
  first beneficiary of a card effect ([house], solo.rules.effects).
* team orders (:meth:`StandingChoices.set_team_order`): this turn, every man of a team asked
  for an order gets the order (and direction string) given to the team (base-rules §1 Step 2),
  when it is among his options; else he is asked.

Only what the player can see is used (Known enemies and their orders). Pure: no pygame.

May import: :mod:`solo.core`, :mod:`solo.data`, :mod:`solo.rules`, :mod:`solo.engine`.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.decisions import Decision, DecisionKind
from solo.data.orders import TrackStep

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.rules.state import Character


class DuckBackChoice(enum.Enum):
    """The standing answer to "Duck Back?" (7.19)."""

    ASK = "ask"
    NEVER = "never"
    WHEN_HURT = "when_hurt"


DUCK_BACK_CAPTIONS = {
    DuckBackChoice.ASK: "Duck Back: ask",
    DuckBackChoice.NEVER: "Duck Back: never",
    DuckBackChoice.WHEN_HURT: "Duck Back: if fired on",
}


@attrs.frozen
class TeamOrder:
    """An order given to a whole team for one turn: the order key and, for a move, its direction."""

    turn: int
    team: str
    order: str
    direction: str | None = None


@attrs.define
class StandingChoices:
    """The player's standing choices (all off: every decision is asked, as the rules give them)."""

    duck_back: DuckBackChoice = DuckBackChoice.ASK
    carry_on: bool = False
    """Carry on moving: an ``m`` track step moves without asking (§6.7)."""
    rules_defaults: bool = False
    team_orders: dict[str, TeamOrder] = attrs.field(factory=dict)
    """Team id → this turn's team order (older turns' entries are ignored)."""

    @classmethod
    def on(cls) -> StandingChoices:
        """Every standing choice on: Duck Back when fired on, carry on moving, rules defaults."""
        return cls(duck_back=DuckBackChoice.WHEN_HURT, carry_on=True, rules_defaults=True)

    def to_dict(self) -> dict[str, Any]:
        """The settings that differ from "ask", as a save's header keeps them (``standing``).

        ``{"duck_back": "never", "carry_on": true, "rules_defaults": true, "team_orders":
        [{"turn": 2, "team": "able", "order": "sneak", "direction": "1/2"}]}``; ``{}`` when all
        are off.
        """
        out: dict[str, Any] = {}
        if self.duck_back is not DuckBackChoice.ASK:
            out["duck_back"] = self.duck_back.value
        if self.carry_on:
            out["carry_on"] = True
        if self.rules_defaults:
            out["rules_defaults"] = True
        if self.team_orders:
            out["team_orders"] = [attrs.asdict(t) for _k, t in sorted(self.team_orders.items())]
        return out

    @classmethod
    def from_dict(cls, d: Any) -> StandingChoices:
        """The settings :meth:`to_dict` wrote; a value it cannot read is left at "ask" (a save
        is user data: a hand-edited setting never stops the game from loading)."""
        out = cls()
        if not isinstance(d, dict):
            return out
        with contextlib.suppress(ValueError):
            out.duck_back = DuckBackChoice(d.get("duck_back", "ask"))
        out.carry_on = d.get("carry_on") is True
        out.rules_defaults = d.get("rules_defaults") is True
        teams = d.get("team_orders", [])
        for t in teams if isinstance(teams, list) else []:
            if not isinstance(t, dict):
                continue
            turn, team, order, direction = t.get("turn"), t.get("team"), t.get("order"), t.get("direction")
            if (
                isinstance(turn, int)
                and isinstance(team, str)
                and isinstance(order, str)
                and (direction is None or isinstance(direction, str))
            ):
                out.team_orders[team] = TeamOrder(turn, team, order, direction)
        return out

    def cycle_duck_back(self) -> DuckBackChoice:
        """Ask → never → if fired on → ask; returns the new setting."""
        order = list(DuckBackChoice)
        self.duck_back = order[(order.index(self.duck_back) + 1) % len(order)]
        return self.duck_back

    def set_team_order(self, game: Game, team: str, order: str, direction: str | None = None) -> None:
        """Give ``order`` (and ``direction``) to every man of ``team`` still to be asked this turn."""
        self.team_orders[team] = TeamOrder(game.state.flow.turn, team, order, direction)

    def answer(self, game: Game, decision: Decision | None = None) -> tuple[str, str] | None:
        """The standing answer to ``decision`` (default: the pending one) as (key, why), or None.

        ``why`` names the setting ("Duck Back: never"). None: the player is asked.
        """
        d = decision if decision is not None else game.pending
        if d is None:
            return None
        kind = d.kind
        if kind is DecisionKind.DUCK_BACK and d.keys == ("no", "yes"):
            if self.duck_back is DuckBackChoice.NEVER:
                return "no", DUCK_BACK_CAPTIONS[self.duck_back]
            if self.duck_back is DuckBackChoice.WHEN_HURT:
                ch = game.state.characters.get(d.actor or "")
                hurt = ch is not None and fired_on(game, ch)
                return ("yes" if hurt else "no"), DUCK_BACK_CAPTIONS[self.duck_back]
            return None
        if kind is DecisionKind.MAY_MOVE and self.carry_on and "move" in d.keys:
            return "move", "Carry on moving"
        if self.rules_defaults:
            if kind is DecisionKind.INITIATIVE_SWAP and "none" in d.keys:
                return "none", "Rules defaults"
            if kind is DecisionKind.CARD_EFFECT and d.keys:
                return d.keys[0], "Rules defaults"
        if kind in (DecisionKind.GIVE_ORDER, DecisionKind.ORDER_DIRECTION):
            return self._team_answer(game, d)
        return None

    def _team_answer(self, game: Game, d: Decision) -> tuple[str, str] | None:
        ch = game.state.characters.get(d.actor or "")
        if ch is None:
            return None
        to = self.team_orders.get(ch.team)
        if to is None or to.turn != game.state.flow.turn:
            return None
        team = game.state.teams[to.team].name if to.team in game.state.teams else to.team
        why = f"Team order ({team}): {to.order}"
        if d.kind is DecisionKind.GIVE_ORDER and to.order in d.keys:
            if ch.order is not None:  # already has this turn's order: ask
                return None
            return to.order, why
        last = game.inputs[-1] if game.inputs else {}
        if (
            d.kind is DecisionKind.ORDER_DIRECTION
            and to.direction is not None
            and last.get("actor") == ch.id
            and last.get("choice") == to.order
            and to.direction in d.keys
        ):
            return to.direction, why
        return None

    def team_order_from_last(self, game: Game) -> TeamOrder | None:
        """Make the order just given (with its direction) this turn's order for the man's team.

        Reads the game's last inputs (a ``give_order``, maybe followed by its
        ``order_direction``); None if the last input is neither.
        """
        inputs = game.inputs
        if not inputs:
            return None
        last = inputs[-1]
        direction = None
        if last["decision"] == DecisionKind.ORDER_DIRECTION.value and len(inputs) > 1:
            direction = last["choice"]
            last = inputs[-2]
        if last["decision"] != DecisionKind.GIVE_ORDER.value:
            return None
        ch = game.state.characters.get(last["actor"] or "")
        if ch is None:
            return None
        self.set_team_order(game, ch.team, last["choice"], direction)
        return self.team_orders[ch.team]


def fired_on(game: Game, ch: Character) -> bool:
    """Whether a Known enemy who sees ``ch`` holds an order that fires this Impulse or later (7.19)."""
    imp = max(game.state.flow.impulse, 1)
    for e in game.opponents(ch):
        if not e.revealed or e.dummy or e.order is None:
            continue
        o = game.order_def(e)
        if o is None or not any(o.track(i) is TrackStep.FIRE for i in range(imp, 5)):
            continue
        if game.sees(e, ch):
            return True
    return False


def count_asked(
    game: Game,
    policy: Callable[[Game, Decision], str],
    standing: StandingChoices | None,
    *,
    team_orders: bool = False,
) -> dict[str, int]:
    """Play ``game`` to its end with ``policy``; the decisions asked of the player, per kind.

    With ``standing`` those it answers are not counted (they are applied all the same, as the
    window does). ``team_orders``: each order the policy gives becomes its team's order for the
    turn (the window's "order to the whole team"). The measure of issue 12 item 2
    ("decisions asked per turn").
    """
    asked: dict[str, int] = {}
    while game.pending is not None:
        d = game.pending
        auto = standing.answer(game, d) if standing is not None else None
        if auto is not None:
            game.apply(auto[0])
            continue
        asked[d.kind.value] = asked.get(d.kind.value, 0) + 1
        game.apply(policy(game, d))
        if team_orders and standing is not None and d.kind is not DecisionKind.ORDER_TARGET:
            nxt = game.pending
            if nxt is None or nxt.kind is not DecisionKind.ORDER_DIRECTION:
                standing.team_order_from_last(game)
    return asked


__all__ = ["DuckBackChoice", "StandingChoices", "TeamOrder", "count_asked", "fired_on"]
