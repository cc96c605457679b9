"""Setter tools built on the encoders and backends: true candidates (`candidates`) and
minimality (`minimal`), each with one entry point and a strategy module per paradigm where the
paradigms differ (`candidates_sat`, `_cpsat`, `_bitmask`; `minimal_sat`); `instances` cuts
variant rules into removable parts and `guarded` puts them behind guard literals in CNF.
"""
