"""Playtest and design tools over the engine: headless play and replay, history and branches,
policies (the Friendly bots), invariants, exact odds and batch comparisons.

- :mod:`~solo.playtest.play`: new games, forced results, log headers, replay
  (:mod:`~solo.playtest.log_diff` names a difference, :mod:`~solo.playtest.same_play` tells a
  play that differs from lines that only moved);
  :mod:`~solo.playtest.policies` and :mod:`~solo.playtest.invariants`;
  :mod:`~solo.playtest.example_of_play` (the rulebook's example of play, every die scripted).
- History of a log: :mod:`~solo.playtest.history` (points, navigation, undo),
  :mod:`~solo.playtest.history_view` (what the player sees), :mod:`~solo.playtest.history_branch`
  (rebuild at a point, branches, saving).
- Exact odds: :mod:`~solo.playtest.odds_deck` (the Enemy deck), :mod:`~solo.playtest.odds_vom`
  (the VOM), :mod:`~solo.playtest.odds_next` (the next card in a game).
- Batches: :mod:`~solo.playtest.batch_setup` (seeds, variants), :mod:`~solo.playtest.batch` (running),
  :mod:`~solo.playtest.batch_records` (records, CSV), :mod:`~solo.playtest.batch_stats`,
  :mod:`~solo.playtest.batch_plots`.

May import: :mod:`solo.engine` and everything below it.
"""
