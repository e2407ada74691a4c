"""The window: its loop, table-mode dialogs, and ``solo play``.

:class:`Window` owns the display surface, a :class:`~solo.render.frame.GameView`
and a :class:`~solo.render.controller.Controller`; :meth:`Window.step` runs
one frame (events, then a redraw when something changed), so tests drive it
headless by posting pygame events and calling ``step``. Table mode asks every
die and card through :class:`ChanceDialog`, a modal dialog with its own
nested event loop, as the chance source's callback.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import pygame

from solo.core.dice import ChanceRequest
from solo.core.errors import SoloError
from solo.core.log import LogError, read_log
from solo.playtest.play import data_for
from solo.playtest.standing import StandingChoices
from solo.render import theme
from solo.render.autosave import autosave_file, clear_autosave, write_autosave
from solo.render.controller import Controller
from solo.render.frame import GameView
from solo.render.quit_guard import draw_question
from solo.render.session import Session, branch_session, load_session, new_session
from solo.render.start import StartChoice, StartScreen

if TYPE_CHECKING:
    from solo.data.house import HouseData

DEFAULT_SIZE = (1600, 1000)
FPS = 60


class QuitRequested(Exception):
    """The window was closed while a dialog waited for an answer."""


@attrs.frozen
class DialogButton:
    """A button of the chance dialog: clicking it gives ``value`` (or edits the typed answer)."""

    rect: pygame.Rect
    value: object
    label: str


@attrs.frozen
class DialogLayout:
    """The dialog box, its text lines and its buttons."""

    box: pygame.Rect
    lines: tuple[tuple[str, theme.Colour, bool], ...]
    buttons: tuple[DialogButton, ...]


def _title(req: ChanceRequest) -> str:
    if req.kind == "d10":
        return "Roll a d10 and give its face (0-9)"
    if req.kind == "d6":
        return "Roll a d6 and give its face (1-6)" + (f" ({req.detail})" if req.detail else "")
    if req.kind == "%D":
        return "Roll %D: two d10 read as tens and units (00-99)"
    if req.kind == "choice" and req.purpose.startswith("cup"):
        return cup_title(req)
    if req.kind == "choice":
        return f"Random selection: roll a die of {len(req.legal)} faces"
    if req.kind == "card":
        return f"Draw a card from the {req.deck} deck: which card is it?"
    if req.kind == "shuffle":
        return f"Shuffle the {req.deck} deck" + (f" ({req.detail})" if req.detail else "")
    return f"{req.kind}?"


def cup_title(req: ChanceRequest) -> str:
    """A cup draw (§3, C2 24.0) as the player does it at the table: a counter drawn blind.

    ``"Draw a counter from the cup for 20.02 (5 in the cup): set it face down there, then click
    any number 1-5"``: the numbers stand for the unseen counters, so any one is as good as a die.
    """
    where = ""
    if "the counter for " in req.purpose:
        where = " for " + req.purpose.split("the counter for ", 1)[1].split(" (", 1)[0]
    n = len(req.legal)
    return (
        f"Draw a counter from the cup{where} ({n} in the cup): set it face down there, "
        f"then click any number 1-{n} (each stands for one unseen counter)"
    )


class ChanceDialog:
    """Table mode: asks the player for a die face, a card or a shuffle (solo.core.dice.TableSource).

    :meth:`ask` is the TableSource callback: a nested event loop that draws the
    window under a modal box until an answer is clicked or typed. Digits and
    Enter work; closing the window raises :class:`QuitRequested`.
    """

    def __init__(self, window: Window) -> None:
        self.window = window
        self.typed = ""
        self.refused = ""
        """Why the last typed answer was not sent (shown in the dialog)."""
        self.data: HouseData | None = None
        """The card set in use, for card titles before the game exists (set-up draws)."""

    def card_label(self, req: ChanceRequest, card_id: str) -> str:
        """A card as the player sees it: id, title and values from the card set in use.

        Friendly: ``"f05 Church Bells · A24 B06 C86"`` (Event cards say so); Enemy Order cards:
        ``"e07 · initiative 13"``. An id the card set does not know is shown bare.
        """
        g = self.window.view.game
        data = g.data if g is not None else self.data
        if data is None:
            return card_id
        if req.deck == "friendly" and card_id in data.friendly_deck:
            c = data.friendly_deck.card(card_id)
            if c.initiatives is None:
                return f"{c.title} · Event" if "_" in c.id else f"{c.id} {c.title} · Event"
            i = c.initiatives
            return f"{c.id} {c.title} · A{i.able:02d} B{i.baker:02d} C{i.charlie:02d}"
        if req.deck == "enemy" and card_id in data.enemy_deck:
            return f"{card_id} · initiative {data.enemy_deck.card(card_id).initiative:02d}"
        return card_id

    def card_matches(self, req: ChanceRequest) -> list[str]:
        """The cards of the draw pile whose label holds the typed text (all of them before typing)."""
        text = self.typed.strip().lower()
        return [str(c) for c in req.legal if text in self.card_label(req, str(c)).lower()]

    def layout(self, req: ChanceRequest, size: tuple[int, int]) -> DialogLayout:
        """Where the dialog's text and buttons go in a window of ``size``.

        The box stands in the right-hand column (the decision panel and the log), so the map
        stays in view, also while the game is being set up.
        """
        fonts = self.window.view.fonts
        column = self.window.view.layout.decision
        w = max(320, min(760, size[0] - column.x - 16))
        lines: list[tuple[str, theme.Colour, bool]] = []
        for ln in fonts.wrap(_title(req), 18, w - 32, bold=True):
            lines.append((ln, theme.PANEL_TITLE, True))
        for ln in fonts.wrap(f"For: {self._clean(req.purpose)}", 14, w - 32):
            lines.append((ln, theme.TEXT, False))
        error = self.refused or req.error
        if error:
            for ln in fonts.wrap(f"Not accepted: {error}", 14, w - 32):
                lines.append((ln, (255, 110, 110), False))
        if req.kind == "%D":
            lines.append(
                (f"Typed: {self.typed or '_'}   (type it and press Enter, or click)", theme.ACTIVE, False)
            )
        matches: list[str] = []
        if req.kind == "card":
            matches = self.card_matches(req)
            hint = (
                f"Search: {self.typed or '_'} · {len(matches)} of {len(req.legal)} cards · type an id, a "
                "title or a number; Enter takes the only match, or click"
            )
            for ln in fonts.wrap(hint, 14, w - 32):
                lines.append((ln, theme.ACTIVE, False))
        text_h = 22 * len(lines) + 20
        specs: list[tuple[object, str, int]] = []  # value, label, width
        if req.kind == "shuffle":
            specs = [("ok", "Done: the deck is shuffled", 260)]
        elif req.kind == "%D":
            specs = [(("digit", d), str(d), 52) for d in range(10)]
            specs += [(("clear",), "Clear", 90), (("submit",), "OK", 90)]
        elif req.kind == "card":
            room = max(1, (size[1] - column.y - 16 - text_h - 24 - 34) // 30)
            shown = matches[:room]
            specs = [(c, self.card_label(req, c), w - 32) for c in shown]
            if len(matches) > len(shown):
                specs.append((("more",), f"… {len(matches) - len(shown)} more: type to narrow", w - 32))
        elif req.kind == "choice" and self._labels_shown(req):
            specs = [(v, f"{v}: {self._clean(req.options[v - 1])}", w - 40) for v in req.legal]
        else:
            specs = [(v, str(v), 56) for v in req.legal]
        # flow the buttons in rows
        rows: list[list[tuple[object, str, int]]] = [[]]
        x = 0
        for spec in specs:
            if rows[-1] and x + spec[2] > w - 32:
                rows.append([])
                x = 0
            rows[-1].append(spec)
            x += spec[2] + 8
        bh = 26 if req.kind == "card" else 34
        h = text_h + len(rows) * (bh + 4 if req.kind == "card" else bh + 8) + 24
        box = pygame.Rect(0, 0, w, min(h, size[1] - column.y - 8))
        box.topright = (size[0] - 8, column.y + 8)
        buttons = []
        y = box.y + text_h
        for row in rows:
            xx = box.x + 16
            for value, label, bw in row:
                buttons.append(DialogButton(pygame.Rect(xx, y, bw, bh), value, label))
                xx += bw + 8
            y += bh + (4 if req.kind == "card" else 8)
        return DialogLayout(box, tuple(lines), tuple(buttons))

    def _clean(self, text: str) -> str:
        """``text`` with hidden enemies' names replaced (solo.render.logview.Fog), once a game exists."""
        return self.window.view.fog().clean(text) if self.window.view.game is not None else text

    @staticmethod
    def _labels_shown(req: ChanceRequest) -> bool:
        """Whether a random pick's options may be shown: not for cup draws or picks naming a dummy.

        Counters come out of a cup blind (C2 24.0); the faces then stand for nothing the player sees.
        """
        if req.purpose.startswith("cup") or any("dummy" in o.lower() for o in req.options):
            return False
        return len(req.options) == len(req.legal)

    def draw(self, surface: pygame.Surface, req: ChanceRequest) -> None:
        """The window with the dialog over its right-hand column; the map is left in view."""
        self.window.view.draw(surface)
        view_lay = self.window.view.layout
        column = pygame.Rect(
            view_lay.decision.x, view_lay.decision.y, view_lay.decision.width, surface.get_height()
        )
        shade = pygame.Surface(column.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 140))
        surface.blit(shade, column.topleft)
        lay = self.layout(req, surface.get_size())
        fonts = self.window.view.fonts
        pygame.draw.rect(surface, theme.PANEL, lay.box, border_radius=8)
        pygame.draw.rect(surface, theme.ACTIVE, lay.box, 2, border_radius=8)
        y = lay.box.y + 14
        for text, colour, bold in lay.lines:
            surface.blit(fonts.text(text, 18 if bold else 14, colour, bold=bold), (lay.box.x + 16, y))
            y += 22
        mouse = self.window.view.ui.mouse
        for b in lay.buttons:
            bg = theme.BUTTON_HOVER if b.rect.collidepoint(mouse) else theme.BUTTON
            pygame.draw.rect(surface, bg, b.rect, border_radius=5)
            pygame.draw.rect(surface, theme.BUTTON_EDGE, b.rect, 1, border_radius=5)
            if req.kind == "card":
                t = fonts.text(fonts.fit(b.label, 14, b.rect.width - 12), 14, theme.BUTTON_TEXT)
                surface.blit(t, t.get_rect(midleft=(b.rect.x + 8, b.rect.centery)))
                continue
            t = fonts.text(fonts.fit(b.label, 15, b.rect.width - 8), 15, theme.BUTTON_TEXT, bold=True)
            surface.blit(t, t.get_rect(center=b.rect.center))

    def process(self, req: ChanceRequest, events: list[pygame.event.Event]) -> object | None:
        """Handle events; the answer once one is given, else None."""
        size = self.window.surface.get_size()
        ctl = self.window.controller
        for ev in events:
            if ev.type == pygame.QUIT:
                ctl.request_quit()
            elif ev.type == pygame.KEYDOWN and ctl.quit_guard.asking:
                ctl.quit_answer(ev.key, ev.mod)
            elif ev.type == pygame.KEYDOWN and self._window_key(ev):
                pass
            elif ctl.quit_guard.asking:
                continue
            elif ev.type == pygame.MOUSEMOTION:
                self.window.view.ui.mouse = ev.pos
            elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
                for b in self.layout(req, size).buttons:
                    if b.rect.collidepoint(ev.pos):
                        got = self._press(req, b.value)
                        if got is not None:
                            return got
            elif ev.type == pygame.KEYDOWN:
                got = self._key(req, ev)
                if got is not None:
                    return got
            if not ctl.running:
                raise QuitRequested
        return None

    def _window_key(self, ev: pygame.event.Event) -> bool:
        """Ctrl+Q, Ctrl+S and Esc while the dialog is open; True if ``ev`` was one of them.

        Ctrl+Q quits (asking first when there is unsaved play); Ctrl+S saves the game so far (the
        results given in this dialog are kept; the rest is asked again on load); Esc clears what
        was typed (a die or a card must still be given for the game to go on).
        """
        ctl = self.window.controller
        mod = getattr(ev, "mod", 0)
        if mod & pygame.KMOD_CTRL and ev.key == pygame.K_q:
            ctl.request_quit()
        elif mod & pygame.KMOD_CTRL and ev.key == pygame.K_s:
            if ctl.session is None:
                ctl.toast("The game is being set up: nothing to save yet (Ctrl+Q quits).")
            else:
                ctl.save()
        elif ev.key == pygame.K_ESCAPE:
            self.typed = ""
            self.refused = ""
            ctl.toast("This result is needed to go on: give it, or Ctrl+S to save, Ctrl+Q to quit.")
        else:
            return False
        return True

    def _press(self, req: ChanceRequest, value: object) -> object | None:
        if isinstance(value, tuple):
            if value[0] == "digit":
                if len(self.typed) < 2:
                    self.typed += str(value[1])
                return None
            if value[0] == "clear":
                self.typed = ""
                return None
            if value[0] == "submit":
                return self._submit(req)
            if value[0] == "more":
                return None
        return value

    def _submit(self, req: ChanceRequest) -> object | None:
        """The typed answer if it is legal (a refused answer would count against the player)."""
        if not self.typed:
            return None
        if req.kind == "card":
            answer = self.typed.strip()
            matches = self.card_matches(req)
            if answer not in req.legal:
                if len(matches) != 1:
                    self.refused = (
                        f"{len(matches)} cards match {answer!r}: type more, or click one"
                        if matches
                        else f"no card in the draw pile matches {answer!r}"
                    )
                    return None
                answer = matches[0]
            self.typed = ""
            self.refused = ""
            return answer
        answer, self.typed = self.typed, ""
        self.refused = ""
        return answer

    def _key(self, req: ChanceRequest, ev: pygame.event.Event) -> object | None:
        if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if req.kind == "shuffle":
                return "ok"
            return self._submit(req)
        if ev.key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
            return None
        ch = ev.unicode if isinstance(getattr(ev, "unicode", None), str) else ""
        if not ch or not ch.isprintable():
            return None
        if req.kind == "card":
            self.typed += ch
            return None
        if not ch.isdigit():
            return None
        if req.kind == "%D":
            if len(self.typed) < 2:
                self.typed += ch
            return None
        v = int(ch)
        return v if v in req.legal else None

    def ask(self, req: ChanceRequest) -> object:
        """The TableSource callback: loop until the player answers (nested in the window)."""
        self.typed = ""
        self.refused = ""
        clock = pygame.time.Clock()
        while True:
            got = self.process(req, pygame.event.get())
            if got is not None:
                self.window.controller.dirty = True
                return got
            self.window.controller.tick()
            self.draw(self.window.surface, req)
            if self.window.controller.quit_guard.asking:
                self.window.draw_question()
            pygame.display.flip()
            clock.tick(30)


class Window:
    """The game window: display surface, view, controller and dialogs."""

    def __init__(
        self,
        session: Session | None = None,
        *,
        size: tuple[int, int] = DEFAULT_SIZE,
        save_path: Path | str | None = None,
        resizable: bool = True,
        autosave: bool = True,
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        flags = pygame.RESIZABLE if resizable else 0
        self.surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("solo — Combat! (house edition)")
        self.view = GameView(session.game if session is not None else None, size)
        self.controller = Controller(self.view, session, save_path=save_path)
        self.dialog = ChanceDialog(self)
        self.frames = 0
        self.start_screen: StartScreen | None = None
        """The start screen, while or after it was shown (``solo play`` with no scenario)."""
        self.autosave = autosave
        """Keep the game's log in the user data folder after each decision (solo.render.autosave)."""
        self._autosaved: int | None = None
        """How many inputs the autosave holds (None: not written since the game was attached)."""
        self.owns_autosave = False
        """Whether the autosave is this window's game (written by it, or the interrupted game it
        continues): only then do a quit and the game's end clear it."""

    def attach(self, session: Session) -> None:
        """Show and play ``session``'s game (table mode builds the game after the window opens)."""
        self.view.game = session.game
        self.controller.session = session
        self.controller.quit_guard.mark_saved(session.game)
        # a game shown already over (a finished save) neither writes nor clears the autosave
        self._autosaved = len(session.game.inputs) if session.game.pending is not None else None
        self.controller.dirty = True
        if session.window:  # Continue: the pace and standing choices the save kept
            self.controller.restore_window_settings(session.window)
        if session.source_log is not None:  # Continue: the standing choices it was saved with
            self.view.ui.standing = StandingChoices.from_dict(session.standing)
        for w in session.warnings:
            self.controller.toast(w)

    def step(self, events: list[pygame.event.Event] | None = None) -> bool:
        """One frame: handle ``events`` (default: pygame's queue), redraw if needed; False once closed."""
        for ev in pygame.event.get() if events is None else events:
            self.controller.handle(ev)
            if not self.controller.running:
                self.clear_autosave()
                return False
        self.keep_autosave()
        self.controller.tick()
        if self.controller.dirty:
            self.draw()
        self.frames += 1
        return self.controller.running

    def keep_autosave(self) -> None:
        """After a decision: the game's log to the autosave (solo.render.autosave); a game that is
        over clears it. A folder that cannot be written is said once, then autosave stops."""
        ctl = self.controller
        g = ctl.live
        if not self.autosave or ctl.session is None or g is None:
            return
        if g.pending is None:
            if self.owns_autosave:
                clear_autosave()
                self.owns_autosave = False
            return
        if self._autosaved == len(g.inputs):
            return
        ctl.session.standing = self.view.ui.standing.to_dict()
        try:
            write_autosave(ctl.session, ctl.save_path)
        except (OSError, SoloError) as exc:
            ctl.toast(f"Autosave is off: cannot write {autosave_file()} ({exc}).")
            self.autosave = False
            return
        self._autosaved = len(g.inputs)
        self.owns_autosave = True

    def clear_autosave(self) -> None:
        """The player quit: the autosave (if it is this game's) is no longer an interrupted game."""
        if self.autosave and self.owns_autosave:
            clear_autosave()
            self.owns_autosave = False

    def draw_question(self) -> None:
        """The "quit with unsaved play?" box over what is drawn (solo.render.quit_guard)."""
        draw_question(self.surface, self.view.fonts, self.controller.quit_guard.unsaved(self.controller.live))

    def draw(self) -> None:
        """Redraw the whole window and show it."""
        current = pygame.display.get_surface()
        if current is not None:
            self.surface = current
        if self.surface.get_size() != self.view.layout.size:
            self.view.resize(self.surface.get_size())
        self.view.draw(self.surface)
        if self.controller.quit_guard.asking:
            self.draw_question()
        pygame.display.flip()
        self.controller.dirty = False

    def start(
        self, data: HouseData, *, max_frames: int | None = None, seed: int = 1, table: bool = False
    ) -> StartChoice | None:
        """The start screen (solo.render.start) until the player starts or continues a game.

        ``seed`` and ``table`` are preset (``--seed``, ``--table``). None when the window is
        closed (or after ``max_frames`` frames: tests, benchmarks).
        """
        screen = StartScreen(data, self.view.fonts)
        screen.seed, screen.table = seed, table
        self.start_screen = screen
        clock = pygame.time.Clock()
        frames = 0
        while max_frames is None or frames < max_frames:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT or (
                    ev.type == pygame.KEYDOWN
                    and ev.key == pygame.K_q
                    and getattr(ev, "mod", 0) & pygame.KMOD_CTRL
                ):
                    return None  # nothing is being played yet: nothing to lose
                if ev.type == pygame.VIDEORESIZE:
                    self.surface = pygame.display.get_surface()
                got = screen.handle(ev, self.surface.get_size())
                if got is not None:
                    screen.remember()  # the pace, scenario and options for the next run
                    return got
            screen.draw(self.surface)
            pygame.display.flip()
            frames += 1
            clock.tick(30)
        return None

    def run(self, *, max_frames: int | None = None) -> int:
        """The main loop (60 frames per second at most); returns the exit status 0."""
        clock = pygame.time.Clock()
        try:
            while self.step():
                if max_frames is not None and self.frames >= max_frames:
                    break
                clock.tick(FPS)
        except QuitRequested:
            self.clear_autosave()
        return 0

    def close(self) -> None:
        """Close the display."""
        pygame.display.quit()


def _preview_setup(window: Window, scenario: str, card_set: str | None, map_set: str | None) -> HouseData:
    """Table mode: show the scenario's map, and give the dialog the card set, before set-up asks.

    Returns the data loaded, for the game to use (the same board: the map does not move).
    """
    from solo.data.maps import Board
    from solo.data.scenario import load_scenario

    data = data_for(card_set, map_set)
    sc = load_scenario(scenario, data)
    window.dialog.data = data
    window.view.preview(Board.for_map(sc.map_of(data.maps), data.terrain), night=sc.night)
    return data


def _is_table_save(path: str) -> bool:
    """Whether the log at ``path`` was saved in table mode (its header's policy says so), so
    continuing it asks the player for the dice and cards again. False for a log that cannot be
    read (loading it then says why)."""
    try:
        header, _events = read_log(path)
    except (LogError, OSError):
        return False
    return header.policy.endswith("(table)")


def play(
    scenario: str | None = None,
    *,
    seed: int = 1,
    table: bool = False,
    load: str | None = None,
    save: str | None = None,
    size: tuple[int, int] = DEFAULT_SIZE,
    max_frames: int | None = None,
    branch_from: tuple[str, tuple[int, int] | int | str] | None = None,
    card_set: str | None = None,
    map_set: str | None = None,
    options: dict[str, Any] | None = None,
    start_screen: bool = True,
) -> int:
    """``solo play``: open the window on a new game of ``scenario`` (or a loaded log) and play it.

    With no scenario, log or branch the start screen comes first (solo.render.start; unless
    ``start_screen`` is False: then the default scenario starts at once). ``options``: house
    options changed for a new game.

    ``branch_from=(log, point)`` (``solo play --from LOG@POINT``): play on from
    that point of the log (solo.playtest.history.History.branch); a save writes a new
    log naming its parent and the branch point. ``card_set``/``map_set`` (``--cards``/``--maps``)
    are a designer's data folders for a new game (a loaded log names its own). Returns the exit
    status (0).
    Raises :class:`~solo.core.errors.SoloError` for a bad scenario or log, and
    :class:`~solo.playtest.history.PointError` for a point not in the log (the CLI prints it).
    """
    from solo.playtest.play import DEFAULT_SCENARIO

    started = time.perf_counter()
    resumed: str | None = None
    branched = None
    pace: str | None = None
    if branch_from is not None:  # checked before the window opens
        branched = branch_session(branch_from[0], branch_from[1])
    try:
        window = Window(None, size=size, save_path=save)
    except pygame.error as exc:
        raise SoloError(
            f"cannot open a window ({exc}); play headless with `solo run`, or draw with `solo render`"
        ) from None
    try:
        if scenario is None and not load and branched is None and start_screen:
            choice = window.start(data_for(card_set, map_set), max_frames=max_frames, seed=seed, table=table)
            if choice is None:
                return 0
            pace = choice.pace
            if choice.load:
                load = choice.load
                resumed = choice.resumed
            else:
                scenario, seed, table, options = choice.scenario, choice.seed, choice.table, choice.options
        table = table or (bool(load) and _is_table_save(load))
        callback = window.dialog.ask if table else None
        try:
            if branched is not None:
                session = branched
            elif load:
                session = load_session(load, table=callback)
            else:
                data = (
                    _preview_setup(window, scenario or DEFAULT_SCENARIO, card_set, map_set) if table else None
                )
                session = new_session(
                    scenario or DEFAULT_SCENARIO,
                    seed=seed,
                    data=data,
                    table=callback,
                    card_set=card_set,
                    map_set=map_set,
                    options=options,
                )
        except QuitRequested:
            return 0
        if pace is not None and "pace" not in session.window:
            window.view.stage.restore({"pace": pace})
        if resumed is not None:  # the autosave of an interrupted game: saves go where they went
            session.source_log = resumed or None
            window.controller.save_path = Path(resumed) if resumed else None
        window.attach(session)
        if resumed is not None:
            window.view.ui.standing = StandingChoices.from_dict(session.standing)
            window.controller.quit_guard.saved_inputs = -1  # not in the player's own save
            window.owns_autosave = True
            window.controller.toast(f"Continued the interrupted game at decision {len(session.game.inputs)}.")
        if branched is not None:
            parent = branched.header().parent or {}
            window.controller.toast(
                f"Branch of {branch_from[0]} at #{parent.get('at_input')} "
                f"({parent.get('turn')}.{parent.get('impulse')}): Ctrl+S saves a new log."
            )
        window.draw()
        window.first_frame_seconds = time.perf_counter() - started  # type: ignore[attr-defined]
        return window.run(max_frames=max_frames)
    finally:
        window.close()
