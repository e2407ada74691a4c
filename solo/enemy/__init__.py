"""The Enemy: its decisions, each returned with its explanation (card, row and column, dice, rule).

The Enemy Card and Order Phase and order assignment by morale x cover
(:mod:`~solo.enemy.orders`), the VOM per crewman, Target Markers (C2 31.7.4) and the Enemy
Emergency Stop (:mod:`~solo.enemy.crews`). The engine hands these to the rules as
``game.enemy`` (:class:`~solo.rules.context.EnemyHooks`); nothing here imports the engine.

May import: :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""
