"""The Enemy: its decisions, each returned with its explanation (card, row and column, dice, rule).

The Enemy Card and Order Phase (:mod:`~solo.enemy.order_phase`), alerting
(:mod:`~solo.enemy.alerting`), order assignment by morale x cover
(:mod:`~solo.enemy.order_lookup`), the fire target and weapon (:mod:`~solo.enemy.fire_choice`),
Duck Back (:mod:`~solo.enemy.duck_back`); the VOM per crewman, Target Markers (C2 31.7.4) and the
Enemy Emergency Stop (:mod:`~solo.enemy.crews`). The engine hands these to the rules as
``game.enemy`` (:class:`~solo.rules.context.EnemyHooks`); nothing here imports the engine.

May import: :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""
