"""The controller's part for the stage: the Enemy's turn at the player's pace (solo.render.stage).

:class:`StageControls` is mixed into :class:`~solo.render.controller.Controller`: it hands the
live game's new events to the view's :class:`~solo.render.stage.Stage` after every answer,
turns Space / click / Esc into the next step or the rest of the Impulse while the Enemy plays,
changes the pace (P, ``[`` ``]``), shows a card's explanation (a click on the Enemy panel or an
Enemy counter), and keeps the pace and the standing choices with a save (:meth:`window_settings`,
restored on Continue).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from solo.render import stage_draw
from solo.render.stage import Pace
from solo.render.stage_view import side_of
from solo.render.view import Hotspot

if TYPE_CHECKING:
    from solo.engine.game import Game
    from solo.render.frame import GameView

__all__ = ["GRACE_SECONDS", "StageControls"]

GRACE_SECONDS = 0.5
"""After the last Enemy step is shown by Space or Enter, those keys do nothing this long: a
player pressing Space through the steps does not answer the decision that comes back by it."""


class StageControls:
    """Stage handling for the controller (which gives ``view``, ``clock``, ``dirty``, ``live``,
    ``review`` and ``toast``)."""

    view: GameView
    clock: Callable[[], float]
    dirty: bool
    review: object

    @property
    def live(self) -> Game | None:  # pragma: no cover - the controller's own
        raise NotImplementedError

    def toast(self, text: str) -> None:  # pragma: no cover - the controller's own
        raise NotImplementedError

    def stage_feed(self) -> int:
        """Hand the live game's new events to the stage; how many steps it holds back for showing."""
        g = self.live
        if g is None or self.review is not None or self.view.game is not g:
            return 0
        n = self.view.stage.feed(
            g.events, lambda actor: side_of(g, actor), self.clock(), visible=self.view.fog().shows
        )
        if n:
            self.dirty = True
        return n

    def stage_next(self) -> bool:
        """Space / click while the Enemy plays: the next Enemy step; True if one was on stage."""
        if self.view.stage.next(self.clock()):
            self.dirty = True
            if not self.view.stage.busy:
                self._stage_ended = self.clock()
            return True
        return False

    def stage_grace(self, key: int) -> bool:
        """Whether ``key`` is a Space or Enter pressed within :data:`GRACE_SECONDS` of the end of
        the stage (then it is ignored)."""
        ended = getattr(self, "_stage_ended", None)
        if ended is None or key not in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            return False
        return self.clock() - ended < GRACE_SECONDS

    def cycle_pace(self) -> Pace:
        """P: Instant → Step → Timed → Instant (Instant shows at once what was held back)."""
        stage = self.view.stage
        stage.set_pace(stage.pace.next())
        hint = {
            Pace.INSTANT: "the Enemy's turn is shown at once.",
            Pace.STEP: "each Enemy step waits for Space or a click (Esc: the rest of the Impulse).",
            Pace.TIMED: f"one Enemy step every {stage.seconds:g} s ([ faster, ] slower).",
        }[stage.pace]
        self.toast(f"Pace {stage.pace.value.title()}: {hint}")
        return stage.pace

    def window_settings(self) -> dict[str, object]:
        """What a save keeps of the window's stage: the pace (Header.window; the standing choices
        are kept in Header.standing)."""
        return dict(self.view.stage.settings())

    def restore_window_settings(self, settings: dict[str, object]) -> None:
        """Continue: the pace a save kept (:meth:`window_settings`)."""
        self.view.stage.restore(settings)

    def stage_key(self, key: int) -> bool:
        """A key while the Enemy plays on stage; True if it was the stage's (the others are refused
        when they would answer the decision not shown yet)."""
        stage = self.view.stage
        if key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            return self.stage_next()
        if key == pygame.K_ESCAPE:
            stage.finish_impulse(self.clock())
            return True
        answering = (pygame.K_n, pygame.K_e, pygame.K_t)
        return key in answering or pygame.K_0 <= key <= pygame.K_9 or pygame.K_KP0 <= key <= pygame.K_KP9

    def stage_click(self, pos: tuple[int, int], hs: Hotspot | None) -> bool:
        """A click the stage takes: an Enemy panel card (its explanation on/off), the Next button,
        the map while the Enemy plays (an Enemy counter: his card's explanation; else the next
        step). Any other click closes the explanation. True if the click was the stage's."""
        view = self.view
        if hs is not None and hs.action[0] == "enemy_card":
            chosen = int(hs.action[1])
            view.explain = None if view.explain == chosen else chosen
            self.dirty = True
            return True
        if hs is not None and hs.action[0] == "stage":
            self.stage_next()
            return True
        if view.stage.busy and view.layout.map.collidepoint(pos):
            cid = view.counter_at(pos)
            shown = view.shown_game()
            seq = stage_draw.card_of(shown, cid) if shown is not None and cid is not None else None
            if seq is None:
                self.stage_next()
            else:
                view.explain = seq
                self.dirty = True
            return True
        if view.explain is not None:
            view.explain = None
            self.dirty = True
        return False
