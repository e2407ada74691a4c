"""The core: what every other room stands on, and nothing of the game's rules.

Hexes and their geometry (:mod:`~solo.core.hexes`), dice and their sources
(:mod:`~solo.core.dice`), the records they give (:mod:`~solo.core.chance_records`), dice expressions
(:mod:`~solo.core.dice_expressions`), card decks (:mod:`~solo.core.decks`),
errors, events and the log format, options, YAML read with a line for every node
(:mod:`~solo.core.datafile`), where the shipped data lives, the by-id catalogue mixin, and the
:class:`~solo.core.decisions.Decision` a rule yields when the player must choose.

May import: the standard library and third-party packages only (no other ``solo`` room).
"""
