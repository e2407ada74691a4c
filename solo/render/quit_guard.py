"""Quitting the window: unsaved play is never lost without the player saying so.

:class:`QuitGuard` counts the decisions given since the last save (or load). Ctrl+Q, the
window's close button, or either from inside a table-mode dialog, quit at once when nothing is
unsaved; otherwise the guard asks: **Y** (or Ctrl+Q again) quits without saving, **S** (or
Ctrl+S) saves and quits, **Esc** (or N) goes back to the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from solo.render import theme
from solo.render.panels import SMALL_SIZE, TEXT_SIZE

if TYPE_CHECKING:
    from solo.engine.game import Game

QUIT_QUESTION = "Quit with unsaved play?"
QUIT_CHOICES = "Y or Ctrl+Q: quit without saving · S or Ctrl+S: save, then quit · Esc or N: back to the game"


class QuitGuard:
    """Whether there is unsaved play, and the "quit without saving?" question while it is open."""

    def __init__(self) -> None:
        self.saved_inputs = 0
        """How many inputs the game had when it was last saved or loaded."""
        self.asking = False
        """True while the question is shown."""

    def mark_saved(self, game: Game | None) -> None:
        """The game as it is now is on disk (saved, or loaded from a save)."""
        self.saved_inputs = len(game.inputs) if game is not None else 0

    def unsaved(self, game: Game | None) -> int:
        """How many decisions were given since the last save (0: nothing to lose)."""
        if game is None:
            return 0
        n = len(game.inputs)
        return 0 if n == self.saved_inputs else max(1, n - self.saved_inputs)

    def answer(self, key: int, mod: int) -> str | None:
        """A key while the question is open: ``"quit"``, ``"save"`` (then quit), ``"stay"``, or None."""
        ctrl = bool(mod & pygame.KMOD_CTRL)
        if key == pygame.K_y or (ctrl and key == pygame.K_q):
            return "quit"
        if key == pygame.K_s:
            return "save"
        if key in (pygame.K_ESCAPE, pygame.K_n):
            return "stay"
        return None


def draw_question(surface: pygame.Surface, fonts: theme.Fonts, unsaved: int) -> pygame.Rect:
    """The question, in a box in the middle of the window; returns the box."""
    w = min(640, surface.get_width() - 40)
    lines = fonts.wrap(f"{unsaved} decision(s) since the last save. {QUIT_CHOICES}.", SMALL_SIZE + 1, w - 32)
    h = 56 + 20 * len(lines)
    box = pygame.Rect(0, 0, w, h)
    box.center = (surface.get_width() // 2, surface.get_height() // 2)
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 120))
    surface.blit(shade, (0, 0))
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=8)
    pygame.draw.rect(surface, theme.ACTIVE, box, 2, border_radius=8)
    surface.blit(
        fonts.text(QUIT_QUESTION, TEXT_SIZE + 4, theme.PANEL_TITLE, bold=True), (box.x + 16, box.y + 14)
    )
    y = box.y + 46
    for ln in lines:
        surface.blit(fonts.text(ln, SMALL_SIZE + 1, theme.TEXT), (box.x + 16, y))
        y += 20
    return box


__all__ = ["QUIT_CHOICES", "QUIT_QUESTION", "QuitGuard", "draw_question"]
