"""Named house options (base-rules §20): each house rule the engine uses, as a value a player can change.

``Options()`` is the house edition. A scenario or the command line may change
any field by name (``Options.from_dict({"night_los": 4})``); unknown names and
values of the wrong type are errors. Options given on the command line are
written in the game log's header; a scenario's own options come with the
scenario file.
"""

from __future__ import annotations

from typing import Any

import attrs

from solo.core.bounds import HEXES, RANGE, TQ

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "smoke_grenade_timing": ("end_of_turn", "immediate"),
    "oba_model": ("tq_minus_power",),
    "closed_hatch_marker": ("negated", "minus_1"),
    "half_track_vom": ("own", "afv_open"),
    "half_track_target": ("sees", "never"),
    "hatchless_gunner_vom": ("bu", "open"),
    "minefield_men": ("morale_check", "none"),
    "hexside_vertex_los": ("both_sides", "any_touch"),
    "mount_up_hatch": ("open_on_4", "stays_closed"),
    "medic_morale_on": ("killed_or_bad", "out_of_action"),
    "he_blast_dice": ("frag_dice", "blast_dice"),
    "closed_hatch_nonpen_mc": ("ignored", "taken"),
    "hatch_grenade_wounds": ("every_crewman", "at_the_hatch"),
    "cupola_heavy_hit": ("killed", "wounds"),
    "suspension_heat": ("immobilized", "small_calibre"),
}
"""The values a text option may take (anything else is an error)."""
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "night_los": (1, 99),
    "medical_aid_range": (0, 1),
    "dummy_tq": (0, 9),
}
"""The range a whole-number option may take."""


@attrs.frozen
class Options:
    """The house options of base-rules §20 that the engine reads."""

    night_los: HEXES = 5
    """Q20: LOS limit at night, hexes (§15)."""
    optional_enemy_activation: bool = False
    """C2 23.5: draw Enemy orders only when a team activates (or an enemy is fired on)."""
    morale_modifies_spotting: bool = True
    """Q7: the firer's morale fire-WS modifier also applies to spotting."""
    medical_aid_range: RANGE = 0
    """Q25: Medical Aid reaches the same hex (0) or adjacent hexes (1)."""
    smoke_grenade_timing: str = "end_of_turn"
    """Q16: ``end_of_turn`` (Smoke next turn) or ``immediate``."""
    blast_mc_only_if_unhurt: bool = False
    """Q17: the reconstruction's blast MC (in-hex only if no die hit) instead of C2's everyone."""
    plan_roll: bool = False
    """Q24: Plan also needs d10 <= LDR."""
    dummy_tq: TQ = 1
    """§3: the TQ a dummy spots with."""
    oba_model: str = "tq_minus_power"
    """Q22: off-board artillery damage model. Only ``tq_minus_power`` (base-rules §14): the
    ``blast_frag`` reading (C2 31.9.4 d ii) needs printed Blast/Frag values per calibre and a
    cover reading with no firer, which we do not have, so it was removed rather than faked."""
    rout_leaves_map: bool = True
    """§5.7: Routed enemies may leave the map (counted as killed)."""
    emergency_stop_ldr: bool = True
    """C2 31.2 (1): the Enemy Driver's Emergency Stop TQC is against his TQ plus the Commander's
    Leadership (``true``, as the example of play computes it: 5 + 2) or his plain TQ (``false``)."""
    closed_hatch_marker: str = "negated"
    """C2 31.7.3 vs 31.8: a buttoned-up crewman's -2 spotting penalty when a marker helps him:
    ``negated`` (31.7.3, as the example of play: another crewman's Target Marker in or adjacent
    to the target, or another same-side AFV Commander's, negates it completely) or ``minus_1``
    (31.8: a crewmate's Target Marker on the target hex reduces it to -1)."""
    half_track_vom: str = "own"
    """C2 31.11.3: the VOM columns an Enemy Half-Track crewman reads: ``own`` (the house
    Half-Track Target / No Target columns) or ``afv_open`` (the AFV Target OPEN / No Target OPEN
    columns: "Half-Tracks have no hatches and thus always use the Open columns")."""
    half_track_target: str = "sees"
    """C2 31.7.2 vs 31.11.3: when an Enemy Half-Track crewman reads a Target column, his crew
    placing no Target Markers: ``sees`` (when he sees a Spotted Friendly or a Friendly vehicle,
    [house]) or ``never`` (no marker is ever on the board, so always No Target)."""
    hatchless_gunner_vom: str = "bu"
    """C2 31.8, 31.11.3: the VOM column of a tank Gunner, who has no hatch: ``bu`` (he sits
    inside the armor, buttoned up) or ``open`` (no closed hatch, so the OPEN columns)."""
    hatchless_gunner_spot: bool = True
    """C2 31.7.3, 31.8: whether the closed-hatch -2 to spot (and to move a Target Marker) applies
    to a tank Gunner, who has no hatch: ``true`` (he sees through periscopes like a closed hatch)
    or ``false`` (only a Closed Hatch gives the penalty)."""

    minefield_men: str = "morale_check"
    """C2 31.5 gives mines only for vehicles; a man on foot entering a minefield hex:
    ``morale_check`` (an MC, failed = Duck Back, as the §18 "minefield MC" entry) or ``none``."""

    wreck_cover: bool = True
    """C2 27.9: a destroyed AFV or Half-Track (a wreck) still in its hex gives the 'In hex with
    AFV/Half-Track' chart line (``true``) or only a live one does (``false``); the rule is silent."""

    hexside_vertex_los: str = "both_sides"
    """§16 step 2, C2 27.3: hedges, walls and bocage where the line passes through a hex corner
    (a vertex) or along a hexside, between intervening hexes: ``both_sides`` (the line is blocked
    only if it is blocked on both sides of the corner, as "a line along a hexside is blocked only
    if both hexes beside it block"; the hexside it runs along is crossed by neither side and does
    not block) or ``any_touch`` (every feature hexside the line touches blocks)."""

    mount_up_hatch: str = "open_on_4"
    """C2 31.11.2 Mount Up through a closed hatch: ``open_on_4`` (the text: "the hatch is
    considered to be open on Impulse 4": he opens it on Impulse 4, it stays open when he gets in
    at the end of the turn) or ``stays_closed`` (he gets in at the end of the turn and the hatch
    stays closed)."""

    mine_wheel_effect: bool = True
    """C2 31.5: a mine's "1-3 Left Wheel, 4-6 Right Wheel" result: ``true`` applies the 31.10.8
    Wheel effect (immobilized; "Next turn Enemy Drivers and all Enemy Passengers will automatically
    receive Bail out Orders") or ``false`` (the wheel is only logged: immobilized and an Emergency
    Stop, nobody bails out)."""

    medic_morale_on: str = "killed_or_bad"
    """C2 30.1 Injured/KIA Medic table: ``killed_or_bad`` (the text: "If a Friendly Trained Medic is
    ever killed or receives a Bad Wound") or ``out_of_action`` (also when a Light wound puts him
    out of action)."""

    he_blast_dice: str = "frag_dice"
    """C2 31.9.4 d ii HE at a hex: ``frag_dice`` (the printed example of play: as many dice as the
    Frag rating, each hitting on <= Blast) or ``blast_dice`` (the text: "a number of dice equal to the
    firing Weapons Blast Rating ... less than or equal to the Frag rating ... scores a hit")."""

    closed_hatch_nonpen_mc: str = "ignored"
    """C2 31.10.6 vs the damage charts' "Suspension; ALL": ``ignored`` (the text: "Crew members with
    Closed hatches will ignore Morale Checks from non-penetrating fire", so a buttoned-up crewman
    skips the ALL MC of a non-penetrating hit) or ``taken`` (ALL means every crewman)."""

    hatch_grenade_wounds: str = "every_crewman"
    """C2 31.10.7 a grenade dropped into an AFV's hatch: ``every_crewman`` (the text: "each crew
    member will draw 3 wound cards") or ``at_the_hatch`` (only the man at that hatch)."""

    cupola_heavy_hit: str = "killed"
    """C2 31.10.8 Cupola, by AP over 37 mm or HEAT (the text is silent; it gives AP <= 37 mm "Draw 3
    wound cards" and HE >= 75 mm "Cupola destroyed"): ``killed`` (the occupant is killed, the
    cupola stands) or ``wounds`` (3 wound cards, as AP <= 37 mm)."""

    suspension_heat: str = "immobilized"
    """C2 31.10.8 Suspension hit by HEAT (the text is silent; it gives "AP >=50mm or by HE>=75mm =
    Vehicle immobilized. Smaller caliber HE and AP will immobilize the Vehicle on a 0-4 on d10"):
    ``immobilized`` (as a large calibre) or ``small_calibre`` (a d10, immobilized on 0-4)."""

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> Options:
        """Options with ``values`` changed by name.

        Raises ``ValueError`` for an unknown name, a value of the wrong type, a text value not in
        :data:`OPTION_CHOICES` or a number outside :data:`OPTION_RANGES`.
        """
        fields = {f.name: f for f in attrs.fields(cls)}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)} (known: {', '.join(sorted(fields))})")
        defaults = cls()
        for name, value in values.items():
            want = type(getattr(defaults, name))
            if type(value) is not want:
                raise ValueError(
                    f"option {name} takes {want.__name__} values like {getattr(defaults, name)!r}, "
                    f"got {value!r}"
                )
            if name in OPTION_CHOICES and value not in OPTION_CHOICES[name]:
                raise ValueError(
                    f"option {name} takes one of {', '.join(OPTION_CHOICES[name])}, got {value!r}"
                )
            lo, hi = OPTION_RANGES.get(name, (None, None))
            if lo is not None and not lo <= value <= hi:
                raise ValueError(f"option {name} takes {lo}-{hi}, got {value!r}")
        return attrs.evolve(defaults, **values)

    def to_dict(self) -> dict[str, Any]:
        """All options by name (for the log header)."""
        return attrs.asdict(self)
