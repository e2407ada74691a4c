"""The skills of C2 24.1 the rules test for, by id (the closed list is solo.data.characters.Skill)."""

from __future__ import annotations

SKILL_SNIPER = "sniper"
"""C2 24.1 Sniper: +2 WS on an Impulse 4 Aimed shot when he did not fire on Impulse 2."""


SKILL_DODGE = "dodge"
"""C2 24.1 Dodge: -1 to fire at him while he has Evade."""


SKILL_DODGE_2 = "dodge_2"
"""C2 24.1 Dodge-2: -2 to fire at him while he has Evade."""


SKILL_TOUGH = "tough"
"""C2 24.1 Tough: draws 2 wound cards and keeps the lesser."""


SKILL_KNIFE_EXPERT = "knife_expert"
"""C2 24.1 Knife Expert: a thrown knife (Friendly only) and +1 melee TQ."""


SKILL_DEADLY = "deadly"
"""C2 24.1 Deadly: draws 2 wound cards for his fire hits and takes the worse for the target."""
