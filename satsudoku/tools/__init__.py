"""Setter tools built on the backends: true candidates (`candidates`) and minimality (`minimal`).

Each tool has one public entry point and one small strategy module per paradigm
(`*_sat`, `*_cpsat`, `*_bitmask`); `instances` splits variant rules into removable parts.
"""
