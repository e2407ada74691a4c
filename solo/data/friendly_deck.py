"""The Friendly deck as data (``cards/friendly_deck.yaml``; base-rules §8, §18): :class:`FriendlyDeckDef`.

50 numbered cards with three even initiatives (Able, Baker, Charlie), a kind (Order or Discard),
a title, a text, a machine-readable :data:`Effect` (a Morale change, a WS modifier, a re-roll,
an extra move, ammunition, an Event table roll...; written ``{kind: ws_modifier, team: baker,
value: 1}``) and a :class:`WoundStamp` read by the wound draw (§8); plus the two Event cards,
which have no initiatives and no stamp. :func:`load_friendly_deck` reads the file, structures it
and checks the deck as a whole (composition, stamps, initiatives); every problem is reported at
once as a :class:`~solo.core.errors.DataError` naming the file and the line.

May import: :mod:`solo.core`, :mod:`solo.data.cards` (reading a deck file).
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Any, ClassVar

import attrs

from solo.core.bounds import HEXES, INITIATIVE, MODIFIER, POSITIVE
from solo.core.catalog import Catalog
from solo.core.datafile import SNAKE_ID, DataFile, Problems, converter, describe, read_card_file
from solo.data.cards import check_card_ids, count_message, read_deck_head, structure_cards


class FriendlyCardKind(enum.Enum):
    """What a Friendly card is (base-rules §18, rule 5.1)."""

    ORDER = "order"
    """Its text applies the turn it is played to the Initiative Track."""
    DISCARD = "discard"
    """Its text is used by discarding it from hand; played to the track only its values count."""
    FRIENDLY_EVENT = "friendly_event"
    """Event card: roll on the Friendly Event table when played."""
    ENEMY_EVENT = "enemy_event"
    """Event card: roll on the Enemy Event table when played."""

    @property
    def is_event(self) -> bool:
        """Whether this is one of the two Event cards."""
        return self in (FriendlyCardKind.FRIENDLY_EVENT, FriendlyCardKind.ENEMY_EVENT)


class WoundStamp(enum.Enum):
    """The wound stamp on a numbered Friendly card, read by the wound draw (base-rules §8)."""

    CLOSE_CALL = "close_call"
    """"MC": a Morale Check."""
    LIGHT = "light"
    """"Amb.": a Light Wound."""
    BAD = "bad"
    """"Evac.": a Bad Wound."""
    KIA = "kia"
    """"Notify NOK": killed."""

    @property
    def severity(self) -> int:
        """0 (Close Call) to 3 (KIA): KIA > Bad > Light > Close Call (C2 24.1, Tough and Deadly)."""
        return _SEVERITY[self]


_SEVERITY = {WoundStamp.CLOSE_CALL: 0, WoundStamp.LIGHT: 1, WoundStamp.BAD: 2, WoundStamp.KIA: 3}


class EffectScope(enum.Enum):
    """Whom a card effect applies to."""

    ALL = "all"
    """Every Friendly character."""
    ABLE = "able"
    BAKER = "baker"
    CHARLIE = "charlie"
    ONE_CHARACTER = "one_character"
    """One Friendly character of the player's choice."""
    NEAR_LEADER = "near_leader"
    """Every Friendly character within the LDR range of a Friendly leader."""


_TEAM_SCOPES = (EffectScope.ALL, EffectScope.ABLE, EffectScope.BAKER, EffectScope.CHARLIE)


def _team_scope(_instance: Any, attribute: attrs.Attribute[Any], value: EffectScope) -> None:
    if value not in _TEAM_SCOPES:
        raise ValueError(f"{attribute.name} must be one of all, able, baker, charlie, got {value.value!r}")


def _nonzero(_instance: Any, attribute: attrs.Attribute[Any], value: int) -> None:
    if value == 0:
        raise ValueError(f"{attribute.name} must not be 0")


def _positive(_instance: Any, attribute: attrs.Attribute[Any], value: int) -> None:
    if value < 1:
        raise ValueError(f"{attribute.name} must be 1 or more, got {value}")


class RollKind(enum.Enum):
    """Which roll a re-roll effect may repeat."""

    ANY = "any"
    FIRE = "fire"
    """A fire attack roll (base-rules §10)."""
    SPOT = "spot"
    """A spotting roll (base-rules §9)."""
    CHECK = "check"
    """An MC, WMC, TQC or RC (base-rules §7)."""
    WOUND = "wound"
    """A wound draw: draw again and use the new stamp (base-rules §8)."""


class EventTable(enum.Enum):
    """The two Event tables (base-rules §18)."""

    FRIENDLY = "friendly"
    ENEMY = "enemy"


@attrs.frozen
class NoEffect:
    """The card's text has no game effect (its values alone count)."""

    kind: ClassVar[str] = "none"


@attrs.frozen
class WsModifier:
    """Add ``value`` to the WS of every fire by ``team`` this turn (base-rules §10)."""

    kind: ClassVar[str] = "ws_modifier"
    value: MODIFIER = attrs.field(validator=_nonzero)
    team: EffectScope = attrs.field(default=EffectScope.ALL, validator=_team_scope)


@attrs.frozen
class MoraleChange:
    """Move the Morale State of the characters in ``scope`` by ``value`` steps (+ is better; base-rules §7).

    Gains stop at Aggressive, as for an RC.
    """

    kind: ClassVar[str] = "morale"
    value: MODIFIER = attrs.field(validator=_nonzero)
    scope: EffectScope = EffectScope.NEAR_LEADER


@attrs.frozen
class Reroll:
    """The player may re-roll ``count`` rolls of kind ``roll`` and must keep the new result."""

    kind: ClassVar[str] = "reroll"
    roll: RollKind = RollKind.ANY
    count: POSITIVE = attrs.field(default=1, validator=_positive)


@attrs.frozen
class ExtraMove:
    """Characters in ``scope`` may move ``hexes`` more hexes in one impulse of this turn."""

    kind: ClassVar[str] = "extra_move"
    scope: EffectScope = EffectScope.ONE_CHARACTER
    hexes: HEXES = attrs.field(default=1, validator=_positive)


@attrs.frozen
class RefillAmmo:
    """The weapons of the characters in ``scope`` return to Full ammo."""

    kind: ClassVar[str] = "ammo"
    scope: EffectScope = EffectScope.ONE_CHARACTER


@attrs.frozen
class RemoveLightWound:
    """Remove ``count`` Light Wounds from characters in ``scope`` (base-rules §8, Medical Aid)."""

    kind: ClassVar[str] = "remove_light_wound"
    scope: EffectScope = EffectScope.ONE_CHARACTER
    count: POSITIVE = attrs.field(default=1, validator=_positive)


@attrs.frozen
class TriggerEvent:
    """Roll on the Friendly or the Enemy Event table (base-rules §18)."""

    kind: ClassVar[str] = "event"
    table: EventTable


@attrs.frozen
class InitiativeSwap:
    """Swap the initiatives of two Friendly teams this turn (``with_enemy``: a Friendly and an Enemy team)."""

    kind: ClassVar[str] = "initiative_swap"
    with_enemy: bool = False


@attrs.frozen
class OrderLimit:
    """Characters of ``team`` may not be given the orders ``forbid`` this turn (base-rules §4).

    ``forbid`` holds order ids (snake_case, as in ``cards/orders.yaml``).
    """

    kind: ClassVar[str] = "order_limit"
    forbid: tuple[str, ...] = attrs.field(validator=attrs.validators.min_len(1))
    team: EffectScope = attrs.field(default=EffectScope.ALL, validator=_team_scope)


Effect = (
    NoEffect
    | WsModifier
    | MoraleChange
    | Reroll
    | ExtraMove
    | RefillAmmo
    | RemoveLightWound
    | TriggerEvent
    | InitiativeSwap
    | OrderLimit
)
"""The effect of a Friendly card, written ``{kind: ws_modifier, team: baker, value: 1}``."""

EFFECT_KINDS: dict[str, type] = {
    cls.kind: cls
    for cls in (
        NoEffect,
        WsModifier,
        MoraleChange,
        Reroll,
        ExtraMove,
        RefillAmmo,
        RemoveLightWound,
        TriggerEvent,
        InitiativeSwap,
        OrderLimit,
    )
}
"""Effect classes by their ``kind`` tag."""


def effect_from_dict(value: Any) -> Effect:
    """Structure a tagged effect mapping (``{kind: ..., ...}``) into its class.

    Raises ``ValueError``/``TypeError`` (or a cattrs validation error for the
    fields) when the mapping is malformed or the kind is unknown.
    """
    kinds = ", ".join(EFFECT_KINDS)
    if not isinstance(value, dict):
        raise TypeError(f"expected an effect mapping with a 'kind' ({kinds}), got {describe(value)}")
    if "kind" not in value:
        raise ValueError(f"missing required key 'kind' (expected one of {kinds})")
    kind = value["kind"]
    if not isinstance(kind, str) or kind not in EFFECT_KINDS:
        raise ValueError(f"unknown effect kind {kind!r} (expected one of {kinds})")
    rest = {k: v for k, v in value.items() if k != "kind"}
    effect: Effect = converter.structure(rest, EFFECT_KINDS[kind])
    if isinstance(effect, OrderLimit):
        for order_id in effect.forbid:
            if not SNAKE_ID.match(order_id):
                raise ValueError(f"order id {order_id!r} must be snake_case (e.g. 'sprint')")
    return effect


def effect_to_dict(effect: Effect) -> dict[str, Any]:
    """The tagged mapping of ``effect`` (inverse of :func:`effect_from_dict`)."""
    out: dict[str, Any] = {"kind": effect.kind}
    for field in attrs.fields(type(effect)):
        value = getattr(effect, field.name)
        if isinstance(value, enum.Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


converter.register_structure_hook_func(lambda t: t == Effect, lambda v, _t: effect_from_dict(v))


@attrs.frozen
class Initiatives:
    """The three initiatives of a numbered Friendly card: even numbers 2-98 (base-rules §2, §18)."""

    able: INITIATIVE
    baker: INITIATIVE
    charlie: INITIATIVE

    def as_tuple(self) -> tuple[int, int, int]:
        """(Able, Baker, Charlie)."""
        return (self.able, self.baker, self.charlie)


@attrs.frozen
class FriendlyCard:
    """One Friendly card: a numbered Order or Discard card, or an Event card (base-rules §18)."""

    id: str
    """Stable snake_case id (``"f07"``, ``"friendly_event"``)."""
    kind: FriendlyCardKind
    title: str
    text: str
    """The rules text the player reads; ``effect`` is what the engine applies."""
    effect: Effect
    initiatives: Initiatives | None = None
    """Able, Baker, Charlie; None on Event cards."""
    stamp: WoundStamp | None = None
    """The wound stamp (base-rules §8); None on Event cards."""


@attrs.frozen
class FriendlyDeckDef(Catalog):
    """The 52 Friendly cards (50 numbered + 2 Event cards), by id (:meth:`card`, ``in``, file order)."""

    _ITEMS: ClassVar[str] = "cards"
    _WHAT: ClassVar[str] = "Friendly card"

    cards: tuple[FriendlyCard, ...]
    _by_id: dict[str, FriendlyCard] = attrs.field(init=False, eq=False, repr=False)
    edition: str = "house"
    source: str = "cards/friendly_deck.yaml"

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    @property
    def numbered(self) -> tuple[FriendlyCard, ...]:
        """The Order and Discard cards."""
        return tuple(c for c in self.cards if not c.kind.is_event)

    @property
    def events(self) -> tuple[FriendlyCard, ...]:
        """The Event cards."""
        return tuple(c for c in self.cards if c.kind.is_event)

    def card(self, card_id: str) -> FriendlyCard:
        """The card with id ``card_id`` (:meth:`get`). Raises ``KeyError`` if there is none."""
        card: FriendlyCard = self.get(card_id)
        return card


FRIENDLY_NUMBERED = 50
"""Numbered cards in the Friendly deck (base-rules §18)."""
STAMP_COMPOSITION: dict[WoundStamp, int] = {
    WoundStamp.CLOSE_CALL: 13,
    WoundStamp.LIGHT: 16,
    WoundStamp.BAD: 15,
    WoundStamp.KIA: 6,
}
"""Wound stamps across the 50 numbered cards (base-rules §8)."""
KIND_COMPOSITION: dict[FriendlyCardKind, int] = {
    FriendlyCardKind.ORDER: 32,
    FriendlyCardKind.DISCARD: 18,
}
"""Order and Discard cards among the 50 numbered cards (base-rules §18)."""


def load_friendly_deck(path: Path | None = None) -> FriendlyDeckDef:
    """Load and check the Friendly deck (``cards/friendly_deck.yaml`` when ``path`` is None).

    Checks (base-rules §8, §18): 50 numbered cards, 32 Order and 18 Discard,
    with initiatives (even, 2-98) and wound stamps 13 Close Call, 16 Light,
    15 Bad, 6 KIA; exactly one ``friendly_event`` and one ``enemy_event`` card,
    without initiatives or stamp, whose effect rolls on their own table;
    snake_case unique ids; non-empty titles and texts.
    Raises :class:`~solo.core.errors.DataError` listing every problem with its line.
    """
    doc = read_card_file(path, "friendly_deck.yaml")
    head = read_deck_head(doc)
    probs = Problems()
    cards = structure_cards(doc, head, FriendlyCard, probs)
    check_card_ids(doc, cards, probs)
    for i, card in cards:
        for key in ("title", "text"):
            if not getattr(card, key).strip():
                probs.add(doc, ("cards", i, key), f"{key} must not be empty")
        if card.kind.is_event:
            _check_event_card(doc, i, card, probs)
        else:
            _check_numbered_card(doc, i, card, probs)
    if len(head.cards) == len(cards):  # composition only once every card could be read
        _check_composition(doc, [c for _, c in cards], probs)
    probs.raise_if_any()
    return FriendlyDeckDef(tuple(c for _, c in cards), edition=head.edition, source=doc.name)


def _check_event_card(doc: DataFile, i: int, card: FriendlyCard, probs: Problems) -> None:
    if card.initiatives is not None:
        probs.add(doc, ("cards", i, "initiatives"), "an Event card has no initiatives")
    if card.stamp is not None:
        probs.add(doc, ("cards", i, "stamp"), "an Event card has no wound stamp")
    table = "friendly" if card.kind is FriendlyCardKind.FRIENDLY_EVENT else "enemy"
    if not (isinstance(card.effect, TriggerEvent) and card.effect.table.value == table):
        probs.add(
            doc,
            ("cards", i, "effect"),
            f"the effect of a {card.kind.value} card must be {{kind: event, table: {table}}}",
        )


def _check_numbered_card(doc: DataFile, i: int, card: FriendlyCard, probs: Problems) -> None:
    if card.initiatives is None:
        probs.add(
            doc,
            ("cards", i),
            f"a numbered card needs initiatives {{able, baker, charlie}} (card {card.id!r})",
        )
    else:
        for team in ("able", "baker", "charlie"):
            value = getattr(card.initiatives, team)
            if not (2 <= value <= 98 and value % 2 == 0):
                probs.add(
                    doc,
                    ("cards", i, "initiatives", team),
                    f"initiative {value} for {team} must be even, 2-98",
                )
    if card.stamp is None:
        probs.add(doc, ("cards", i), f"a numbered card needs a wound stamp (card {card.id!r})")


def _check_composition(doc: DataFile, cards: list[FriendlyCard], probs: Problems) -> None:
    numbered = [c for c in cards if not c.kind.is_event]
    if len(numbered) != FRIENDLY_NUMBERED:
        probs.add(
            doc,
            ("cards",),
            "the Friendly deck has " + count_message("numbered cards", len(numbered), FRIENDLY_NUMBERED),
            at_key=True,
        )
    for kind in (FriendlyCardKind.FRIENDLY_EVENT, FriendlyCardKind.ENEMY_EVENT):
        found = sum(1 for c in cards if c.kind is kind)
        if found != 1:
            probs.add(doc, ("cards",), f"expected exactly one {kind.value} card, found {found}", at_key=True)
    for kind, expected in KIND_COMPOSITION.items():
        found = sum(1 for c in numbered if c.kind is kind)
        if found != expected:
            probs.add(doc, ("cards",), "kinds: " + count_message(kind.value, found, expected), at_key=True)
    for stamp, expected in STAMP_COMPOSITION.items():
        found = sum(1 for c in numbered if c.stamp is stamp)
        if found != expected:
            probs.add(
                doc,
                ("cards",),
                "wound stamps: " + count_message(f"{stamp.value} stamps", found, expected),
                at_key=True,
            )


__all__ = [
    "EFFECT_KINDS",
    "FRIENDLY_NUMBERED",
    "KIND_COMPOSITION",
    "STAMP_COMPOSITION",
    "Effect",
    "EffectScope",
    "EventTable",
    "ExtraMove",
    "FriendlyCard",
    "FriendlyCardKind",
    "FriendlyDeckDef",
    "InitiativeSwap",
    "Initiatives",
    "MoraleChange",
    "NoEffect",
    "OrderLimit",
    "RefillAmmo",
    "RemoveLightWound",
    "Reroll",
    "RollKind",
    "TriggerEvent",
    "WoundStamp",
    "WsModifier",
    "effect_from_dict",
    "effect_to_dict",
    "load_friendly_deck",
]
