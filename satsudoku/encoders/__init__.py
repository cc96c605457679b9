"""Encoders: a puzzle's constraints as CNF (`cnf`) for the SAT backend and DIMACS export."""
