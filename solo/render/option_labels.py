"""House options in the player's words (base-rules §20): a label, the rule it changes, its values.

The start screen shows ``"Night LOS limit: 5 hexes · Q20, §15"`` instead of ``night_los = 5``.
Every field of :class:`~solo.core.options.Options` has an entry (a test checks it). No pygame.
"""

from __future__ import annotations

from typing import Any

import attrs

from solo.core.options import Options


@attrs.frozen
class OptionLabel:
    """How one house option is shown: ``label``, the ``rule`` it changes, its values' words."""

    label: str
    rule: str
    values: dict[Any, str] = attrs.field(factory=dict)
    """Value → words (a value not listed is shown as it is, with ``unit`` after a number)."""
    unit: str = ""
    short: str = ""
    """A shorter label for a narrow column (empty: ``label``)."""


_YES_NO = {True: "yes", False: "no"}

OPTION_LABELS: dict[str, OptionLabel] = {
    "night_los": OptionLabel("Night LOS limit", "Q20, §15", unit="hexes", short="Night LOS"),
    "optional_enemy_activation": OptionLabel(
        "Enemy orders only when a team activates", "C2 23.5", _YES_NO, short="Orders on activation"
    ),
    "morale_modifies_spotting": OptionLabel(
        "Morale fire modifier also to spot", "Q7", _YES_NO, short="Morale mod. to spot"
    ),
    "medical_aid_range": OptionLabel(
        "Medical Aid reach", "Q25", {0: "same hex", 1: "adjacent hexes"}, short="Medical Aid reach"
    ),
    "smoke_grenade_timing": OptionLabel(
        "Smoke grenade smoke",
        "Q16",
        {"end_of_turn": "next turn", "immediate": "at once"},
        short="Smoke grenade",
    ),
    "blast_mc_only_if_unhurt": OptionLabel(
        "Blast MC only if no die hit", "Q17", _YES_NO, short="Blast MC if unhurt"
    ),
    "plan_roll": OptionLabel("Plan also needs d10 ≤ LDR", "Q24", _YES_NO, short="Plan needs LDR roll"),
    "dummy_tq": OptionLabel("Dummy spotting TQ", "§3", short="Dummy TQ"),
    "oba_model": OptionLabel(
        "Off-board artillery damage",
        "Q22, §14",
        {"tq_minus_power": "TQ minus power"},
        short="Artillery damage",
    ),
    "rout_leaves_map": OptionLabel(
        "Routed Enemies may leave the map", "§5.7", _YES_NO, short="Routed leave the map"
    ),
    "emergency_stop_ldr": OptionLabel(
        "Emergency Stop TQC adds Commander LDR", "C2 31.2", _YES_NO, short="E. Stop TQC + LDR"
    ),
    "closed_hatch_marker": OptionLabel(
        "Closed-hatch −2 with a Target Marker",
        "C2 31.7.3/31.8",
        {"negated": "negated", "minus_1": "−1"},
        short="Closed-hatch −2",
    ),
    "half_track_vom": OptionLabel(
        "Half-Track VOM columns",
        "C2 31.11.3",
        {"own": "Half-Track", "afv_open": "AFV OPEN"},
        short="Half-Track VOM",
    ),
    "half_track_target": OptionLabel(
        "Half-Track Target column",
        "C2 31.7.2",
        {"sees": "if he sees one", "never": "never"},
        short="Half-Track Target",
    ),
    "hatchless_gunner_vom": OptionLabel(
        "Tank Gunner's VOM column", "C2 31.8", {"bu": "BU", "open": "OPEN"}, short="Gunner's VOM"
    ),
    "hatchless_gunner_spot": OptionLabel(
        "Tank Gunner spots as closed hatch", "C2 31.7.3", _YES_NO, short="Gunner as closed"
    ),
    "minefield_men": OptionLabel(
        "Men entering a minefield",
        "C2 31.5",
        {"morale_check": "take an MC", "none": "nothing"},
        short="Men in minefield",
    ),
    "wreck_cover": OptionLabel("A wreck gives AFV cover", "C2 27.9", _YES_NO, short="Wreck gives cover"),
    "hexside_vertex_los": OptionLabel(
        "Hedge/wall at a hex corner blocks",
        "§16, C2 27.3",
        {"both_sides": "if both sides", "any_touch": "if touched"},
        short="Hedge at corner",
    ),
    "mount_up_hatch": OptionLabel(
        "Mount Up by a closed hatch",
        "C2 31.11.2",
        {"open_on_4": "open on Impulse 4", "stays_closed": "stays closed"},
        short="Mount Up hatch",
    ),
    "mine_wheel_effect": OptionLabel(
        "Mine Wheel result: Wheel effect", "C2 31.5", _YES_NO, short="Mine Wheel effect"
    ),
    "medic_morale_on": OptionLabel(
        "Injured medic table",
        "C2 30.1",
        {"killed_or_bad": "killed, Bad Wound", "out_of_action": "any loss"},
        short="Medic table",
    ),
    "he_blast_dice": OptionLabel(
        "HE at a hex rolls",
        "C2 31.9.4",
        {"frag_dice": "Frag dice", "blast_dice": "Blast dice"},
        short="HE at a hex",
    ),
    "closed_hatch_nonpen_mc": OptionLabel(
        "Closed hatch, non-penetrating MC",
        "C2 31.10.6",
        {"ignored": "ignored", "taken": "taken"},
        short="Closed, non-pen. MC",
    ),
    "hatch_grenade_wounds": OptionLabel(
        "Hatch grenade wounds",
        "C2 31.10.7",
        {"every_crewman": "every crewman", "at_the_hatch": "man at hatch"},
        short="Hatch grenade",
    ),
    "cupola_heavy_hit": OptionLabel(
        "Cupola hit by AP > 37 mm or HEAT",
        "C2 31.10.8",
        {"killed": "killed", "wounds": "3 wound cards"},
        short="Heavy cupola hit",
    ),
    "suspension_heat": OptionLabel(
        "Suspension hit by HEAT",
        "C2 31.10.8",
        {"immobilized": "immobilized", "small_calibre": "d10 0-4"},
        short="HEAT suspension",
    ),
}
"""Option name → how it is shown."""


def value_words(name: str, value: Any) -> str:
    """``value`` of option ``name`` in words: ``"yes"``, ``"next turn"``, ``"5 hexes"``."""
    lab = OPTION_LABELS.get(name)
    if lab is None:
        return str(value)
    if value in lab.values and type(value) is type(next(iter(lab.values))):
        return lab.values[value]
    return f"{value} {lab.unit}".strip()


def option_line(name: str, value: Any, *, changed: bool) -> str:
    """One option as the start screen shows it: ``"Night LOS limit: 4 hexes (house: 5) · Q20, §15"``."""
    lab = OPTION_LABELS.get(name)
    default = getattr(Options(), name)
    head = lab.label if lab is not None else name.replace("_", " ")
    text = f"{head}: {value_words(name, value)}"
    if changed:
        text += f" (house: {value_words(name, default)})"
    return text + (f" · {lab.rule}" if lab is not None else "")


def option_forms(name: str, value: Any, *, changed: bool) -> tuple[str, ...]:
    """:func:`option_line` and its shorter forms by a fixed rule, longest first: without the house
    value, then without the rule number (for a narrow column; never a cut)."""
    lab = OPTION_LABELS.get(name)
    head = lab.label if lab is not None else name.replace("_", " ")
    plain = f"{head}: {value_words(name, value)}" + (" *" if changed else "")
    rule = f" · {lab.rule}" if lab is not None else ""
    short = f"{lab.short or lab.label if lab is not None else head}: {value_words(name, value)}"
    return (option_line(name, value, changed=changed), plain + rule, plain, short + (" *" if changed else ""))


__all__ = ["OPTION_LABELS", "OptionLabel", "option_forms", "option_line", "value_words"]
