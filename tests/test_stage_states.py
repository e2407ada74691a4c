"""Each Enemy step on stage shows the board as it was at that step (solo.render.stage_states,
solo.render.stage_view.staged_game): the Initiative Track, the orders and Alert/Waiting drawn at
step k are what the log's events up to k say, never the values the engine reached at the end
of the stretch. The window is played headless at Step pace with a fake clock."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest
from conftest import FakeClock, house_data

from solo.core.events import Event
from solo.playtest.policies import SimplePolicy
from solo.render.app import Window
from solo.render.panels import track_teams
from solo.render.session import new_session
from solo.render.stage import Pace, Stage
from solo.render.stage_states import StateRecorder, state_copy
from solo.rules.state import Side, version

SIZE = (1600, 1000)


def batch_start(events: list[Event], upto: int) -> int:
    """The first event after the player's last choice before ``upto`` (a stretch on stage)."""
    for i in range(upto, -1, -1):
        if not events[i].automatic:
            return i + 1
    return 0


def marker_events(done: list[Event], future: list[Event]) -> dict[tuple[str, str], str | None]:
    """(vehicle, seat) → the hex label its Target Marker is on as the events say (C2 31.7.3):
    the last ``target_marker`` event shown of the stretch, else where the first one not shown
    yet took it from."""
    out: dict[tuple[str, str], str | None] = {}
    for e in future:
        d = e.data
        if e.kind in ("target_marker", "target_marker_removed") and d.get("moved") is not False:
            key = (d["vehicle"], d["position"])
            if e.kind == "target_marker_removed":
                out.setdefault(key, d["hex"])
            elif "from" in d or "previous" in d:
                out.setdefault(key, d.get("from", d.get("previous")))
    for e in done:
        d = e.data
        if e.kind == "target_marker_removed":
            out[(d["vehicle"], d["position"])] = None
        elif e.kind == "target_marker" and d.get("moved") is not False:
            out[(d["vehicle"], d["position"])] = d.get("hex")
    return out


class Step:
    """What one Enemy step showed, and what the log's events say it should show."""

    def __init__(self, w: Window, stage: Stage) -> None:
        g = w.controller.live
        beat = stage.shown
        shown = w.view.shown_game()
        upto = stage.upto
        assert beat is not None and upto is not None and shown is not None
        self.beat = beat
        events = list(g.events)
        start = batch_start(events, upto)
        self.done = events[start : upto + 1]
        self.future = events[upto + 1 :]
        this_turn = [e for e in events[: upto + 1] if e.turn == beat.turn]
        st = shown.state
        self.track_enemy = {t.id: t.initiative for t in track_teams(shown) if t.side is Side.ENEMY}
        self.initiative_events = {
            str(e.data["team"]): e.data["initiative"] for e in this_turn if e.kind == "initiative"
        }
        tracks = [e for e in this_turn if e.kind == "track"]
        self.track_event = [t for t, _ in tracks[-1].data["track"]] if tracks else None
        self.track = list(st.flow.track)
        self.orders = {c.id: (c.order.order if c.order else None) for c in st.characters.values()}
        self.order_events = {e.actor: e.data.get("order") for e in this_turn if e.kind == "enemy_order"}
        self.later_orders = {
            e.actor for e in self.future if e.kind == "enemy_order" and e.turn == beat.turn
        } - set(self.order_events)
        self.alert = {c.id: c.alert for c in st.characters.values()}
        self.alerted = {e.actor for e in self.done if e.kind == "alert"}
        self.later_alerts = {e.actor for e in self.future if e.kind == "alert"} - self.alerted
        self.markers = {
            (vid, pos): seat.marker for vid, v in st.vehicles.items() for pos, seat in v.seats.items()
        }
        self.marker_events = marker_events(self.done, self.future)
        self.hidden = w.view.shown_fog().hidden_ids
        revealed = {str(e.data.get("character", e.actor)) for e in self.done if e.kind == "reveal"}
        self.later_reveals = {
            str(e.data.get("character", e.actor))
            for e in self.future
            if e.kind == "reveal" and str(e.data.get("character", e.actor)).startswith(("red", "blue"))
        } - revealed
        self.card_phase = beat.impulse == 0 and any(
            e.kind in ("enemy_order", "initiative", "enemy_waiting") for e in beat.events
        )


def played(scenario: str, seed: int, turns: int) -> list[Step]:
    w = Window(new_session(scenario, seed=seed, data=house_data()), size=SIZE, resizable=False)
    try:
        clock = FakeClock()
        w.controller.clock = clock
        w.view.now = clock
        w.view.stage.set_pace(Pace.STEP)
        w.step([])
        g = w.controller.live
        policy = SimplePolicy()
        steps: list[Step] = []
        for _ in range(20000):
            if g.pending is None or g.state.flow.turn > turns:
                break
            stage = w.view.stage
            if stage.busy:
                steps.append(Step(w, stage))
                w.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode="")])
                continue
            assert w.controller.answer(policy(g, g.pending))
        return steps
    finally:
        w.close()


RUNS = [("the_churchyard", 1, 4), ("the_churchyard", 3, 3), ("armour_in_the_rain", 1, 3)]


@pytest.fixture(scope="module")
def steps() -> list[Step]:
    out: list[Step] = []
    for scenario, seed, turns in RUNS:
        out.extend(played(scenario, seed, turns))
    return out


def test_the_initiative_track_of_each_step_is_the_one_the_log_has_reached(steps):
    """In the Action Phase every Enemy team whose first card of the turn was drawn (an
    ``initiative`` event, 9.1) is on the Initiative Track at its value, in the order the turn's
    ``track`` event gave; in the Enemy Card and Order Phase only the teams drawn so far are."""
    action = [s for s in steps if s.beat.impulse > 0]
    cards = [s for s in steps if s.card_phase]
    assert len(action) > 20 and len(cards) > 5
    for s in action:
        assert s.track_enemy == s.initiative_events, s.beat
        assert s.track == s.track_event, s.beat
    for s in cards:
        assert s.track_enemy == s.initiative_events, s.beat


def test_an_enemy_team_stays_on_the_track_until_the_end_of_its_turn(steps):
    """The stretch from Impulse 4 to the next turn's first choice: the End Phase clears the
    Enemy's initiatives (base-rules §5.5), but the steps of Impulse 4 are shown before it and
    still show the Enemy teams on the track."""
    last = [s for s in steps if s.beat.impulse == 4 and any(e.kind == "turn" for e in s.future)]
    assert last
    for s in last:
        assert s.initiative_events and s.track_enemy == s.initiative_events, s.beat


def test_an_order_marker_comes_with_its_card(steps):
    """Enemy Card and Order Phase (9.1): a man shows the order his card gave from that card's
    step on, and no order before it."""
    cards = [s for s in steps if s.card_phase]
    before = [(s, cid) for s in cards for cid in s.later_orders]
    assert before  # men whose card comes in a later step
    for s, cid in before:
        assert s.orders[cid] is None, (s.beat, cid, s.orders[cid])
    given = [(s, cid, o) for s in cards for cid, o in s.order_events.items() if isinstance(o, str)]
    assert given
    for s, cid, order in given:
        assert s.orders[cid] == order, (s.beat, cid)


def test_a_man_becomes_alert_at_his_own_step(steps):
    """§5.6: a Waiting Enemy who becomes Alert later in the stretch is still Waiting at the steps
    before; one alerted at or before the step shown is Alert."""
    before = [(s, cid) for s in steps for cid in s.later_alerts]
    assert before
    for s, cid in before:
        assert s.alert[cid] is False, (s.beat, cid)
    for s in steps:
        for cid in s.alerted:
            assert s.alert[cid] is True, (s.beat, cid)


def test_a_target_marker_is_where_the_events_put_it(steps):
    """C2 31.7.3-31.7.5: at each step a crewman's Target Marker is on the hex of the last
    ``target_marker`` event shown, or where the next one (not shown yet) took it from."""
    checked = 0
    for s in steps:
        for key, where in s.marker_events.items():
            shown = s.markers.get(key)
            assert (str(shown) if shown is not None else None) == where, (s.beat, key)
            checked += 1
    assert checked > 5


def test_an_enemy_spotted_at_a_later_step_is_still_unknown(steps):
    """base-rules §9.8: an Enemy man who becomes Known at a later step of the stretch is still
    Unknown (his name hidden) at the steps before it."""
    before = [(s, cid) for s in steps for cid in s.later_reveals]
    assert before
    for s, cid in before:
        assert cid in s.hidden, (s.beat, cid)


def test_the_recorder_copies_without_counting_a_write():
    """The copy a recorder keeps at every event counts no write to the state (the engine's kept
    answers stay valid), and later play does not change it."""
    w = Window(new_session("the_churchyard", seed=1, data=house_data()), size=SIZE, resizable=False)
    try:
        g = w.controller.live
        before = (version(0), version(1), version(2))
        kept = state_copy(g.state)
        assert (version(0), version(1), version(2)) == before
        some = next(iter(g.state.characters))
        hex_then = kept.characters[some].hex
        g.state.characters[some].hex = None
        g.state.flow.track.append("nobody")
        assert kept.characters[some].hex == hex_then and "nobody" not in kept.flow.track
    finally:
        w.close()


def test_the_recorder_keeps_nothing_at_the_instant_pace():
    """At the Instant pace nothing is held back: the recorder keeps no copy (no cost)."""
    w = Window(new_session("the_churchyard", seed=1, data=house_data()), size=SIZE, resizable=False)
    try:
        g = w.controller.live
        rec = w.view.stage.states
        assert isinstance(rec, StateRecorder) and rec in g.listeners
        policy = SimplePolicy()
        for _ in range(30):
            w.controller.answer(policy(g, g.pending))
        assert rec.entries and all(state is None for _n, state in rec.entries)
        assert rec.before(len(g.events) - 1) is None
    finally:
        w.close()
