"""The game-state version and the answers kept by it (who can see whom): random legal play, and
after every decision (and at every spotting scan) each kept answer equals a fresh one."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from solo.core.sides import Side
from solo.data.house import load_data
from solo.playtest.play import new_game
from solo.playtest.policies import RandomPolicy
from solo.rules import state as state_mod
from solo.rules.state import (
    BOARD,
    ENEMY_PIECES,
    FRIENDLY_PIECES,
    Character,
    GameState,
    Markers,
    Wound,
    version,
)
from solo.rules.visibility import KeptSight

SCENARIOS = ("the_churchyard", "night_at_the_crossroads", "the_burning_wood", "armour_in_the_rain")

DATA = load_data()


def _piece(ch: Character) -> tuple[Any, ...]:
    """Everything of a character but his per-turn scratch (``acted``)."""
    return tuple((a.name, repr(getattr(ch, a.name))) for a in attrs.fields(Character) if a.name != "acted")


def _snapshot(st_: GameState) -> dict[int, Any]:
    board = (
        tuple(repr(getattr(st_.markers, a.name)) for a in attrs.fields(Markers)),
        repr(st_.terrain_changes),
        st_.max_los,
        st_.weather,
        st_.ground,
    )
    return {
        FRIENDLY_PIECES: [_piece(c) for c in st_.characters.values() if c.side is Side.FRIENDLY],
        ENEMY_PIECES: [_piece(c) for c in st_.characters.values() if c.side is Side.ENEMY],
        BOARD: board,
    }


def _fresh_none(game: Any, viewer: Character) -> bool:
    return next(iter(game.clear_sights(viewer, game.state.roster(viewer.side.other))), None) is None


@pytest.fixture
def checked_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every ``none_in_sight`` answer during play is compared with the scan's own (count kept)."""
    calls = [0, 0]
    original = KeptSight.none_in_sight

    def checked(self: KeptSight, viewer: Character, targets: Any, *args: Any) -> bool:
        kept = original(self, viewer, targets, *args)
        game = checked.game  # type: ignore[attr-defined]
        if kept:
            assert _fresh_none(game, viewer), f"kept masks say {viewer.id} sees no one to spot; he does"
            calls[1] += 1
        calls[0] += 1
        return kept

    monkeypatch.setattr(KeptSight, "none_in_sight", checked)
    checked.game = None  # type: ignore[attr-defined]
    calls_holder: list[Any] = [checked, calls]
    return calls_holder  # type: ignore[return-value]


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,  # the same games every run: CI cannot fail by the draw (tools/soak explores)
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # a failing game is long: no shrinking
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(scenario=st.sampled_from(SCENARIOS), seed=st.integers(1, 10_000), policy_seed=st.integers(0, 1_000))
@example(scenario="night_at_the_crossroads", seed=22, policy_seed=150)  # an illuminated hex at night (§15)
def test_kept_answers_equal_fresh_ones_in_random_play(
    checked_scans: list[Any], scenario: str, seed: int, policy_seed: int
) -> None:
    checked, calls = checked_scans
    game = new_game(scenario, seed=seed, data=DATA, turns=3, record_rolls=False, keep_events=False)
    checked.game = game
    policy = RandomPolicy(policy_seed)
    before = _snapshot(game.state)
    versions = {p: version(p) for p in before}
    n = 0
    while game.pending is not None and n < 400:
        game.apply(policy(game, game.pending))
        n += 1
        after = _snapshot(game.state)
        for part in after:
            if after[part] != before[part]:
                assert version(part) != versions[part], f"part {part} changed without a version bump"
        before, versions = after, {p: version(p) for p in after}
        # Every viewer's kept answer equals the fresh scan now.
        for viewer in game.state.characters.values():
            kept = game._kept_sight.none_in_sight(
                viewer,
                game.state.roster(viewer.side.other),
                game.los,
                game._low_orders,
                game.state.max_los,
                game.options.night_los if game.scenario.night else None,
                game._viewer_line,
            )
            if kept:
                assert _fresh_none(game, viewer)
            elif viewer.is_active and viewer.hex is not None and not game.state.markers.illuminated:
                assert not _fresh_none(game, viewer), f"{viewer.id}: kept masks miss a clear sight"
    assert calls[0] > 0


def test_every_write_bumps_its_part() -> None:
    ch = Character("a", "A", Side.ENEMY, "red", 5, 0, ())
    f = Character("b", "B", Side.FRIENDLY, "able", 5, 0, ())
    v = version(ENEMY_PIECES)
    ch.revealed = True
    assert version(ENEMY_PIECES) == v + 1
    ch.wounds.append(Wound.LIGHT)
    assert version(ENEMY_PIECES) == v + 2
    ch.wounds.pop()
    assert version(ENEMY_PIECES) == v + 3
    vf = version(FRIENDLY_PIECES)
    f.wounds = [Wound.BAD]
    f.wounds.remove(Wound.BAD)
    assert version(FRIENDLY_PIECES) == vf + 2
    assert version(ENEMY_PIECES) == v + 3
    m = Markers(smoke={})
    b = version(BOARD)
    m.smoke["x"] = ["smoke"]  # type: ignore[index]
    m.fire.setdefault("y", "fire")  # type: ignore[arg-type]
    del m.smoke["x"]  # type: ignore[arg-type]
    m.illuminated.append("z")  # type: ignore[arg-type]
    m.illuminated.clear()
    m.grenades = []
    assert version(BOARD) == b + 6
    assert state_mod.MarkerList([1], FRIENDLY_PIECES) == [1]


def _kept_none(game: Any, viewer: Character) -> bool:
    return game._kept_sight.none_in_sight(
        viewer,
        game.state.roster(viewer.side.other),
        game.los,
        game._low_orders,
        game.state.max_los,
        game.options.night_los if game.scenario.night else None,
        game._viewer_line,
    )


def test_a_fire_marker_on_the_line_changes_the_kept_answer() -> None:
    """A Fire marker blocks LOS (C2 29.2): the kept "someone in sight" becomes "no one" when a fire
    burns between the only two pieces left, and "someone" again when it goes out."""
    game = new_game("the_churchyard", seed=1, data=DATA, record_rolls=False, keep_events=False)
    st_ = game.state
    index = game.los.board.index
    viewer, target = st_.active(Side.FRIENDLY)[0], st_.active(Side.ENEMY)[0]
    assert viewer.hex is not None
    found = None
    for h in game.los.board.hexes:  # a hex in clear LOS 3-5 hexes away, one hex at a time between
        if not 3 <= game.distance(viewer.hex, h) <= 5 or st_.at(h):
            continue
        line = game.los.line_indices(index[viewer.hex], index[h])
        inner = [s[0] for s in line[1:-1] if len(s) == 1 and s[0] >= 0]
        if len(inner) == len(line) - 2 and game.sight(viewer, h, target=target).clear:
            found = (viewer, target, inner[len(inner) // 2])
            target.hex = h
            break
    assert found is not None
    viewer, target, middle = found
    for other in st_.active(Side.ENEMY):
        if other is not target:
            other.revealed = True  # only ``target`` is still to spot
    target.revealed = False
    assert not _kept_none(game, viewer) and not _fresh_none(game, viewer)
    hexes = game.los.board.hexes
    game.los.set_fire(hexes[middle], True)
    assert _fresh_none(game, viewer)
    assert _kept_none(game, viewer)
    game.los.set_fire(hexes[middle], False)
    assert not _kept_none(game, viewer)
    target.revealed = True
    assert _kept_none(game, viewer)
