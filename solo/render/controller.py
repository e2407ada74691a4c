"""Pygame events → answers to the game's pending Decision (``game.apply``), and view controls.

Mouse: left click a card (play/discard), an option button, a rose direction, a
target on the map (ringed), or a counter (selects it: LOS origin and log
filter); right-drag pans; the wheel zooms the map and scrolls the option list
and the log. Keys: see :data:`KEYS_HELP`.

Every answer goes through :meth:`Controller.answer`, which calls
``game.apply`` with a legal key only: the engine records it as the player's
input, exactly as a bot's or a replayed one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import attrs
import pygame

from solo.core.errors import SoloError
from solo.core.log import LogError
from solo.engine.game import Game
from solo.playtest.history import History, PointError, UndoRefused, undo, undo_blocker
from solo.playtest.play import recipe_of
from solo.playtest.policies import SimplePolicy
from solo.playtest.standing import DUCK_BACK_CAPTIONS
from solo.render import choices, stage_draw
from solo.render.decision_panel import ORDER_DIGIT_GROUPS, ORDER_DIGITS, ORDER_KEYS, number_keys
from solo.render.frame import GameView
from solo.render.quit_guard import QuitGuard
from solo.render.session import Session, session_from_history
from solo.render.stage_control import StageControls
from solo.render.stage_view import side_of
from solo.render.start import remember_save
from solo.render.words import plain, word
from solo.rules.vehicles.state import vehicles_of

TOOLBAR_HELP: tuple[tuple[str, str], ...] = (
    ("Undo (Ctrl+Z)", "take back the last choice (solo.playtest.history.undo)"),
    ("Sandbox undo: off/ON", "allow undo past new information; marks the log sandbox: true"),
    ("Review (H)", "review mode over this game's history"),
    ("Branch here", "review: play on from the point shown (the old line is left behind)"),
    ("Bookmark (B)", "review: name the point shown"),
    ("< Back / Forward >", "review: one decision back / forward"),
)
"""The toolbar buttons added for issue 6 (undo, sandbox, review, branch)."""

KEYS_HELP: tuple[tuple[str, str], ...] = (
    (
        "1-9, 0",
        "choose option 1-10; a direction: the digit is the direction; an order: its own key, the same "
        "for every man and shown on its button: "
        + "; ".join(
            ", ".join(f"{ORDER_DIGITS[o] % 10} {o.replace('_', ' ')}" for o in group)
            for group in ORDER_DIGIT_GROUPS
        ),
    ),
    ("Enter", "the default answer, else the first option"),
    ("Space", "the rules' default answer (no Duck Back, carry on moving, Hide...)"),
    ("N", "auto: answer with the simple policy until the next turn"),
    ("Ctrl+S", "save the game (the log format of solo run --log); works with any dialog open"),
    (
        "Ctrl+Q, close button",
        "quit; with unsaved play it asks first: Y (or Ctrl+Q) quit, S save then quit, Esc (or N) back",
    ),
    ("L", "hex labels on/off"),
    ("R", "dice rolls in the log on/off"),
    ("F", "show hidden information (spoilers) on/off"),
    ("V", "vehicle displays on/off (click a vehicle to show its display)"),
    ("E", "Emergency Stop, when a Driver's is asked (C2 31.2)"),
    ("D", "standing choice: Duck Back ask / never / if fired on (7.19)"),
    ("M", "standing choice: carry on moving (m steps, §6.7) on/off"),
    ("G", "standing choice: rules defaults (no initiative swap, first card-effect pick) on/off"),
    ("T", "the order just given goes to the man's whole team this turn"),
    (
        "Shift+letter",
        "an order, when one is asked: " + ", ".join(f"{k.upper()} {v}" for k, v in ORDER_KEYS.items()),
    ),
    ("P", "pace of the Enemy's turn: Instant / Step (Space or click: next step) / Timed"),
    ("[ / ]", "Timed pace: faster / slower (0.25-2 s a step)"),
    ("Esc (while the Enemy plays)", "show the rest of the Impulse at once"),
    ("Ctrl+Z", "undo the last choice (refused after new information, unless Sandbox undo is on)"),
    ("H", "review mode on/off: step through this game's history, read-only"),
    ("Left / Right", "review: back / forward one decision"),
    ("Shift+Left / Right", "review: back / forward one Impulse"),
    ("Ctrl+Left / Right, PgUp / PgDn", "review: back / forward one turn"),
    ("B", "bookmark the point shown (b1, b2...; saved in the log, solo play --from LOG@b1)"),
    (
        "Esc",
        "review: back to the live game; a table-mode dialog: clear what was typed; the quit question: "
        "back to the game; else clear the selection and the log filter",
    ),
    ("wheel, + / -", "zoom the map (wheel over a panel scrolls it)"),
    ("right-drag, arrows", "pan the map (arrows: not in review); Home fits it"),
    ("PgUp / PgDn / End", "scroll the log (not in review)"),
)
"""The window's keyboard controls (shown by ``solo play --help`` and the README)."""

CLICK_SLOP = 6
"""A press and release within this many pixels is a click, not a drag."""
TOAST_SECONDS = 3.5
AUTO_LIMIT = 20000


REVIEW_HELP = "Left/Right decision · Shift impulse · PgUp/PgDn turn · B bookmark · Esc back"


@attrs.define
class Review:
    """Review mode: the live game's history and the point shown (a rebuilt, read-only game)."""

    history: History
    index: int
    game: Game


class Controller(StageControls):
    """Turns pygame events into game answers and view changes for one :class:`GameView`."""

    def __init__(
        self,
        view: GameView,
        session: Session | None,
        *,
        save_path: Path | str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.view = view
        self.session = session
        self.save_path = Path(save_path) if save_path else None
        self.clock = clock
        self.running = True
        self.dirty = True
        self._press: tuple[int, int] | None = None
        self._drag: tuple[int, int] | None = None
        self.answered: list[str] = []
        """Keys this controller gave to the game, in order (for tests and the status line)."""
        self.review: Review | None = None
        """Review mode (H): the history shown instead of the live game, or None."""
        self.view.now = clock
        self.quit_guard = QuitGuard()
        """Unsaved play, and the "quit without saving?" question (solo.render.quit_guard)."""
        self.quit_guard.mark_saved(session.game if session is not None else None)

    @property
    def game(self):
        """The game shown (in review mode: the rebuilt game at the point shown, read-only)."""
        return self.view.game

    @property
    def live(self) -> Game | None:
        """The game being played (the session's), whatever is shown."""
        if self.session is not None:
            return self.session.game
        return self.view.game

    def _show(self, game: Game) -> None:
        """Show ``game`` (the camera stays: games of one map share its board)."""
        self.view.game = game
        ui = self.view.ui
        ui.option_scroll = 0
        ui.log_scroll = 0
        self.dirty = True

    def _play(self, game: Game) -> None:
        """Make ``game`` the live game (after an undo or a branch) and show it."""
        if self.session is not None:
            self.session.game = game
        self._show(game)

    # -- undo, review, branch, bookmarks (issue 6) ------------------------------

    def undo(self) -> bool:
        """Ctrl+Z: take back the last choice (solo.playtest.history.undo); True if it was.

        Refused when something came to light since that choice (a card, a die, a
        reveal) unless Sandbox undo is on: the status line then says what
        (solo.playtest.history.undo_blocker). Not in review mode or table mode.
        """
        ui = self.view.ui
        g = self.live
        if self.review is not None:
            self.toast("Review mode is read-only: Esc back to the game to undo.")
            return False
        if g is None:
            return False
        try:
            new = undo(g, sandbox=ui.sandbox)
        except UndoRefused as exc:
            why = undo_blocker(g) or str(exc)
            ui.status = f"Cannot undo: {why}"
            if recipe_of(g) is not None and g.inputs:
                ui.status += " (Sandbox undo allows it, and marks the log)"
            self.toast("Undo refused: see the status line.")
            return False
        marked = recipe_of(new) is not None and recipe_of(new).sandbox and not recipe_of(g).sandbox
        last = g.inputs[-1]
        self._play(new)
        if self.session is not None:
            self.session.auto = {i: w for i, w in self.session.auto.items() if i < len(new.inputs)}
        if self.answered:
            self.answered.pop()
        ui.status = ""
        choice = plain(str(last["choice"]), new.data)
        text = f"Undone: {last['decision'].replace('_', ' ')} '{choice}'."
        if marked:
            text += " Sandbox: past new information, the log is marked sandbox."
        self.toast(text)
        return True

    def toggle_sandbox(self) -> None:
        """The Sandbox undo toggle: undo may go back past new information (the log says so)."""
        ui = self.view.ui
        ui.sandbox = not ui.sandbox
        self.toast(
            "Sandbox undo ON: undo goes back past new information; the log will be marked sandbox."
            if ui.sandbox
            else "Sandbox undo off: undo stops at new information."
        )

    def enter_review(self) -> bool:
        """H: review the live game's history, starting at its last point; True if review mode is on."""
        s = self.session
        g = self.live
        if s is None or g is None:
            return False
        if s.table or recipe_of(g) is None:
            self.toast("Review needs a game its log rebuilds (not table mode).")
            return False
        try:
            history = History(
                s.header(),
                [i["choice"] for i in g.inputs],
                data=g.data,
                source=str(self.save_path or s.source_log or s.parent_log or "") or None,
            )
            index = history.last
            self.review = Review(history, index, history.at(index))
        except LogError as exc:
            self.toast(f"Cannot review: {exc}")
            return False
        self.view.ui.reviewing = True
        self._show_review()
        return True

    def leave_review(self) -> None:
        """Esc: back to the live game."""
        self.review = None
        ui = self.view.ui
        ui.reviewing = False
        ui.status = ""
        if self.live is not None:
            self._show(self.live)

    def review_to(self, index: int) -> None:
        """Show decision ``index`` of the history (rebuilt from the log header)."""
        r = self.review
        if r is None:
            return
        if index == r.index:
            self.toast("Start of the game." if index == 0 else "End of the game so far.")
            return
        r.index = index
        r.game = r.history.at(index)
        self._show_review()

    def review_step(self, by: str, forward: bool) -> None:
        """Step the review by ``by`` (decision, activation, impulse, turn: history_view.STEPS)."""
        r = self.review
        if r is None:
            return
        self.review_to(r.history.next(r.index, by) if forward else r.history.prev(r.index, by))

    def _show_review(self) -> None:
        r = self.review
        assert r is not None
        pos = r.history.position(r.index)
        self.view.ui.status = f"REVIEW {pos.label} · {REVIEW_HELP}"
        self._show(r.game)

    def branch_here(self) -> bool:
        """Branch here: play on from the point shown (History.branch); the window plays the branch."""
        r = self.review
        if r is None:
            self.toast("Branch here works in review mode (H).")
            return False
        try:
            game = r.history.branch(r.index)
        except (LogError, SoloError) as exc:
            self.toast(f"Cannot branch: {exc}")
            return False
        old = self.session
        new = session_from_history(r.history, game, parent_log=r.history.source)
        if old is not None:
            new.scenario, new.seed = old.scenario, old.seed
        self.session = new
        self.save_path = None  # a branch saves beside its parent, never over it
        self.review = None
        ui = self.view.ui
        ui.reviewing = False
        ui.status = ""
        self._play(game)
        pos = r.history.position(r.index)
        self.toast(f"Branched at #{r.index} ({pos.turn}.{pos.impulse}): your choices from here.")
        return True

    def bookmark(self) -> str | None:
        """B: name the point shown ``bN`` (kept in the game's log header when saved); the name."""
        g = self.live
        recipe = recipe_of(g) if g is not None else None
        if g is None or recipe is None:
            self.toast("Bookmarks need a game its log rebuilds (not table mode).")
            return None
        index = self.review.index if self.review is not None else len(g.inputs)
        n = 1
        while f"b{n}" in recipe.bookmarks:
            n += 1
        name = f"b{n}"
        try:
            if self.review is not None:
                self.review.history.add_bookmark(name, index)
        except PointError as exc:
            self.toast(str(exc))
            return None
        recipe.bookmarks[name] = index
        self.toast(f"Bookmark {name} at decision #{index} (saved with the log: solo play --from LOG@{name}).")
        return name

    # -- answers -------------------------------------------------------------

    def answer(self, key: str) -> bool:
        """Answer the pending decision with ``key`` if it is legal; True if the game took it."""
        g = self.game
        if g is None or g.pending is None or key not in g.pending.keys:
            return False
        if self.review is not None:
            self.toast("Review mode is read-only: Branch here to play from this point, or Esc.")
            return False
        try:
            g.apply(key)
        except SoloError as exc:  # table mode: a refused die, a ChanceError
            self.toast(f"Error: {exc}")
            return False
        self.answered.append(key)
        ui = self.view.ui
        ui.status = ""
        ui.option_scroll = 0
        ui.log_scroll = 0
        self.dirty = True
        self.run_standing()
        self.stage_feed()
        return True

    # -- standing choices (issue 12 item 2) ------------------------------------

    def run_standing(self) -> int:
        """Answer every decision the standing choices cover, in a row; how many were answered.

        Each answer is given by ``game.apply`` (the log holds it as a choice, a replay gives it
        back) and noted in the session's ``auto`` (saved in the log header: input index → the
        setting). Not in review mode.
        """
        g = self.live
        if g is None or self.review is not None:
            return 0
        standing = self.view.ui.standing
        n = 0
        why = ""
        while g.pending is not None and n < AUTO_LIMIT:
            got = standing.answer(g)
            if got is None:
                break
            key, why = got
            try:
                g.apply(key)
            except SoloError as exc:  # table mode: a refused die
                self.toast(f"Error: {exc}")
                break
            if self.session is not None:
                self.session.auto[len(g.inputs) - 1] = why
            self.answered.append(key)
            n += 1
        if n:
            self.toast(f"Standing choices answered {n} decision(s) (last: {plain(why, g.data)}).")
            self.dirty = True
            self.stage_feed()
        return n

    def standing_tool(self, name: str) -> None:
        """D, M, G: change a standing choice, then apply it to what is pending."""
        st = self.view.ui.standing
        if name == "duck":
            st.cycle_duck_back()
            self.toast(f"{DUCK_BACK_CAPTIONS[st.duck_back]}.")
        elif name == "carry":
            st.carry_on = not st.carry_on
            self.toast("Carry on moving: " + ("on (m steps move without asking)." if st.carry_on else "ask."))
        elif name == "defaults":
            st.rules_defaults = not st.rules_defaults
            self.toast("Rules defaults: " + ("on." if st.rules_defaults else "ask."))
        self.run_standing()
        self.dirty = True

    def order_key(self, key: int) -> bool:
        """Shift+letter while an order is asked: give that order (:data:`ORDER_KEYS`); True if given.

        An order the man may not take now is refused with a toast (and the key does nothing else).
        """
        g = self.game
        name = chr(key) if pygame.K_a <= key <= pygame.K_z else ""
        order = ORDER_KEYS.get(name)
        if g is None or g.pending is None or g.pending.kind.value != "give_order" or order is None:
            return False
        if order not in g.pending.keys:
            self.toast(f"{word(order, g.data)} is not among this man's orders now.")
            return True
        return self.answer(order)

    def team_order(self) -> bool:
        """T: the order just given (with its direction) goes to the rest of the man's team this turn."""
        g = self.live
        if g is None or self.review is not None:
            return False
        to = self.view.ui.standing.team_order_from_last(g)
        if to is None:
            self.toast("Order to team: give one man his order first, then T.")
            return False
        team = g.state.teams[to.team].name if to.team in g.state.teams else to.team
        said = word(to.order, g.data)
        self.toast(f"Team order: {team} {said}" + (f" {to.direction}" if to.direction else "") + ".")
        self.run_standing()
        return True

    def answer_default(self) -> bool:
        """Space: the rules' default answer, when the decision has one."""
        g = self.game
        if g is None or g.pending is None:
            return False
        key = choices.default_key(g.pending)
        if key is None:
            self.toast(f"No default for '{g.pending.kind.value.replace('_', ' ')}': choose an option.")
            return False
        return self.answer(key)

    def answer_enter(self) -> bool:
        """Enter: the default answer, else the first option."""
        g = self.game
        if g is None or g.pending is None:
            return False
        key = choices.default_key(g.pending) or g.pending.keys[0]
        return self.answer(key)

    def auto_turn(self) -> int:
        """N: answer with the simple policy until the turn changes (or the game ends); returns how many."""
        g = self.game
        if g is None or g.pending is None:
            return 0
        policy = SimplePolicy()
        start = g.state.flow.turn
        n = 0
        while g.pending is not None and (g.state.flow.turn == start or n == 0) and n < AUTO_LIMIT:
            if not self.answer(policy(g, g.pending)):
                break
            n += 1
        self.toast(f"Auto: {n} decision(s) answered by the simple policy.")
        return n

    def save(self) -> Path | None:
        """Ctrl+S: write the log (solo.core.log.write_log, header from solo.playtest.play.header_for)."""
        if self.session is None:
            return None
        path = self.save_path or self.session.default_save_path()
        self.session.window = self.window_settings()
        self.session.standing = self.view.ui.standing.to_dict()
        try:
            self.session.save(path)
        except (OSError, SoloError) as exc:
            self.toast(f"Could not save to {path}: {exc}")
            return None
        self.save_path = path  # later saves go to the same file
        self.quit_guard.mark_saved(self.session.game)
        remember_save(path)  # offered on the start screen (solo.render.start)
        self.toast(f"Saved to {path} ({len(self.session.game.events)} events).")
        return path

    def request_quit(self) -> None:
        """Ctrl+Q or the close button: quit now, or ask first when there is unsaved play."""
        if self.quit_guard.unsaved(self.live) and self.session is not None:
            self.quit_guard.asking = True
            self.dirty = True
        else:
            self.running = False

    def quit_answer(self, key: int, mod: int) -> None:
        """A key while "quit with unsaved play?" is open (solo.render.quit_guard.QuitGuard.answer)."""
        got = self.quit_guard.answer(key, mod)
        if got == "quit" or (got == "save" and self.save() is not None):
            self.running = False
        if got is not None:
            self.quit_guard.asking = False
        self.dirty = True

    def toast(self, text: str) -> None:
        """Show ``text`` over the map for a few seconds."""
        self.view.ui.toast = text
        self.view.ui.toast_until = self.clock() + TOAST_SECONDS
        self.dirty = True

    def tick(self) -> None:
        """Per-frame upkeep: expire the toast; the stage's clock (Timed pace, moving counters)."""
        ui = self.view.ui
        if ui.toast and self.clock() > ui.toast_until:
            ui.toast = ""
            self.dirty = True
        self.stage_feed()
        if self.view.stage.tick(self.clock()):
            self.dirty = True

    # -- events ----------------------------------------------------------------

    def handle(self, ev: pygame.event.Event) -> None:
        """Handle one pygame event."""
        t = ev.type
        if t == pygame.QUIT:
            self.request_quit()
        elif t == pygame.VIDEORESIZE:
            self.view.resize((ev.w, ev.h))
            self.dirty = True
        elif t == pygame.MOUSEMOTION:
            self._motion(ev.pos)
        elif t == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1:
                self._press = ev.pos
            elif ev.button == 3:
                self._drag = ev.pos
        elif t == pygame.MOUSEBUTTONUP:
            if ev.button == 1 and self._press is not None:
                px, py = self._press
                self._press = None
                if abs(ev.pos[0] - px) <= CLICK_SLOP and abs(ev.pos[1] - py) <= CLICK_SLOP:
                    self.click(ev.pos)
            elif ev.button == 3:
                self._drag = None
        elif t == pygame.MOUSEWHEEL:
            self.wheel(ev.y, self.view.ui.mouse)
        elif t == pygame.KEYDOWN:
            self.key(ev.key, ev.mod)
        elif t in (pygame.WINDOWEXPOSED, pygame.WINDOWENTER, pygame.WINDOWFOCUSGAINED):
            self.dirty = True

    def _motion(self, pos: tuple[int, int]) -> None:
        ui = self.view.ui
        ui.mouse = pos
        if self._drag is not None and self.view.camera is not None:
            dx, dy = pos[0] - self._drag[0], pos[1] - self._drag[1]
            self.view.camera.pan(dx, dy)
            self._drag = pos
        ui.hover_hex = self.view.hex_at(pos)
        self.view.update_fan(pos)
        self.dirty = True

    def wheel(self, y: int, pos: tuple[int, int]) -> None:
        """Mouse wheel: zoom over the map, scroll over the options or the log."""
        lay = self.view.layout
        ui = self.view.ui
        if lay.map.collidepoint(pos) and self.view.camera is not None:
            self.view.camera.zoom(1 if y > 0 else -1, pos)
            ui.hover_hex = self.view.hex_at(pos)
        elif self.view.log_rect().collidepoint(pos):
            ui.log_scroll = max(0, ui.log_scroll + 3 * y)
        elif lay.decision.collidepoint(pos):
            dl = self.view.decision_layout()
            top = max(0, dl.content_height - dl.options_area.height) if dl else 0
            ui.option_scroll = max(0, min(top, ui.option_scroll - 30 * y))
        self.dirty = True

    def click(self, pos: tuple[int, int]) -> None:
        """A left click at ``pos``: a hotspot (card, option, tool, log control), else the map."""
        self.view.ui.mouse = pos
        hs = self.view.hotspot_at(pos)
        if self.stage_click(pos, hs):
            return
        if hs is not None:
            kind = hs.action[0]
            if kind in ("option", "card"):
                self.answer(hs.action[1])
            elif kind == "tool":
                self.tool(hs.action[1])
            elif kind == "log" and hs.action[1] == "clear_filter":
                self.view.ui.selected = None
            elif kind == "vehicle":
                self.view.ui.vehicle_tab = hs.action[1]
            elif kind == "seat":
                self.click_seat(hs.action[1], hs.action[2])
            self.dirty = True
            return
        if self.view.layout.map.collidepoint(pos):
            self.click_map(pos)

    def click_map(self, pos: tuple[int, int]) -> None:
        """A click on the map: answer the decision if the click names one of its options, else select."""
        g = self.game
        if g is None:
            return
        h = self.view.hex_at(pos)
        cid = self.view.counter_at(pos)
        vid = self.view.vehicle_at(pos) if cid is None else None
        d = g.pending
        if d is not None and h is not None:
            keys = choices.keys_at(g, d, h, character=cid, vehicle=vid)
            if len(keys) == 1:
                self.answer(keys[0])
                return
            if len(keys) > 1:
                self.toast(f"{len(keys)} options for {h}: choose one of the buttons.")
                return
            if d.kind.value == "order_direction" and d.actor in g.state.characters:
                frm = g.state.characters[d.actor].hex
                key = choices.direction_key_towards(g, d, frm, h) if frm is not None else None
                if key is not None:
                    self.answer(key)
                    return
            if d.kind.value == "order_target" and d.actor in g.state.characters:
                frm = g.state.characters[d.actor].hex
                key = choices.turret_key_towards(g, d, frm, h) if frm is not None else None
                if key is not None:
                    self.answer(key)
                    return
        ui = self.view.ui
        if vid is not None:  # a vehicle: its display is shown (and brought to the front)
            ui.vehicle_tab = vid
            ui.show_vehicles = True
            ui.selected = None
        else:
            ui.selected = cid
            ui.vehicle_tab = None
            if cid is not None and side_of(g, cid) == "enemy":
                self.view.explain = stage_draw.card_of(g, cid)
        ui.log_scroll = 0
        self.dirty = True

    def click_seat(self, vehicle_id: str, position: str) -> None:
        """A click on a vehicle display's row: the Relocate answer naming that seat (C2 31.11.2) if
        the decision has one, else select the man in it (LOS origin and log filter)."""
        g = self.game
        if g is None:
            return
        d = g.pending
        actor = g.state.characters.get(d.actor) if d is not None and d.actor else None
        if d is not None and actor is not None and getattr(actor, "vehicle", None) == vehicle_id:
            for key in (f"seat:{position}", f"swap:{position}"):
                if key in d.keys:
                    self.answer(key)
                    return
        v = vehicles_of(g.state).get(vehicle_id)
        occupant = v.seats[position].occupant if v is not None and position in v.seats else None
        self.view.ui.selected = occupant
        self.view.ui.vehicle_tab = vehicle_id
        self.view.ui.log_scroll = 0
        self.dirty = True

    def tool(self, name: str) -> None:
        """A toolbar button."""
        ui = self.view.ui
        if name == "default":
            self.answer_default()
        elif name == "auto":
            self.auto_turn()
        elif name == "save":
            self.save()
        elif name == "labels":
            ui.labels = not ui.labels
        elif name == "rolls":
            ui.show_rolls = not ui.show_rolls
        elif name == "fog":
            ui.fog = not ui.fog
            self.toast("Hidden information shown (spoilers)." if not ui.fog else "Hidden information hidden.")
        elif name == "undo":
            self.undo()
        elif name == "sandbox":
            self.toggle_sandbox()
        elif name == "review":
            if self.review is None:
                self.enter_review()
            else:
                self.leave_review()
        elif name == "branch":
            self.branch_here()
        elif name == "bookmark":
            self.bookmark()
        elif name == "back":
            self.review_step("decision", False)
        elif name == "forward":
            self.review_step("decision", True)
        elif name in ("duck", "carry", "defaults"):
            self.standing_tool(name)
        elif name == "team":
            self.team_order()
        self.dirty = True

    def key(self, key: int, mod: int = 0) -> None:
        """A key press (see :data:`KEYS_HELP`)."""
        ui = self.view.ui
        g = self.game
        cam = self.view.camera
        ctrl = bool(mod & pygame.KMOD_CTRL)
        shift = bool(mod & pygame.KMOD_SHIFT)
        self.dirty = True
        if self.quit_guard.asking:
            self.quit_answer(key, mod)
            return
        if not ctrl and ((self.view.stage.busy and (shift or self.stage_key(key))) or self.stage_grace(key)):
            return
        if key == pygame.K_p and not ctrl:
            self.cycle_pace()
            return
        if key in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET) and not ctrl:
            secs = self.view.stage.adjust(faster=key == pygame.K_LEFTBRACKET)
            self.toast(f"Timed pace: one Enemy step every {secs:g} s.")
            return
        if shift and not ctrl and self.order_key(key):
            return
        if ctrl and key == pygame.K_s:
            self.save()
        elif ctrl and key == pygame.K_q:
            self.request_quit()
        elif ctrl and key == pygame.K_z:
            self.undo()
        elif key == pygame.K_h:
            self.tool("review")
        elif key == pygame.K_b:
            self.bookmark()
        elif self.review is not None and key in (pygame.K_LEFT, pygame.K_RIGHT):
            by = "turn" if ctrl else "impulse" if shift else "decision"
            self.review_step(by, key == pygame.K_RIGHT)
        elif self.review is not None and key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.review_step("turn", key == pygame.K_PAGEDOWN)
        elif self.review is not None and key == pygame.K_ESCAPE:
            self.leave_review()
        elif pygame.K_0 <= key <= pygame.K_9 or pygame.K_KP0 <= key <= pygame.K_KP9:
            digit = key - pygame.K_0 if key <= pygame.K_9 else key - pygame.K_KP0
            if g is not None and g.pending is not None:
                opt = number_keys(g.pending).get(digit or 10)
                if opt is not None:
                    self.answer(opt)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.answer_enter()
        elif key == pygame.K_SPACE:
            self.answer_default()
        elif key == pygame.K_d:
            self.standing_tool("duck")
        elif key == pygame.K_m:
            self.standing_tool("carry")
        elif key == pygame.K_g:
            self.standing_tool("defaults")
        elif key == pygame.K_t:
            self.team_order()
        elif key == pygame.K_n:
            self.auto_turn()
        elif key == pygame.K_l:
            ui.labels = not ui.labels
        elif key == pygame.K_r:
            ui.show_rolls = not ui.show_rolls
        elif key == pygame.K_f:
            self.tool("fog")
        elif key == pygame.K_v:
            ui.show_vehicles = not ui.show_vehicles
        elif key == pygame.K_e:
            if g is not None and g.pending is not None and "emergency_stop" in g.pending.keys:
                self.answer("emergency_stop")
        elif key == pygame.K_ESCAPE:
            ui.selected = None
            self.view.explain = None
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS) and cam is not None:
            cam.zoom(1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS) and cam is not None:
            cam.zoom(-1)
        elif key == pygame.K_HOME and cam is not None:
            cam.fit(self.view.layout.map)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN) and cam is not None:
            step = 60
            dx = {pygame.K_LEFT: step, pygame.K_RIGHT: -step}.get(key, 0)
            dy = {pygame.K_UP: step, pygame.K_DOWN: -step}.get(key, 0)
            cam.pan(dx, dy)
        elif key == pygame.K_PAGEUP:
            ui.log_scroll += 15
        elif key == pygame.K_PAGEDOWN:
            ui.log_scroll = max(0, ui.log_scroll - 15)
        elif key == pygame.K_END:
            ui.log_scroll = 0
