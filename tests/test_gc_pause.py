"""The collector pause around formula building: off inside, as it was after, even on error."""

from __future__ import annotations

import gc

import pytest

from satsudoku.encoders.cnf import encode_puzzle
from satsudoku.gc_pause import gc_paused, without_gc
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle


def test_the_collector_is_off_inside_and_back_after() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested: the outer pause turns it back on
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_inside_still_turns_it_back_on() -> None:
    @without_gc
    def build() -> None:
        assert not gc.isenabled()
        raise ValueError("out of time")

    with pytest.raises(ValueError, match="out of time"):
        build()
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_encoding_leaves_the_collector_as_it_was() -> None:
    formula = encode_puzzle(Puzzle.empty(Shape(2, 2)))
    assert gc.isenabled() and formula.num_vars >= 64
