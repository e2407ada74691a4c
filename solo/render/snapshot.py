"""Headless snapshots (``solo render``): the window's picture of a game, written to a PNG.

A scenario is drawn at its first decision (after set-up); a log is replayed
up to a turn and impulse (its choices applied until the flow gets there) and
drawn. The drawing is the window's own :class:`~solo.render.frame.GameView`
on an off-screen surface, so no display is needed.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from solo.core.errors import LogError
from solo.core.log import read_log
from solo.engine.game import Game
from solo.render.frame import GameView
from solo.render.session import is_log, load_session, new_session, reached


def parse_size(text: str) -> tuple[int, int]:
    """``"1600x1000"`` → (1600, 1000). Raises ValueError for anything else or sizes under 640×420."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.strip().isdigit() or not h.strip().isdigit():
        raise ValueError(f"size must be WIDTHxHEIGHT, e.g. 1600x1000, got {text!r}")
    size = (int(w), int(h))
    if size[0] < 640 or size[1] < 420 or size[0] > 8000 or size[1] > 8000:
        raise ValueError(f"size must be from 640x420 to 8000x8000, got {text!r}")
    return size


def game_for(
    source: str,
    *,
    seed: int = 1,
    turn: int | None = None,
    impulse: int | None = None,
    card_set: str | None = None,
    map_set: str | None = None,
) -> Game:
    """The game to draw: a log replayed to ``turn``/``impulse`` (all of it if None), or a new scenario.

    ``card_set``/``map_set`` (``--cards``/``--maps``) are for a scenario; a log names its own.
    Raises :class:`~solo.core.errors.LogError` (``path: the log has 6 turns; --turn 99 ...``)
    for a turn or impulse the log does not reach (:func:`check_reached`).
    """
    if is_log(source):
        check_reached(source, turn, impulse)
        return load_session(source, stop=lambda g: reached(g, turn, impulse)).game
    return new_session(source, seed=seed, card_set=card_set, map_set=map_set).game


def check_reached(source: str, turn: int | None, impulse: int | None) -> None:
    """Refuse a ``turn`` (``impulse``) the log at ``source`` never reaches: :class:`LogError`
    ``"path: the log has 6 turns; --turn 99 is past its end"`` (the CLI exits 2). The log's last
    turn and that turn's last Impulse are read from its events."""
    if turn is None:
        return
    _header, events = read_log(source)
    last = max((e.turn for e in events), default=0)
    if turn > last:
        turns = f"{last} turn" + ("" if last == 1 else "s")
        raise LogError(f"{source}: the log has {turns}; --turn {turn} is past its end (give 1-{last})")
    if impulse is None or turn < last:
        return
    reached_impulse = max((e.impulse for e in events if e.turn == last), default=0)
    if impulse > reached_impulse:
        where = f"Impulse {reached_impulse}" if reached_impulse else "its Enemy Card and Order Phase"
        raise LogError(
            f"{source}: the log stops in turn {last} at {where}; --turn {turn} --impulse {impulse} "
            "is past its end"
        )


def draw_game(game: Game, size: tuple[int, int] = (1600, 1000), *, labels: bool = False) -> pygame.Surface:
    """The window's picture of ``game`` on a new off-screen surface of ``size``."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(size)
    view = GameView(game, size)
    view.ui.labels = labels
    view.draw(surface)
    return surface


def render_snapshot(
    source: str,
    out: Path | str,
    *,
    turn: int | None = None,
    impulse: int | None = None,
    size: tuple[int, int] = (1600, 1000),
    seed: int = 1,
    labels: bool = False,
    card_set: str | None = None,
    map_set: str | None = None,
) -> Path:
    """Draw ``source`` (scenario id/file or log) to the PNG ``out``; returns its path.

    Raises :class:`~solo.core.errors.SoloError` (bad log, diverging log) or
    :class:`~solo.core.errors.DataError` (bad scenario) before anything is written.
    """
    game = game_for(source, seed=seed, turn=turn, impulse=impulse, card_set=card_set, map_set=map_set)
    surface = draw_game(game, size, labels=labels)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
    return out
