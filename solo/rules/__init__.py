"""The rules: functions over the game state, one module per rule family, named by the rulebook.

Every function takes the game as a :class:`~solo.rules.context.GameContext` (state, data, board,
LOS, dice, events) and changes its state; a rule that needs the Friendly player yields a
:class:`~solo.core.decisions.Decision`. Where a rule needs the Enemy to decide, it asks
``game.enemy`` (the :class:`~solo.rules.context.EnemyHooks` protocol, which the engine fills
with :mod:`solo.enemy`). ``rules/vehicles/`` holds Combat!2 rules 31-32.

May import: :mod:`solo.data`, :mod:`solo.core`.
"""
