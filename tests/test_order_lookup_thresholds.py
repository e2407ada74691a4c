"""Enemy order lookup at its thresholds (base-rules §5.3 step 8 / 9.6 G and C checks, C2 23.2,
C2 30.2 Enemy trained medics; mutation testing, tools/mutate): a Spotted Friendly at exactly 4
hexes is in reach of a Grenade or a Charge, 5 is not; no grenade into a melee hex; a medic goes
to a wounded comrade within 4 hexes, the nearest, then the worst wound.

Map: tests/data/open_test.yaml (all open)."""

from __future__ import annotations

import pytest
from conftest import action_game, man, script

from solo.data.cards import EnemyOrderEntry
from solo.enemy import order_lookup as ol
from solo.rules.state import Wound


def _game(tmp_path, friendly: list[dict], enemy: list[dict]):
    game = action_game(tmp_path, friendly, enemy)
    for c in game.state.characters.values():
        c.revealed = True
    return game


def _entry(flags: str) -> EnemyOrderEntry:
    return EnemyOrderEntry.parse(f"RF {flags}".strip())


@pytest.mark.parametrize(("at", "checked"), [("05.09", True), ("05.10", False)])
def test_grenade_check_reaches_exactly_4_hexes(tmp_path, at, checked):
    """§5.3 step 8 (9.6) G check: "a Spotted Friendly within 4": at 4 hexes the TQC is rolled (and a
    pass is a Grenade at his hex), at 5 no check is made."""
    game = _game(tmp_path, [man("f1", at)], [man("e1", "05.05")])
    e1 = game.char("e1")
    script(game, [0] if checked else [])
    got = ol._gc_checks(game, ol._Field(game), e1, _entry("G"), ol._Trace())
    assert got == (("grenade", at) if checked else None)


@pytest.mark.parametrize(("at", "checked"), [("05.09", True), ("05.10", False)])
def test_charge_check_reaches_exactly_4_hexes(tmp_path, at, checked):
    """9.6 C check: a Friendly at 4 hexes may be charged (TQC rolled), at 5 not."""
    game = _game(tmp_path, [man("f1", at)], [man("e1", "05.05")])
    script(game, [0] if checked else [])
    got = ol._gc_checks(game, ol._Field(game), game.char("e1"), _entry("C"), ol._Trace())
    assert got == (("charge", "f1") if checked else None)


@pytest.mark.parametrize(("roll", "order"), [(5, "charge"), (6, None)])
def test_charge_tqc_at_tq(tmp_path, roll, order):
    """9.6: the C check's TQC passes at d10 <= TQ 5, fails at 6 (then no Grenade without a G flag)."""
    game = _game(tmp_path, [man("f1", "05.07")], [man("e1", "05.05")])
    script(game, [roll])
    got = ol._gc_checks(game, ol._Field(game), game.char("e1"), _entry("C"), ol._Trace())
    assert (got[0] if got else None) == order


def test_failed_charge_tries_the_grenade_at_the_same_man(tmp_path):
    """9.6 "C → TQC → Charge; else (or C failed) G → TQC → Grenade": a failed C check goes on to the
    G check against the same Friendly."""
    game = _game(tmp_path, [man("f1", "05.07")], [man("e1", "05.05")])
    script(game, [6, 5])
    trace = ol._Trace()
    got = ol._gc_checks(game, ol._Field(game), game.char("e1"), _entry("C G"), trace)
    assert got == ("grenade", "05.07")
    assert [c["check"] for c in trace.checks] == ["C", "G"] and trace.checks[0]["passed"] is False


def test_no_grenade_into_a_melee_hex(tmp_path):
    """C2 23.2: no grenade into a hex holding men of both sides: the only Friendly within 4 is in a
    melee hex, so no G check is made."""
    game = _game(tmp_path, [man("f1", "05.07")], [man("e1", "05.05"), man("e2", "05.06")])
    game.char("e2").hex = game.char("f1").hex
    script(game, [])
    trace = ol._Trace()
    assert ol._gc_checks(game, ol._Field(game), game.char("e1"), _entry("G"), trace) is None
    assert trace.checks == [{"check": "G", "result": "no target outside melee"}]


def test_no_flags_no_checks(tmp_path):
    """An entry without G or C flags makes no check."""
    game = _game(tmp_path, [man("f1", "05.07")], [man("e1", "05.05")])
    script(game, [])
    assert ol._gc_checks(game, ol._Field(game), game.char("e1"), _entry(""), ol._Trace()) is None


def test_field_melee_needs_both_sides(tmp_path):
    """C2 23.2 a melee hex: men of both sides; one side only is not, an empty hex is not."""
    from solo.core.hexes import Hex

    game = _game(tmp_path, [man("f1", "05.07"), man("f2", "05.08")], [man("e1", "05.06"), man("e2", "05.09")])
    game.char("e1").hex = Hex.parse("05.07")
    field = ol._Field(game)

    assert field.melee(Hex.parse("05.07")) and not field.melee(Hex.parse("05.08"))
    assert not field.melee(Hex.parse("05.09")) and not field.melee(Hex.parse("01.01"))


@pytest.mark.parametrize(
    ("at", "goes"), [("05.09", True), ("05.10", False), ("05.05", False), ("05.06", True)]
)
def test_medic_goes_to_a_wounded_comrade_within_4(tmp_path, at, goes):
    """C2 30.2: an Enemy trained medic goes to a wounded comrade within 4 hexes (4: yes; 5: no; his
    own hex: he is already there; the next hex, 1: yes)."""
    game = _game(tmp_path, [man("f1", "01.01")], [man("m", "05.05", trained_medic=True), man("w", at)])
    game.char("w").wounds.append(Wound.LIGHT)
    got = ol._medic_move(game, game.char("m"))
    assert (got is not None and got[1].id == "w") is goes


def test_medic_takes_the_nearest_then_the_worst_wound(tmp_path):
    """C2 30.2 "closest, worst wound": the nearer of two wounded first; at the same range a Bad
    Wound before two Light ones."""
    game = _game(
        tmp_path,
        [man("f1", "01.01")],
        [man("m", "05.05", trained_medic=True), man("a", "05.07"), man("b", "05.08"), man("c", "05.03")],
    )
    a, b, c = game.char("a"), game.char("b"), game.char("c")
    a.wounds.append(Wound.LIGHT)
    b.wounds.append(Wound.BAD)
    assert ol._medic_move(game, game.char("m"))[1].id == "a"
    c.wounds.append(Wound.BAD)  # as near as a, a worse wound
    script(game, [])
    assert ol._medic_move(game, game.char("m"))[1].id == "c"
    c.wounds[:] = [Wound.LIGHT]
    a.wounds.append(Wound.LIGHT)  # two Light wounds against one
    assert ol._medic_move(game, game.char("m"))[1].id == "a"


def test_wound_weight_bad_outweighs_lights():
    """C2 30.2 worst wound first: one Bad Wound outweighs any number of Light ones."""

    class _W:
        def __init__(self, bad: int, light: int) -> None:
            self.bad_wounds, self.light_wounds = bad, light

    assert ol._wound_weight(_W(1, 0)) > ol._wound_weight(_W(0, 3))
    assert ol._wound_weight(_W(0, 2)) > ol._wound_weight(_W(0, 1))
    assert ol._wound_weight(_W(1, 1)) > ol._wound_weight(_W(1, 0))


class _FireCard:
    """A card whose every entry is a fire order (RF), or Hide from draw ``hide_at`` on."""

    def __init__(self, n: int, hide_at: int | None) -> None:
        self.id = f"card{n}"
        self.n, self.hide_at = n, hide_at

    def entry(self, row, *, in_cover: bool) -> EnemyOrderEntry:
        return _entry("") if self.hide_at is None or self.n < self.hide_at else EnemyOrderEntry.parse("HI")


@pytest.mark.parametrize("hide_at", [None, ol.MEDIC_REDRAW_LIMIT])
def test_medic_redraws_fire_orders_at_most_the_limit(tmp_path, hide_at):
    """C2 30.2 "a trained medic ... draw again" on a fire order; at most MEDIC_REDRAW_LIMIT extra
    cards [house]: a Hide on the last one is read, and still a fire order after it is Hide."""
    game = _game(tmp_path, [man("f1", "01.01")], [man("m", "05.05", trained_medic=True)])
    drawn: list[int] = []

    def redraw() -> _FireCard:
        drawn.append(len(drawn) + 1)
        return _FireCard(len(drawn), hide_at)

    trace = ol._Trace()
    card, entry, move = ol._medic_entry(
        game, game.char("m"), _FireCard(0, None), _entry(""), False, None, trace, redraw
    )
    assert len(drawn) == ol.MEDIC_REDRAW_LIMIT and trace.cards == [f"card{n}" for n in drawn]
    assert entry.code.value == "HI" and move is None and card.id == f"card{ol.MEDIC_REDRAW_LIMIT}"
    assert any("still a fire order" in p for p in trace.parts) is (hide_at is None)


@pytest.mark.parametrize("medic", [True, False])
def test_a_trained_medic_in_an_opponents_hex_hides(tmp_path, medic):
    """§5.3 step 3 "an opponent in the same hex → Melee", but C2 30.0 [house] "a trained medic never
    melees": he takes Hide, any other man Melee (no card read either way)."""
    game = _game(tmp_path, [man("f1", "05.07")], [man("m", "05.05", trained_medic=medic)])
    game.char("m").hex = game.char("f1").hex
    script(game, [])
    got = ol.order_for(game, game.char("m"), None)
    assert got is not None and got.order == ("hide" if medic else "melee")
    ev = [e for e in game.events if e.kind == "enemy_order"][-1]
    assert ("never melees" in ev.text) is medic and ev.data["directions"] is None


def test_an_order_by_rule_nobody_hears_is_still_given(tmp_path):
    """§5.3 step 3 "→ Melee" (a rule's order, no card) in a game that keeps no events and has no
    listener: the order is given all the same, its event only numbered (no words)."""
    game = _game(tmp_path, [man("f1", "05.07")], [man("e1", "05.05")])
    game.char("e1").hex = game.char("f1").hex
    game._keep_events = False
    game.listeners[:] = []
    seq = game._seq
    script(game, [])
    got = ol.order_for(game, game.char("e1"), None)
    assert got is not None and got.order == "melee" and got.source.startswith("rule ")
    assert game._seq == seq + 1


@pytest.mark.parametrize(
    ("alert", "dead", "ordered"), [(True, False, True), (False, False, False), (True, True, False)]
)
def test_only_an_alert_man_who_can_take_an_order_gets_one(tmp_path, alert, dead, ordered):
    """§5.3 step 1 and the activation table "Waiting characters get no order": an Alert man takes the
    card's order; a Waiting one, or a dead one even Alert, takes none (no event)."""
    from solo.rules.state import Status

    game = _game(tmp_path, [man("f1", "01.01")], [man("e1", "05.05")])
    e1 = game.char("e1")
    e1.alert = alert
    if dead:
        e1.status = Status.DEAD
    script(game, [9] * 20)
    got = ol.order_for(game, e1, game.data.enemy_deck.cards[0])
    assert (got is not None) is ordered
    assert bool([e for e in game.events if e.kind == "enemy_order"]) is ordered


@pytest.mark.parametrize(("medic", "order"), [(False, "charge"), (True, "evade")])
def test_a_berserk_trained_medic_evades_instead_of_charging(tmp_path, medic, order):
    """§5.3 step 6 "Berserk → Charge + berserk string", but C2 30.0 [house] "a trained medic never
    charges": a Berserk medic takes Evade along the same string, any other Berserk man Charge."""
    from solo.rules.state import MoraleState

    game = _game(tmp_path, [man("f1", "01.01")], [man("m", "05.05", trained_medic=medic)])
    m = game.char("m")
    m.morale = MoraleState.BERSERK
    card = game.data.enemy_deck.cards[0]
    script(game, [9] * 20)
    got = ol.order_for(game, m, card)
    assert got is not None and got.order == order
    assert str(got.directions) == str(card.berserk)
    ev = [e for e in game.events if e.kind == "enemy_order"][-1]
    assert ev.data["directions"] == str(card.berserk) and ev.data["order"] == order


def test_medic_who_cannot_reach_the_wounded_ends_on_the_best_terrain_for_an_evade(tmp_path, monkeypatch):
    """C2 30.2 "If no Order will get them to the hex then select one that gets them the closest and
    passes through the 'best' terrain (for them)": the wounded man's hex and the one between burn, so
    no Evade reaches him; three strings end 2 hexes from him (his own hex, 07.08, 03.08). With
    07.08 a Field and 03.08 a Fountain, the Evade order's fire group 1 cells (Fountain -2, Field
    and Open -1) pick the Fountain: 5/4 (group 0 would pick the Field, -3)."""
    from solo.core.hexes import Hex

    game = _unreachable(tmp_path, monkeypatch)
    assert game.data.orders.get("evade").fire_group == 1
    script(game, [])
    ds, who, path = ol._medic_move(game, game.char("m"))
    assert who.id == "w" and str(ds) == "5/4" and path[-1] == Hex.parse("03.08")


@pytest.mark.parametrize(("roll", "words"), [(9, "failed (natural 9 always fails)"), (8, "failed")])
def test_a_failed_grenade_check_names_a_natural_9(tmp_path, roll, words):
    """§5.3 step 8 G check "TQC on effective TQ, a natural 9 fails": the check's words name the
    natural 9 for a 9 and only for a 9 (an 8 against TQ 5 just fails)."""
    game = _game(tmp_path, [man("f1", "05.07")], [man("e1", "05.05")])
    script(game, [roll])
    trace = ol._Trace(True, True)
    assert ol._gc_checks(game, ol._Field(game), game.char("e1"), _entry("G"), trace) is None
    assert trace.parts[-1].endswith(f"TQC rolled {roll} vs TQ 5: {words}")
    assert trace.checks[-1]["roll"] == roll and trace.checks[-1]["passed"] is False


@pytest.mark.parametrize(("at", "words"), [("05.06", "1 hex;"), ("05.07", "2 hexes;")])
def test_a_grenade_checks_words_give_the_range_in_hexes(tmp_path, at, words):
    """§5.3 step 8 G check "a Spotted Friendly within 4": the check names the range, "1 hex" for an
    adjacent man and "2 hexes" one hex farther."""
    game = _game(tmp_path, [man("f1", at)], [man("e1", "05.05")])
    script(game, [8])
    trace = ol._Trace(True, True)
    ol._gc_checks(game, ol._Field(game), game.char("e1"), _entry("G"), trace)
    assert f"G check: f1 at {at}, {words}" in trace.parts[-1]


def _unreachable(tmp_path, monkeypatch):
    """The medic in 05.05, the wounded man in 05.07; his hex and the one between burn (no Evade
    reaches him); 07.08 a Field and 03.08 a Fountain (the 5/4 string ends on the Fountain)."""
    from solo.core.hexes import Hex

    game = _game(tmp_path, [man("f1", "01.01")], [man("m", "05.05", trained_medic=True), man("w", "05.07")])
    w = game.char("w")
    w.wounds.append(Wound.LIGHT)
    game.state.markers.fire[w.hex] = 1
    game.state.markers.fire[Hex.parse("05.06")] = 1
    monkeypatch.setitem(game.board.map.terrain, Hex.parse("07.08"), "field")
    monkeypatch.setitem(game.board.map.terrain, Hex.parse("03.08"), "fountain")
    return game


@pytest.mark.parametrize("reachable", [True, False])
def test_medic_m_check_says_whether_the_evade_reaches_him(tmp_path, monkeypatch, reachable):
    """C2 30.2 "assign an appropriate Evade Order that would enable the Enemy Trained Medic to enter
    that hex, or to move as close as it can": the M check (a G flag, no TQC) says "reaches him" for
    an Evade into his hex (4, 2 hexes) and "gets closest" when none gets there."""
    if reachable:
        game = _game(
            tmp_path, [man("f1", "01.01")], [man("m", "05.05", trained_medic=True), man("w", "05.07")]
        )
        game.char("w").wounds.append(Wound.LIGHT)
    else:
        game = _unreachable(tmp_path, monkeypatch)
    trace = ol._Trace(True, True)
    script(game, [])
    _card, _entry_read, move = ol._medic_entry(
        game, game.char("m"), _FireCard(0, None), _entry("G"), False, None, trace, None
    )
    assert move is not None and move[1].id == "w"
    words = "Evade 4 reaches him" if reachable else "Evade 5/4 gets closest"
    assert trace.parts[-1].endswith(f"wounded w at 05.07; {words}")


def test_medic_evade_in_barbed_wire_keeps_its_direction_string(tmp_path, monkeypatch):
    """C2 27.7 "in Barbed Wire only Sneak leaves the hex": the medic's Evade toward his wounded
    comrade becomes Sneak along the same string (5/4, the way round the fire), not a new string
    pointing at the man (4)."""
    from solo.core.hexes import Hex

    game = _unreachable(tmp_path, monkeypatch)
    m = game.char("m")
    monkeypatch.setitem(game.board.map.terrain, m.hex, ol.WIRE)
    ds, w, _path = ol._medic_move(game, m)
    assert str(ds) == "5/4" and str(ol._string_toward(game, m.hex, Hex.parse("05.07"))) != "5/4"
    trace = ol._Trace(True, True)
    got = ol._conversions(game, ol._Field(game), m, "evade", ds, w.id, trace)
    assert got[0] == "sneak" and str(got[1]) == "5/4"


def test_opponent_here_is_an_active_opponent_in_the_same_hex(tmp_path):
    """§5.3 step 3 "an opponent in the same hex → Melee" (and C2 23.5 "An opponent in the hex gives
    Melee without a card"): an active Friendly in the Enemy's hex counts; one a hex away, a dead one
    in the hex, or a comrade in the hex does not."""
    from solo.rules.state import Status

    game = _game(tmp_path, [man("f1", "05.06")], [man("e1", "05.05"), man("e2", "05.07")])
    e1, f1 = game.char("e1"), game.char("f1")
    assert not ol._opponent_here(game, e1)
    game.char("e2").hex = e1.hex
    assert not ol._opponent_here(game, e1)
    f1.hex = e1.hex
    assert ol._opponent_here(game, e1) is True
    f1.status = Status.DEAD
    assert not ol._opponent_here(game, e1)
