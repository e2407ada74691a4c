"""Morale and checks (``cards/checks.yaml``, base-rules §7): the Morale States and the MC/RC/WMC/TQC tables.

:class:`MoraleState` runs from Berserk (best) to Rout (worst), moved by :func:`step_morale`; each
state's :class:`MoraleRow` gives the WS and melee TQ modifiers of a man in it and how an
Enemy in it reads his Enemy Order card. The check tables (:class:`CheckTable`) are resolved by
:meth:`Checks.resolve` through :func:`roll_result` (natural 0, pass, fail, natural 9; C2 23.1).
:func:`load_checks` reads and checks the file and raises one
:class:`~solo.core.errors.DataError` naming every problem with its line. Also here:
:class:`Source`, the tag (rulebook, reconstructed, house) every row of the house tables carries.

The other house tables have their own modules: :mod:`~solo.data.orders`,
:mod:`~solo.data.charts`, :mod:`~solo.data.weapons` (with :mod:`~solo.data.bands`);
:func:`solo.data.house.load_tables` loads the four together.

Conventions: d10 faces are 0-9; a morale step of +1 is one state better.

May import: :mod:`solo.core` only.
"""

from __future__ import annotations

import enum
from pathlib import Path

import attrs

from solo.core.bounds import MORALE_STEPS, MORALE_TQ_MODIFIER, MORALE_WS_MODIFIER, ROW
from solo.core.datafile import SNAKE_ID, DataFile, DocPath, Problems, read_card_file, structure


class Source(enum.Enum):
    """Where a value comes from (base-rules §0 tags)."""

    RULEBOOK = "rulebook"
    RECONSTRUCTED = "reconstructed"
    HOUSE = "house"


# ---------------------------------------------------------------------------
# Morale and checks (base-rules §7)


class MoraleState(enum.Enum):
    """The seven Morale States, best first (base-rules §7)."""

    BERSERK = "berserk"
    AGGRESSIVE = "aggressive"
    BOLD = "bold"
    NORMAL = "normal"
    CAUTIOUS = "cautious"
    SHAKEN = "shaken"
    ROUT = "rout"

    @property
    def rank(self) -> int:
        """0 for Berserk (best) to 6 for Rout (worst)."""
        return _MORALE_RANK[self]


MORALE_ORDER: tuple[MoraleState, ...] = tuple(MoraleState)
"""Morale States best first."""
_MORALE_RANK = {state: i for i, state in enumerate(MORALE_ORDER)}


def step_morale(state: MoraleState, steps: int, *, cap: MoraleState | None = None) -> MoraleState:
    """``state`` moved ``steps`` states (+ better, - worse), within Berserk..Rout.

    A gain stops at ``cap`` (None: Berserk) and never worsens a state already better than
    the cap; a loss stops at Rout (base-rules §7 gain caps).
    """
    rank = state.rank
    if steps > 0:
        best = cap.rank if cap is not None else 0
        if rank <= best:
            return state
        return MORALE_ORDER[max(best, rank - steps)]
    return MORALE_ORDER[min(len(MORALE_ORDER) - 1, rank - steps)]


class CardString(enum.Enum):
    """Which direction string of an Enemy Order card a forced order follows (base-rules §5.1)."""

    BERSERK = "berserk"
    ROUT = "rout"


@attrs.frozen
class MoraleRow:
    """A Morale State's modifiers and how an Enemy in it reads his card (base-rules §7)."""

    state: MoraleState
    fire_ws: MORALE_WS_MODIFIER
    """Added to the WS of his fire (and to spotting, §20 Q7)."""
    melee_tq: MORALE_TQ_MODIFIER | None
    """Added to his melee TQ; ``None`` = as an attacker he surrenders instead (17.3)."""
    source: Source
    card_row: ROW | None = None
    """Row 1-5 of the Cover/Open table of an Enemy Order card."""
    card_string: CardString | None = None
    """Instead of a row: the card's berserk or rout string, with ``forced_order``."""
    forced_order: str | None = None
    """Order id taken with ``card_string`` (Charge, Evade; base-rules §5.3 step 6)."""
    notes: str = ""


class CheckKind(enum.Enum):
    """The checks of base-rules §7."""

    MC = "mc"
    RC = "rc"
    WMC = "wmc"
    TQC = "tqc"


class RollResult(enum.Enum):
    """Which column of a check table a roll reads (base-rules §7)."""

    NATURAL_0 = "natural_0"
    PASSED = "passed"
    FAILED = "failed"
    NATURAL_9 = "natural_9"

    @property
    def passed(self) -> bool:
        """True for a natural 0 or a roll at or under the target."""
        return self in (RollResult.NATURAL_0, RollResult.PASSED)


def roll_result(roll: int, target: int) -> RollResult:
    """The column a d10 ``roll`` (0-9) against ``target`` reads (base-rules §0, §7; C2 23.1).

    A 9 always fails; a 0 is a natural 0 when the target is 0 or more; otherwise the roll
    passes at or under the target. Targets are not clamped. Raises :class:`ValueError` for a
    face outside 0-9.
    """
    if not isinstance(roll, int) or not 0 <= roll <= 9:
        raise ValueError(f"a d10 face is 0-9, got {roll!r}")
    if roll == 9:
        return RollResult.NATURAL_9
    if roll == 0 and target >= 0:
        return RollResult.NATURAL_0
    return RollResult.PASSED if roll <= target else RollResult.FAILED


@attrs.frozen
class CheckTable:
    """One check of base-rules §7: its morale change per column and its gain cap."""

    id: CheckKind
    name: str
    changes_morale: bool
    natural_0: MORALE_STEPS | None
    passed: MORALE_STEPS | None
    failed: MORALE_STEPS | None
    natural_9: MORALE_STEPS | None
    gain_cap: MoraleState | None
    source: Source
    rule: str = ""
    notes: str = ""

    def morale_steps(self, result: RollResult) -> int:
        """The change of Morale State (+ better) for ``result``; 0 for a pass/fail check."""
        value = getattr(self, result.value)
        return value if value is not None else 0


@attrs.frozen
class CheckOutcome:
    """A resolved check: the roll, the column read, pass or fail, and the morale change."""

    kind: CheckKind
    roll: int
    target: int
    result: RollResult
    morale_steps: int
    """+ better, - worse; 0 for a TQC."""
    gain_cap: MoraleState | None

    @property
    def passed(self) -> bool:
        """True for a natural 0 or a roll at or under the target (never a 9)."""
        return self.result.passed


@attrs.frozen
class ChecksFile:
    """``checks.yaml`` as written."""

    morale_states: tuple[MoraleRow, ...]
    checks: tuple[CheckTable, ...]


@attrs.frozen
class Checks:
    """Morale States and check tables (base-rules §7)."""

    morale_rows: tuple[MoraleRow, ...]
    """One per :class:`MoraleState`, best first."""
    tables: tuple[CheckTable, ...]
    _rows: dict[MoraleState, MoraleRow] = attrs.field(init=False, eq=False, repr=False)
    _tables: dict[CheckKind, CheckTable] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_rows", {r.state: r for r in self.morale_rows})
        object.__setattr__(self, "_tables", {t.id: t for t in self.tables})

    def morale(self, state: MoraleState) -> MoraleRow:
        """The row of ``state``: fire WS and melee TQ modifiers, card row or string."""
        return self._rows[state]

    def table(self, kind: CheckKind) -> CheckTable:
        """The table of check ``kind``."""
        return self._tables[kind]

    def resolve(self, kind: CheckKind, roll: int, target: int) -> CheckOutcome:
        """Resolve check ``kind`` for a d10 ``roll`` (0-9) against ``target``.

        A natural 9 always fails (C2 23.1); a natural 0 is best (base-rules §7). Raises
        :class:`ValueError` for a face outside 0-9.
        """
        table = self._tables[kind]
        result = roll_result(roll, target)
        return CheckOutcome(kind, roll, target, result, table.morale_steps(result), table.gain_cap)

    def apply(self, state: MoraleState, outcome: CheckOutcome) -> MoraleState:
        """The Morale State after ``outcome`` (steps within the check's gain cap, base-rules §7)."""
        return step_morale(state, outcome.morale_steps, cap=outcome.gain_cap)


def _check_falling(doc: DataFile, probs: Problems, rows: tuple[MoraleRow, ...] | list[MoraleRow]) -> None:
    """A Morale State's fire and melee modifiers fall from Berserk to Shaken (base-rules §7, §11).

    A state better than Normal has modifiers of 0 or more, a worse one of 0 or less (a sign
    flipped by mistake, Berserk melee −3, is refused at its line), and each is at most the one of
    the state above it. Rout, which neither fires nor attacks in melee, is left out.
    """
    normal = MORALE_ORDER.index(MoraleState.NORMAL)
    for key, what in (("fire_ws", "fire WS modifier"), ("melee_tq", "melee TQ modifier")):
        above: tuple[str, int] | None = None
        for i, r in enumerate(rows):
            value = getattr(r, key)
            if r.state is MoraleState.ROUT or value is None:
                continue
            rank = MORALE_ORDER.index(r.state)
            if (rank < normal and value < 0) or (rank > normal and value > 0):
                better = "better" if rank < normal else "worse"
                sign = "0 or more" if rank < normal else "0 or less"
                probs.add(
                    doc,
                    ("morale_states", i, key),
                    f"{r.state.value} has a {what} of {value:+d}: a state {better} than normal "
                    f"has one of {sign}",
                )
                continue
            if above is not None and value > above[1]:
                probs.add(
                    doc,
                    ("morale_states", i, key),
                    f"{r.state.value} has a {what} of {value:+d}, better than {above[0]}'s "
                    f"{above[1]:+d} above it (the modifiers fall from berserk to shaken)",
                )
            above = (r.state.value, value)


def checks_from(doc: DataFile) -> Checks:
    """Build :class:`Checks` from a read ``checks.yaml``.

    Checks: the seven Morale States once each, best first; card rows 1-5 once each, or a
    card string with a forced order; MC, RC, WMC and TQC once each; morale checks with all
    four columns, best to worst; pass/fail checks with none. Raises :class:`DataError`
    listing every problem (base-rules §7).
    """
    raw = structure(doc, ChecksFile)
    probs = Problems()
    states = [r.state for r in raw.morale_states]
    if states != list(MORALE_ORDER):
        seen: set[MoraleState] = set()
        for i, state in enumerate(states):
            if state in seen:
                probs.add(doc, ("morale_states", i, "state"), f"morale state {state.value!r} twice")
            seen.add(state)
        missing = [s.value for s in MORALE_ORDER if s not in seen]
        if missing:
            probs.add(doc, ("morale_states",), f"missing morale state(s): {', '.join(missing)}", at_key=True)
        if not missing and len(states) == len(MORALE_ORDER):
            probs.add(
                doc,
                ("morale_states",),
                f"morale states must be listed best first: {', '.join(s.value for s in MORALE_ORDER)}",
                at_key=True,
            )
    rows_seen: dict[int, int] = {}
    for i, r in enumerate(raw.morale_states):
        at: DocPath = ("morale_states", i)
        if (r.card_row is None) == (r.card_string is None):
            probs.add(doc, at, "give exactly one of card_row (1-5) and card_string")
        if r.card_row is not None:
            if not 1 <= r.card_row <= 5:
                probs.add(doc, (*at, "card_row"), f"card_row {r.card_row} outside 1-5")
            elif r.card_row in rows_seen:
                probs.add(doc, (*at, "card_row"), f"card_row {r.card_row} used twice")
            else:
                rows_seen[r.card_row] = i
        if (r.forced_order is None) != (r.card_string is None):
            probs.add(doc, at, "forced_order goes with card_string, and only with it")
        if r.forced_order is not None and not SNAKE_ID.match(r.forced_order):
            probs.add(doc, (*at, "forced_order"), f"order id {r.forced_order!r} must be snake_case")
    _check_falling(doc, probs, raw.morale_states)
    kinds: dict[CheckKind, int] = {}
    for i, t in enumerate(raw.checks):
        at = ("checks", i)
        if t.id in kinds:
            probs.add(doc, (*at, "id"), f"check {t.id.value!r} twice")
        kinds[t.id] = i
        columns = (t.natural_0, t.passed, t.failed, t.natural_9)
        if t.changes_morale:
            c0, c1, c2, c3 = columns
            if c0 is None or c1 is None or c2 is None or c3 is None:
                probs.add(doc, at, "a morale check needs natural_0, passed, failed and natural_9")
            elif not c0 >= c1 >= c2 >= c3:
                probs.add(
                    doc, at, "columns must run best to worst: natural_0 >= passed >= failed >= natural_9"
                )
        else:
            if any(c is not None for c in columns):
                probs.add(doc, at, "a check with changes_morale false has null columns")
            if t.gain_cap is not None:
                probs.add(doc, (*at, "gain_cap"), "a check with changes_morale false has no gain_cap")
    missing_kinds = [k.value for k in CheckKind if k not in kinds]
    if missing_kinds:
        probs.add(doc, ("checks",), f"missing check(s): {', '.join(missing_kinds)}", at_key=True)
    probs.raise_if_any()
    return Checks(raw.morale_states, raw.checks)


CHECKS_FILE = "checks.yaml"


def load_checks(path: Path | str | None = None) -> Checks:
    """Load ``checks.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §7)."""
    return checks_from(read_card_file(path, CHECKS_FILE))
