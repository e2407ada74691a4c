"""Order definitions (``cards/orders.yaml``; base-rules §4, §6; C2 31.11.2): :class:`OrderTable`.

An order has a track of four Impulse steps (:class:`TrackStep`: may move, move 1-4 hexes, fire,
melee), the direction slots of the house direction strings (§6), the WS modifier of its fire, the
spotting and fire chart groups of a man on it (S0-S6, G0-G6 as 0-6), whether it is low, and flags
(:class:`OrderFlag`). Character orders (§4) carry the Enemy card codes; vehicle speeds and crew
orders are C2 31.11.2. :func:`load_orders` reads and checks the file and raises one
:class:`~solo.core.errors.DataError` naming every problem with its line; :meth:`Order.track` and
:meth:`Order.slots` take Impulses 1-4.

May import: :mod:`solo.core`, :mod:`solo.data.tables` (the Source tag), :mod:`solo.data.charts`
(the number of chart groups).
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import ClassVar

import attrs

from solo.core.bounds import GROUP, ORDER_TQ_MODIFIER, ORDER_WS_MODIFIER
from solo.core.catalog import Catalog
from solo.core.datafile import SNAKE_ID, DataFile, DocPath, Problems, check_unique, read_card_file, structure
from solo.data.charts import GROUP_COUNT
from solo.data.tables import Source

IMPULSES: tuple[int, ...] = (1, 2, 3, 4)
"""The four Impulses of a turn."""


class OrderKind(enum.Enum):
    """Who takes an order."""

    CHARACTER = "character"
    """An infantry character (base-rules §4)."""
    VEHICLE = "vehicle"
    """A vehicle's Driver: a speed order (C2 31.11.2)."""
    CREW = "crew"
    """A vehicle crew member's order other than speed (C2 31.11.2: Spot, Load HE, Bail Out...)."""


class TrackStep(enum.Enum):
    """What an order allows in one Impulse (base-rules §4 track)."""

    NONE = "-"
    MAY_MOVE = "m"
    MOVE = "M"
    MOVE_2 = "M2"
    MOVE_3 = "M3"
    """Vehicle speeds only [house]."""
    MOVE_4 = "M4"
    """Vehicle speeds only [house]."""
    FIRE = "F"
    """One fire action, or one throw for a grenade order."""
    MELEE = "X"

    @property
    def hexes(self) -> int:
        """The most hexes (or vehicle movement points) this step moves."""
        return _STEP_HEXES[self]

    @property
    def must_move(self) -> bool:
        """True for ``M``, ``M2``.. (move orders must move, 7.0; vehicles too, C2 31.1)."""
        return self.hexes > 0 and self is not TrackStep.MAY_MOVE


_STEP_HEXES = {
    TrackStep.NONE: 0,
    TrackStep.MAY_MOVE: 1,
    TrackStep.MOVE: 1,
    TrackStep.MOVE_2: 2,
    TrackStep.MOVE_3: 3,
    TrackStep.MOVE_4: 4,
    TrackStep.FIRE: 0,
    TrackStep.MELEE: 0,
}


class Slot(enum.Enum):
    """A direction slot of the HOUSE RULE direction strings (base-rules §6): for ``X/Y``, A = X, B = Y."""

    A = "A"
    B = "B"


class OrderFlag(enum.Enum):
    """Special handling of an order's steps."""

    TARGET_KNOWN_AT_IMPULSE_START = "target_known_at_impulse_start"
    """Aimed Fire: the target must be Known at the start of the Impulse [rulebook]."""
    HITS_MORALE_ONLY = "hits_morale_only"
    """Suppressive Fire: a hit causes an MC only (base-rules §10)."""
    IGNORES_FIRE_CHART = "ignores_fire_chart"
    """Suppressive Fire: no fire-chart modifier (base-rules §10)."""
    MOVES_IF_NO_TARGET = "moves_if_no_target"
    """Run & Gun: an enemy with no target moves 1 hex on an F step (10.04); F steps hold a slot."""
    ROUGH_ENDS_IN_DUCK_BACK = "rough_ends_in_duck_back"
    """Sprint: entering Rough terrain gives Duck Back at the end of the Impulse (11.0)."""
    THROWS = "throws"
    """Grenade orders: the F step is a throw (§12)."""


CARD_CODES: tuple[str, ...] = ("AF", "RF", "SF", "RG", "SN", "EV", "SP", "RA", "HI")
"""Order codes printed on Enemy Order cards (base-rules §5.1)."""

REQUIRED_ORDER_IDS: tuple[str, ...] = (
    "aimed_fire", "rapid_fire", "suppressive_fire", "run_and_gun", "sneak", "evade", "sprint",
    "charge", "melee", "grenade", "smoke_grenade", "rifle_grenade", "carry_drag", "reload",
    "medical_aid", "search", "plan", "hide", "rally", "guard", "duck_back", "waiting",
    "crawl", "ahead_slow", "forward", "fast", "reverse", "emergency_stop",
)  # fmt: skip
"""Order ids the engine refers to; an orders file must define them all."""


def _check_impulse(impulse: int) -> int:
    if not isinstance(impulse, int) or not 1 <= impulse <= 4:
        raise ValueError(f"impulse must be 1-4, got {impulse!r}")
    return impulse - 1


@attrs.frozen
class Order:
    """An order definition (base-rules §4): what it allows each Impulse and how it shows.

    Use :meth:`track` and :meth:`slots` with Impulses 1-4.
    """

    id: str
    code: str | None
    """Enemy Order card code (``"RF"``), or ``None`` if no card row names the order."""
    name: str
    kind: OrderKind
    steps: tuple[TrackStep, ...]
    """The track, Impulse 1 first (4 steps)."""
    direction_slots: tuple[tuple[Slot, ...], ...]
    """Per Impulse (Impulse 1 first), one direction slot per hex moved (base-rules §6)."""
    ws_modifier: ORDER_WS_MODIFIER | None
    """WS modifier of the order's fire; ``None`` = no fire. For a vehicle speed: all fire
    from the vehicle (C2 31.11.2)."""
    melee_tq_modifier: ORDER_TQ_MODIFIER
    """Added to melee TQ on the order's X steps (Charge +1, 10.08)."""
    spot_group: GROUP | None
    """Spotting chart column S0-S6 when this man is the target; ``None`` for vehicle orders."""
    fire_group: GROUP | None
    """Fire chart column G0-G6 when this man is the target; ``None`` for vehicle orders."""
    low: bool
    """A low order for LOS (base-rules §4, §16)."""
    flags: tuple[OrderFlag, ...]
    source: Source
    rule: str
    notes: str

    def track(self, impulse: int) -> TrackStep:
        """The track step on ``impulse`` (1-4). Raises :class:`ValueError` for another Impulse."""
        return self.steps[_check_impulse(impulse)]

    def slots(self, impulse: int) -> tuple[Slot, ...]:
        """The direction slots on ``impulse`` (1-4), one per hex (base-rules §6 HOUSE RULE).

        Raises :class:`ValueError` for another Impulse.
        """
        return self.direction_slots[_check_impulse(impulse)]

    @property
    def hexes(self) -> int:
        """The most hexes the track moves in a turn (base-rules §4 "Hexes"; 10.04 moves excluded)."""
        return sum(step.hexes for step in self.steps)

    @property
    def can_fire(self) -> bool:
        """True if the order gives fire actions (its WS column is not "-")."""
        return self.ws_modifier is not None

    @property
    def is_vehicle(self) -> bool:
        """True for a Driver's speed order."""
        return self.kind is OrderKind.VEHICLE

    def has_flag(self, flag: OrderFlag) -> bool:
        """True if the order carries ``flag``."""
        return flag in self.flags


@attrs.frozen
class OrderTable(Catalog):
    """All order definitions, by id (:meth:`get`, ``in``, iteration) and by Enemy card code."""

    _ITEMS: ClassVar[str] = "orders"
    _WHAT: ClassVar[str] = "order"

    orders: tuple[Order, ...]
    _by_id: dict[str, Order] = attrs.field(init=False, eq=False, repr=False)
    _by_code: dict[str, Order] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {o.id: o for o in self.orders})
        object.__setattr__(self, "_by_code", {o.code: o for o in self.orders if o.code})

    def by_code(self, code: str) -> Order:
        """The order an Enemy card code (``"RF"``) stands for. Raises :class:`KeyError`."""
        try:
            return self._by_code[code]
        except KeyError:
            raise KeyError(f"unknown order code {code!r}") from None


@attrs.frozen
class OrderEntry:
    """One entry of ``orders.yaml`` as written (see the file's header)."""

    id: str
    name: str
    kind: OrderKind
    track: str
    ws_modifier: ORDER_WS_MODIFIER | None
    spot_group: GROUP | None
    fire_group: GROUP | None
    source: Source
    rule: str
    code: str | None = None
    slots: tuple[tuple[Slot, ...], ...] = ((), (), (), ())
    melee_tq_modifier: ORDER_TQ_MODIFIER = 0
    low: bool = False
    flags: tuple[OrderFlag, ...] = ()
    notes: str = ""


@attrs.frozen
class OrdersFile:
    """``orders.yaml`` as written."""

    orders: tuple[OrderEntry, ...]


def _parse_track(text: str) -> tuple[tuple[TrackStep, ...], list[str]]:
    tokens = text.split()
    steps: list[TrackStep] = []
    problems: list[str] = []
    for token in tokens:
        try:
            steps.append(TrackStep(token))
        except ValueError:
            options = " ".join(s.value for s in TrackStep)
            problems.append(f"bad track step {token!r} (expected one of: {options})")
    if len(tokens) != 4:
        problems.append(f"a track has exactly 4 Impulses, got {len(tokens)} in {text!r}")
    return tuple(steps), problems


def _slot_count_problem(step: TrackStep, count: int, *, fallback: bool) -> str | None:
    if step is TrackStep.MAY_MOVE:
        ok, expected = count <= 1, "0 or 1 slot (m may move 1 hex)"
    elif step is TrackStep.FIRE and fallback:
        ok, expected = count == 1, "1 slot (moves_if_no_target, 10.04)"
    elif step.hexes:
        ok, expected = count == step.hexes, f"{step.hexes} slot(s), one per hex"
    else:
        ok, expected = count == 0, "no slots (the step does not move)"
    if ok:
        return None
    return f"track step {step.value!r} has {count} direction slot(s), expected {expected}"


def _entry_order(doc: DataFile, probs: Problems, i: int, e: OrderEntry) -> Order | None:
    at: DocPath = ("orders", i)
    before = len(probs.items)
    if not SNAKE_ID.match(e.id):
        probs.add(doc, (*at, "id"), f"order id {e.id!r} must be snake_case")
    if e.code is not None and e.code not in CARD_CODES:
        probs.add(
            doc,
            (*at, "code"),
            f"unknown card code {e.code!r} (expected one of: {', '.join(CARD_CODES)}, or null)",
        )
    steps, track_problems = _parse_track(e.track)
    for message in track_problems:
        probs.add(doc, (*at, "track"), message)
    if len(set(e.flags)) != len(e.flags):
        probs.add(doc, (*at, "flags"), "a flag is listed twice")
    fallback = OrderFlag.MOVES_IF_NO_TARGET in e.flags
    if len(e.slots) != 4:
        probs.add(doc, (*at, "slots"), f"slots has exactly 4 Impulses, got {len(e.slots)}")
    elif len(steps) == 4:
        for k, (step, slots) in enumerate(zip(steps, e.slots, strict=True)):
            problem = _slot_count_problem(step, len(slots), fallback=fallback)
            if problem:
                probs.add(doc, (*at, "slots", k), f"Impulse {k + 1}: {problem}")
    vehicle = e.kind is OrderKind.VEHICLE
    crew = e.kind is OrderKind.CREW
    if crew and e.code is not None:
        probs.add(doc, (*at, "code"), "a crew order has no card code (crews use the VOM, C2 31.11.3)")
    for field, group in (("spot_group", e.spot_group), ("fire_group", e.fire_group)):
        if group is None and not vehicle and not crew:
            probs.add(doc, (*at, field), f"{field} is required for a character order (0-6)")
        elif group is not None and not 0 <= group < GROUP_COUNT:
            probs.add(doc, (*at, field), f"{field} {group} outside 0-6")
        elif group is not None and vehicle:
            probs.add(doc, (*at, field), f"{field} must be null for a vehicle order (C2 31.7)")
    if vehicle:
        if e.code is not None:
            probs.add(doc, (*at, "code"), "a vehicle order has no card code")
        if e.low:
            probs.add(doc, (*at, "low"), "a vehicle order cannot be low")
        bad = [s.value for s in steps if s in (TrackStep.MAY_MOVE, TrackStep.FIRE, TrackStep.MELEE)]
        if bad:
            probs.add(
                doc,
                (*at, "track"),
                f"vehicle order track holds {', '.join(bad)} (expected '-' or M, M2, M3, M4)",
            )
    elif any(s in (TrackStep.MOVE_3, TrackStep.MOVE_4) for s in steps):
        probs.add(doc, (*at, "track"), "M3 and M4 are for vehicle orders only")
    if TrackStep.FIRE in steps and e.ws_modifier is None and OrderFlag.THROWS not in e.flags:
        probs.add(
            doc,
            (*at, "ws_modifier"),
            "the track has F but ws_modifier is null (give a WS modifier, or flag throws)",
        )
    if OrderFlag.THROWS in e.flags and TrackStep.FIRE not in steps:
        probs.add(doc, (*at, "flags"), "flag throws needs an F step")
    if fallback and TrackStep.FIRE not in steps:
        probs.add(doc, (*at, "flags"), "flag moves_if_no_target needs an F step")
    if e.melee_tq_modifier and TrackStep.MELEE not in steps:
        probs.add(doc, (*at, "melee_tq_modifier"), "melee_tq_modifier needs an X step")
    if len(probs.items) != before:
        return None
    return Order(
        id=e.id,
        code=e.code,
        name=e.name,
        kind=e.kind,
        steps=steps,
        direction_slots=e.slots,
        ws_modifier=e.ws_modifier,
        melee_tq_modifier=e.melee_tq_modifier,
        spot_group=e.spot_group,
        fire_group=e.fire_group,
        low=e.low,
        flags=e.flags,
        source=e.source,
        rule=e.rule,
        notes=e.notes,
    )


def orders_from(doc: DataFile) -> OrderTable:
    """Build the :class:`OrderTable` from a read ``orders.yaml``.

    Checks (base-rules §4, §6): snake_case unique ids; known unique card codes, all present;
    exactly 4 Impulses in ``track`` and ``slots``; slot counts match the track (M = 1,
    M2 = 2, m at most 1, none where it does not move); groups 0-6; every id of
    :data:`REQUIRED_ORDER_IDS`. Raises :class:`DataError` listing every problem.
    """
    raw = structure(doc, OrdersFile)
    probs = Problems()
    orders: list[Order] = []
    first_id = check_unique(
        probs,
        doc,
        [(("orders", i, "id"), e.id) for i, e in enumerate(raw.orders)],
        "duplicate order id {id!r} (first in entry {number})",
    )
    first_code = check_unique(
        probs,
        doc,
        [(("orders", i, "code"), e.code) for i, e in enumerate(raw.orders)],
        "duplicate card code {id!r} (first in entry {number})",
    )
    for i, e in enumerate(raw.orders):
        order = _entry_order(doc, probs, i, e)
        if order is not None:
            orders.append(order)
    missing_codes = [c for c in CARD_CODES if c not in first_code]
    if missing_codes:
        probs.add(doc, ("orders",), f"no order has card code(s) {', '.join(missing_codes)}", at_key=True)
    missing = [i for i in REQUIRED_ORDER_IDS if i not in first_id]
    if missing:
        probs.add(doc, ("orders",), f"missing order(s): {', '.join(missing)}", at_key=True)
    probs.raise_if_any()
    return OrderTable(tuple(orders))


ORDERS_FILE = "orders.yaml"


def load_orders(path: Path | str | None = None) -> OrderTable:
    """Load ``orders.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §4)."""
    return orders_from(read_card_file(path, ORDERS_FILE))
