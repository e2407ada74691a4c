"""Event entries "reinforcements" and "minefield MC", and the scenario's table variant (base-rules §18)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_effects import game, script

from solo.core.errors import DataError
from solo.data import event_tables
from solo.data.friendly_deck import EventTable
from solo.data.tables import MoraleState
from solo.enemy import order_phase
from solo.rules import event_cards
from solo.rules.state import Phase, Status

EVENT_WAVE = {
    "event": True,
    "team": "red",
    "hexes": "05.00",
    "characters": [
        {"id": "red_9", "name": "Gren. Neun", "tq": 4, "weapons": [{"weapon": "kar98k", "ws": 4}]}
    ],
}


def _events(g, kind):
    return [e for e in g.events if e.kind == kind]


def test_defending_variant_is_read_when_the_file_has_it(tmp_path):
    """§18: a scenario with enemy: defending reads the Enemy's defending table (roll 7: Schuh-Mine)."""
    g = game(tmp_path, events={"friendly": "attacking", "enemy": "defending"})
    script(g, [7, 1, 0])
    entry = event_cards.roll_event_table(g, EventTable.ENEMY, cause="test")
    assert entry.kind is event_tables.EventKind.MINEFIELD_MC
    assert _events(g, "event_table")[-1].data["variant"] == "defending"


def test_variant_without_its_own_table_reads_the_main_table(tmp_path):
    """§18: enemy: attacking has no table of its own in the house file: roll 7 reads Quiet Front."""
    g = game(tmp_path, events={"friendly": "defending", "enemy": "attacking"})
    script(g, [7])
    entry = event_cards.roll_event_table(g, EventTable.ENEMY, cause="test")
    assert entry.title == "Quiet Front" and "variant" not in _events(g, "event_table")[-1].data


@pytest.mark.parametrize(("mc", "drops"), [(5, False), (6, True), (9, True)])
def test_minefield_mc_on_a_random_friendly(tmp_path, mc, drops):
    """§18 minefield MC: a random Friendly on foot (pick 2) takes an MC: 5 (TQ) passes, 6 and 9 fail."""
    g = game(tmp_path)
    pool = [c for c in g.state.active(g.char("able_1").side) if c.vehicle is None]
    script(g, [7, 2, mc])
    event_cards.roll_event_table(g, EventTable.ENEMY, cause="test")
    hit = pool[1]
    assert _events(g, "event_effect")[-1].actor == hit.id
    assert (hit.morale.rank > MoraleState.NORMAL.rank) is drops


def test_reinforcements_entry_calls_the_event_wave(tmp_path):
    """§18 reinforcements: the event wave arrives in this turn's Step 3 a) when rolled before it."""
    g = game(tmp_path, reinforcements=[EVENT_WAVE])
    assert g.char("red_9").hex is None
    g.state.flow.phase = Phase.FRIENDLY_CARD
    script(g, [9])
    event_cards.roll_event_table(g, EventTable.ENEMY, cause="test")
    placed = order_phase.place_reinforcements(g)
    assert [c.id for c in placed] == ["red_9"] and str(g.char("red_9").hex) == "05.00"
    assert g.char("red_9").status is Status.ACTIVE


def test_reinforcements_entry_after_step_3_waits_a_turn_and_then_runs_dry(tmp_path):
    """§18 reinforcements: rolled in the Action Phase, the wave comes next turn; a second roll finds none."""
    g = game(tmp_path, reinforcements=[EVENT_WAVE])
    g.state.flow.phase = Phase.ACTION
    script(g, [9, 9])
    event_cards.roll_event_table(g, EventTable.ENEMY, cause="test")
    assert order_phase.place_reinforcements(g) == []
    g.state.flow.turn += 1
    assert [c.id for c in order_phase.place_reinforcements(g)] == ["red_9"]
    event_cards.roll_event_table(g, EventTable.ENEMY, cause="test")
    assert "No Enemy reinforcements" in _events(g, "event_effect")[-1].text


@pytest.mark.parametrize(
    ("wave", "message"),
    [
        ({**EVENT_WAVE, "turn": 2}, "an event wave .* has no turn"),
        ({k: v for k, v in EVENT_WAVE.items() if k != "event"}, "needs a turn"),
    ],
)
def test_event_wave_and_turn_are_exclusive(tmp_path, wave, message):
    """§18/§19: a wave has a turn or event: true, not both and not neither."""
    with pytest.raises(DataError, match=message):
        game(tmp_path, reinforcements=[wave])


def test_bad_variant_name_is_refused(tmp_path):
    """§18: a variant table must be named attacking, defending or meeting."""
    text = (Path(__file__).parents[1] / "cards" / "events.yaml").read_text()
    p = tmp_path / "events.yaml"
    p.write_text(text.replace("    defending:", "    sieging:"))
    with pytest.raises(DataError, match="'sieging' is not a variant"):
        event_tables.load_event_tables(p)
