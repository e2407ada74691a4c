"""Playtest and design tools over the engine: headless play and replay, history and branches,
policies (the Friendly bots), invariants, exact odds and batch comparisons.

May import: :mod:`solo.engine` and everything below it.
"""
