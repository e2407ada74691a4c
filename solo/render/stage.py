"""The stage: the Enemy's turn shown step by step, at the player's pace (STYLE.md, issue 21 item 1).

The engine runs as always: an answer (``game.apply``) plays on to the next decision at once,
and every event of that stretch is in ``game.events``. The window then *plays the events back*:
:meth:`Stage.feed` cuts them into :class:`Beat` s, one a step of the game (an Enemy Order card,
an Enemy team's initiative, one man's activation with its moves, fire and what the fire did),
and the window shows them one at a time at the pace the player chose (:class:`Pace`):

* ``instant``: nothing is held back (the window shows the state after the engine ran);
* ``step``: each Enemy beat waits for Space or a click; Esc shows the rest of the Impulse;
* ``timed``: one Enemy beat every :attr:`Stage.seconds` seconds (0.25-2 s, keys ``[`` ``]``).

Beats of the Friendly side (his own moves and fire, resolved after his answer) and of the
sequence of play (Impulse start, smoke, fire growth) pass without a wait. The stage only
*reads* events: it never calls into the rules, and the pace changes no roll and no byte of the
log (tests/test_stage.py plays one seed at the three paces and compares the logs).

While beats are held back, the board shows the game as of the beat shown: the state as it
was when the engine told the first event not shown yet (kept by a
:class:`~solo.render.stage_states.StateRecorder` listening to the live game), with what the
engine changed just before telling it put back from the events (:mod:`solo.render.stage_view`).

No pygame here: the controller drives a :class:`Stage` with a clock (tests give a fake one).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence

import attrs

from solo.core.events import Event
from solo.render.stage_states import StateRecorder

__all__ = [
    "EFFECT_KINDS",
    "PACE_SECONDS",
    "Beat",
    "Pace",
    "Stage",
    "beats_of",
]


class Pace(enum.Enum):
    """How the window shows the Enemy's steps (key P; the start screen; saved with the game)."""

    INSTANT = "instant"
    STEP = "step"
    TIMED = "timed"

    @property
    def caption(self) -> str:
        """``"Pace: Step (Space)"``: what the status line and the start screen show."""
        return {
            Pace.INSTANT: "Pace: Instant",
            Pace.STEP: "Pace: Step (Space / click: next, Esc: rest of the Impulse)",
            Pace.TIMED: "Pace: Timed",
        }[self]

    def next(self) -> Pace:
        """Instant → Step → Timed → Instant."""
        order = list(Pace)
        return order[(order.index(self) + 1) % len(order)]


PACE_SECONDS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
"""The delays a Timed pace steps through (seconds per Enemy step)."""
DEFAULT_SECONDS = 1.0
HEX_SECONDS = 0.15
"""How long a moving counter stays on each hex of its path while a beat is shown (picture only)."""

EFFECT_KINDS = frozenset(
    {
        "wound_draw",
        "wound",
        "check",
        "check_ignored",
        "duck_back",
        "morale",
        "killed",
        "incapacitated",
        "captured",
        "reveal",
        "dummy_removed",
        "panic",
        "blast",
        "fragments",
        "routed_off",
        "surrender",
        "spot",
        "emergency_stop_check",
    }
)
"""Event kinds that tell what an action did to someone (the target's wound, morale, Duck Back...):
they stay in the beat of the action that caused them, whoever they are about."""

OWN_BEAT_KINDS = frozenset({"enemy_order", "initiative", "crew_order", "passenger_order", "impulse", "turn"})
"""Event kinds that always start a beat of their own (each Enemy card is a step)."""

GROUPED_KINDS = frozenset({"alert"})
"""Event kinds shown as one step when several come in a row (whoever they are about)."""

CARD_KINDS = frozenset({"enemy_order", "crew_order", "passenger_order", "initiative", "enemy_waiting"})
"""Events of the Enemy Card and Order Phase (and of an Enemy drawn on activation, C2 23.5)."""

REASON_KINDS = (
    "enemy_order",
    "crew_order",
    "passenger_order",
    "initiative",
    "fire_target",
    "target_marker",
    "target_marker_removed",
    "turret_turn",
    "main_gun_fire",
    "run_and_gun",
    "retarget",
    "no_fire",
    "no_throw",
    "sniper",
)
"""Event kinds whose text is a beat's one-line reason, in this order of preference."""


@attrs.frozen
class Beat:
    """One step of the game as the stage shows it: a run of events with one owner.

    ``actor`` is the character or team the step belongs to (None for the sequence of play);
    ``side`` ``"enemy"``, ``"friendly"`` or ``""``; ``waits`` is True for the steps the pace
    holds (Enemy steps the Friendly player may see).
    """

    events: tuple[Event, ...]
    actor: str | None
    side: str
    waits: bool

    @property
    def turn(self) -> int:
        """The turn of its first event."""
        return self.events[0].turn

    @property
    def impulse(self) -> int:
        """The Impulse of its first event (0 outside the Action Phase)."""
        return self.events[0].impulse

    @property
    def first_seq(self) -> int:
        """The seq of its first event."""
        return self.events[0].seq

    @property
    def last_seq(self) -> int:
        """The seq of its last event."""
        return self.events[-1].seq

    @property
    def kinds(self) -> tuple[str, ...]:
        """Its events' kinds, in order."""
        return tuple(e.kind for e in self.events)

    def first(self, *kinds: str) -> Event | None:
        """Its first event of one of ``kinds``, or None."""
        return next((e for e in self.events if e.kind in kinds), None)

    def reason_event(self) -> Event:
        """The event whose text says why this step happened (:data:`REASON_KINDS`), else the first."""
        for kind in REASON_KINDS:
            ev = self.first(kind)
            if ev is not None:
                return ev
        return next((e for e in self.events if e.kind != "roll"), self.events[0])

    def moves(self) -> list[tuple[str, list[str]]]:
        """``(character id, [hex labels])`` of every move of this step, in order (from ``path``)."""
        out = []
        for e in self.events:
            if e.kind == "move" and e.actor and len(e.data.get("path", ())) > 1:
                out.append((e.actor, [str(h) for h in e.data["path"]]))
        return out

    def vehicle_walks(self) -> list[tuple[str, list[tuple[str, int | None]]]]:
        """``(vehicle id, [(hex label, facing or None)...])`` of every vehicle move of this step:
        its start hex, then each step's hex and facing (a turn in place is a step too, C2 31.4)."""
        out = []
        for e in self.events:
            d = e.data
            if e.kind != "vehicle_move" or not d.get("vehicle") or not d.get("start"):
                continue
            walk: list[tuple[str, int | None]] = [(str(d["start"]), None)]
            for s in d.get("steps", ()):
                if isinstance(s, dict):
                    facing = s.get("facing")
                    walk.append(
                        (str(s.get("hex") or walk[-1][0]), facing if isinstance(facing, int) else None)
                    )
            out.append((str(d["vehicle"]), walk))
        return out


SideOf = Callable[[str | None], str]
"""Given an actor id, its side: ``"enemy"``, ``"friendly"`` or ``""``."""


def beats_of(
    events: Sequence[Event], side_of: SideOf, visible: Callable[[Event], bool] = lambda e: True
) -> list[Beat]:
    """Cut ``events`` (one stretch between two decisions) into :class:`Beat` s, in order.

    A beat starts at every event of :data:`OWN_BEAT_KINDS`, at every event about another actor
    than the beat's (unless it is an effect, :data:`EFFECT_KINDS`), and at the player's own
    choices (which are never staged). A roll goes with the event after it (the one that reads
    it); a row of :data:`GROUPED_KINDS` events is one beat. Events with no actor open a beat of the
    sequence of play. ``visible(event)``: whether the Friendly player may see it (the fog); a
    beat with nothing visible never waits.
    """
    out: list[Beat] = []
    cur: list[Event] = []
    owner: str | None = None
    pending_rolls: list[Event] = []

    def close() -> None:
        nonlocal cur, owner
        if cur:
            side = side_of(owner)
            waits = side == "enemy" and any(visible(e) for e in cur if e.kind != "roll")
            out.append(Beat(tuple(cur), owner, side, waits))
        cur = []
        owner = None

    for i, ev in enumerate(events):
        if not ev.automatic:  # the player's choice: not staged, and it ends the step before it
            close()
            continue
        if ev.kind == "roll":  # a die or a draw: it belongs with the event that reads it, next
            pending_rolls.append(ev)
            continue
        actor = ev.actor
        if ev.kind in GROUPED_KINDS and cur and all(e.kind == ev.kind for e in cur if e.kind != "roll"):
            pass  # one cause makes many men Alert: one step
        elif ev.kind in OWN_BEAT_KINDS:
            close()
            owner = actor
        elif actor is None:
            if owner is not None:
                close()
        elif ev.kind in EFFECT_KINDS and (cause := _cause_after(events, i)) is not None:
            if cause != owner or not cur:  # an effect told before its cause: it opens the cause's step
                close()
                owner = cause
        elif ev.kind in EFFECT_KINDS and cur:
            pass  # what the action did: stays with the action
        elif actor != owner or not cur:
            close()
            owner = actor
        if pending_rolls:
            cur.extend(pending_rolls)
            pending_rolls = []
        cur.append(ev)
    if pending_rolls:
        cur.extend(pending_rolls)
    close()
    return out


CAUSE_KINDS = frozenset(
    {"fire", "vehicle_fire", "main_gun_fire", "light_at_fire", "throw", "melee", "panzerfaust"}
)
"""Actions whose effects (:data:`EFFECT_KINDS`) a log may tell before them."""


def _cause_after(events: Sequence[Event], i: int) -> str | None:
    """The actor of the action an effect at ``events[i]`` was told before, if the next event that
    is neither an effect nor a roll is such an action (:data:`CAUSE_KINDS`), else None."""
    for ev in events[i + 1 :]:
        if ev.kind == "roll" or ev.kind in EFFECT_KINDS:
            continue
        return ev.actor if ev.kind in CAUSE_KINDS and ev.automatic else None
    return None


class Stage:
    """The beats still to show, the one shown, and the pace.

    ``clock`` gives seconds (monotonic); the controller passes its own, tests a fake one.
    """

    def __init__(self, pace: Pace = Pace.INSTANT, seconds: float = DEFAULT_SECONDS) -> None:
        self.pace = pace
        self.seconds = seconds
        self.queue: list[Beat] = []
        """Beats not shown yet, oldest first."""
        self.shown: Beat | None = None
        """The beat on stage now (None: nothing held back; the board shows the game as it is)."""
        self.shown_at = 0.0
        """When the shown beat came on stage (clock seconds): moves animate from then."""
        self.seen = 0
        """How many of the game's events were fed (the next feed starts there)."""
        self.played: list[Beat] = []
        """Every beat shown with a wait since the stage was reset (newest last; tests read it)."""
        self.states: StateRecorder | None = None
        """The state as it was at each event of the live game (the view attaches one), or None."""

    # -- feeding --------------------------------------------------------------

    def reset(self, seen: int) -> None:
        """Forget every beat: the game shown changed (undo, branch, load); ``seen`` events are old."""
        self.queue = []
        self.shown = None
        self.seen = seen
        self.played = []

    def feed(
        self,
        events: Sequence[Event],
        side_of: SideOf,
        now: float,
        visible: Callable[[Event], bool] = lambda e: True,
    ) -> int:
        """Take the game's events from :attr:`seen` on; returns how many beats were queued.

        At the Instant pace nothing is queued. A new stretch always starts a new beat.
        """
        new = events[self.seen :]
        if self.shown is None and self.states is not None:
            self.states.forget(self.seen)  # nothing before these is shown again
        self.seen = len(events)
        if not new or self.pace is Pace.INSTANT:
            return 0
        beats = beats_of(new, side_of, visible)
        self.queue.extend(beats)
        if self.shown is None:
            self._settle(now)
        return len(beats)

    # -- playing --------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while a beat is on stage (the pending decision waits until the stage is done)."""
        return self.shown is not None

    @property
    def upto(self) -> int | None:
        """The seq of the last event shown (None: every event is shown)."""
        if self.shown is None:
            return None
        return self.shown.last_seq

    def _settle(self, now: float) -> None:
        """Show the next waiting beat (the beats before it pass at once), or nothing."""
        while self.queue:
            beat = self.queue.pop(0)
            if beat.waits:
                self.shown = beat
                self.shown_at = now
                self.played.append(beat)
                return
        self.shown = None

    def next(self, now: float) -> bool:
        """Space / click (and the Timed clock): show the next Enemy step; True if a beat was on stage."""
        if self.shown is None:
            return False
        self._settle(now)
        return True

    def finish_impulse(self, now: float) -> int:
        """Esc: show at once every beat of the Impulse on stage; returns how many beats passed.

        Stops at the first waiting beat of a later Impulse (or of the next turn's Order Phase).
        """
        if self.shown is None:
            return 0
        here = (self.shown.turn, self.shown.impulse)
        n = 0
        while self.queue:
            beat = self.queue[0]
            if beat.waits and (beat.turn, beat.impulse) != here:
                break
            self.queue.pop(0)
            n += 1
        self._settle(now)
        return n

    def finish(self) -> None:
        """Show everything at once (the pace set to Instant, review mode, undo)."""
        self.queue = []
        self.shown = None

    def tick(self, now: float) -> bool:
        """Timed pace: the next beat once the shown one has been on stage :attr:`seconds`; True if
        the picture changes (a beat changed, or a counter is still moving along its path)."""
        if self.shown is None:
            return False
        if self.pace is Pace.TIMED and now - self.shown_at >= self.seconds:
            self._settle(now)
            return True
        return self.animating(now)

    def animating(self, now: float) -> bool:
        """Whether a counter of the shown beat is still walking its path."""
        if self.shown is None:
            return False
        longest = max(
            [len(p) for _c, p in self.shown.moves()] + [len(w) for _v, w in self.shown.vehicle_walks()],
            default=0,
        )
        return longest > 1 and now - self.shown_at < HEX_SECONDS * (longest - 1) + HEX_SECONDS

    def walked(self, now: float) -> dict[str, str]:
        """Character id → the hex label where a mover of the shown beat stands at ``now``.

        Each move of the beat walks its path one hex every :data:`HEX_SECONDS` (picture only).
        """
        if self.shown is None:
            return {}
        steps = int(max(0.0, now - self.shown_at) / HEX_SECONDS)
        out: dict[str, str] = {}
        for cid, path in self.shown.moves():
            if cid not in out:
                out[cid] = path[min(steps, len(path) - 1)]
            else:  # a second move of the same man in this beat: after the first has ended
                out[cid] = path[-1]
        return out

    def walked_vehicles(self, now: float) -> dict[str, tuple[str, int | None]]:
        """Vehicle id → (hex label, facing or None) where a vehicle of the shown beat stands at ``now``
        along its steps (one every :data:`HEX_SECONDS`; picture only)."""
        if self.shown is None:
            return {}
        steps = int(max(0.0, now - self.shown_at) / HEX_SECONDS)
        out: dict[str, tuple[str, int | None]] = {}
        for vid, walk in self.shown.vehicle_walks():
            here = walk[min(steps, len(walk) - 1)]
            facing = next(
                (f for _h, f in reversed(walk[: min(steps, len(walk) - 1) + 1]) if f is not None), None
            )
            out[vid] = (here[0], facing)
        return out

    # -- pace -----------------------------------------------------------------

    def set_pace(self, pace: Pace) -> None:
        """Set the pace; Instant shows at once whatever was held back."""
        self.pace = pace
        if pace is Pace.INSTANT:
            self.finish()

    def adjust(self, faster: bool) -> float:
        """``[`` / ``]``: the Timed delay one notch shorter (faster) or longer; returns it."""
        values = PACE_SECONDS
        i = min(range(len(values)), key=lambda k: abs(values[k] - self.seconds))
        i = max(0, i - 1) if faster else min(len(values) - 1, i + 1)
        self.seconds = values[i]
        return self.seconds

    def settings(self) -> dict[str, object]:
        """What a save keeps of the pace: ``{"pace": "step", "pace_seconds": 1.0}``."""
        return {"pace": self.pace.value, "pace_seconds": self.seconds}

    def restore(self, settings: dict[str, object]) -> None:
        """Read back :meth:`settings` (unknown or bad values are left as they are)."""
        pace = settings.get("pace")
        if isinstance(pace, str) and pace in {p.value for p in Pace}:
            self.set_pace(Pace(pace))
        secs = settings.get("pace_seconds")
        if isinstance(secs, (int, float)) and not isinstance(secs, bool) and 0.25 <= secs <= 2.0:
            self.seconds = float(secs)


def kinds_in(beats: Iterable[Beat]) -> list[tuple[str, ...]]:
    """The kinds of each beat (a test's view of the stage)."""
    return [b.kinds for b in beats]
