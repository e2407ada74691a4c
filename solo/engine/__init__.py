"""The engine: the sequence of play (base-rules §1) as a resumable state machine.

:class:`~solo.engine.game.Game` advances through turns, phases, Impulses and activations,
calls :mod:`solo.rules` and :mod:`solo.enemy`, and stops at each
:class:`~solo.core.decisions.Decision` the Friendly player must answer.

May import: :mod:`solo.enemy`, :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""
