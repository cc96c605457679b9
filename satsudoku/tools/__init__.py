"""Setter and research tools built on the encoders and backends, one job per module.

- `candidates` (strategies `candidates_sat`, `_cpsat`, `_bitmask`): true candidates to a cap.
- `minimal` (`minimal_sat`): redundant givens and rule instances; `instances` cuts variant rules
  into removable parts and `guarded` puts them behind guard literals in CNF.
- `counting` and `symmetry`: exact counts, with digit relabelling where every rule allows it;
  `estimate`: Knuth's estimator over the propagating search.
- `generate`: puzzles from random grids (`clues` reads rule instances off a grid, `regions` draws
  jigsaw layouts); `holes`: quasigroup-completion style instances (a fraction of a grid kept).
"""
