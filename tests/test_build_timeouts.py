"""--timeout covers building the model: a 64×64 board answers 'unknown' in time on every backend.

Before the encoders checked the deadline, `--timeout 1` on an empty 64×64 took 43 s (sat: 33 M
pairwise clauses built in Python, 5 GB) and 3 s (cpsat: 262,144 Boolean variables).
"""

from __future__ import annotations

import json
import time

import pytest

from satsudoku.backends import available, get_backend
from satsudoku.backends import sat as sat_backend
from satsudoku.backends.sat import SatBackend
from satsudoku.deadline import BuildCache, OutOfTime
from satsudoku.encoders import cnf
from satsudoku.encoders import cpsat as cpsat_encoder
from satsudoku.grid import Shape
from satsudoku.puzzle import Puzzle
from satsudoku.result import Status

BIG = Shape(8, 8)  # 64×64: the largest supported board
CONFIGS = [
    ("bitmask", {}),
    ("sat", {}),
    ("sat", {"encoding": "reduced"}),
    ("sat", {"encoding": "minimal", "solver": "glucose4"}),
    ("cpsat", {}),
    ("cpsat", {"certified": True}),
]  # not cpsat:integer: CP-SAT expands its 192 AllDifferents (0.6-1.5 s) before it reads a clock


@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=lambda v: str(v))
def test_a_64x64_board_is_unknown_within_its_timeout(name: str, options: dict[str, object]) -> None:
    if name not in available():
        pytest.skip(f"{name} is not installed")
    backend = get_backend(name, **options)
    started = time.process_time()  # CPU: on a loaded machine the wall clock also waits
    result = backend.solve(Puzzle.empty(BIG), limit=2, timeout=0.3)
    elapsed = time.process_time() - started
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert elapsed < 1.5, f"{elapsed:.2f} s of CPU for a 0.3 s timeout"


def test_the_encoder_stops_at_a_past_deadline_and_keeps_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    empty = Puzzle.empty(Shape(2, 2))
    with pytest.raises(OutOfTime):
        cnf.encode_puzzle(empty, deadline=time.perf_counter() - 1)
    monkeypatch.setattr(sat_backend, "_FORMULAS", BuildCache())  # nothing built earlier
    backend = SatBackend()
    assert backend.solve(empty, timeout=1e-9).status is Status.UNKNOWN
    result = backend.solve(empty, limit=300)  # the cut-short build was not cached
    assert result.status is Status.MULTIPLE and len(result.solutions) == 288


def test_a_cpsat_model_cut_short_is_not_reused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cpsat_encoder, "_MODELS", BuildCache())  # nothing built earlier
    backend = get_backend("cpsat")
    assert backend.solve(Puzzle.empty(Shape(2, 2)), timeout=1e-9).status is Status.UNKNOWN
    result = backend.solve(Puzzle.empty(Shape(2, 2)), limit=300)
    assert result.status is Status.MULTIPLE and len(result.solutions) == 288


def test_build_cache_keeps_the_most_recently_used() -> None:
    cache: BuildCache[str] = BuildCache(size=2)
    built: list[str] = []

    def build(value: str) -> str:
        built.append(value)
        return value

    for key in ("a", "b", "a", "c", "a", "b"):
        assert cache.get(key, lambda key=key: build(key)) == key
    assert built == ["a", "b", "c", "b"]  # "b" was evicted by "c"; "a" stayed in use

    def fail() -> str:
        raise OutOfTime

    with pytest.raises(OutOfTime):
        cache.get("d", fail)
    assert cache.get("d", lambda: "d") == "d"  # nothing was stored for the failed build


SKYSCRAPERS = {  # ISS "Skyscraper - all 5": fifteen clues of 5 (as Tables, ~10⁴ rows each)
    "size": 9,
    "rules": [
        {
            "type": "skyscraper",
            "top": [5, 0, 0, 5, 0, 0, 5, 0, 5],
            "right": [0, 5, 0, 0, 5, 0, 5, 0, 0],
            "bottom": [0, 5, 5, 0, 5, 5, 0, 0, 0],
            "left": [5, 0, 0, 5, 0, 5, 0, 5, 0],
        }
    ],
}


def test_a_rules_decomposition_stops_at_the_deadline() -> None:
    """Lowering the clues took 2-10 s and no backend's --timeout reached inside it: asked for
    1 s, sat answered after 3.0 s and bitmask after 5.8 s."""
    from satsudoku.constraints import lower
    from satsudoku.deadline import building
    from satsudoku.io import read_text
    from satsudoku.rules.condition import distinct_table

    (puzzle,) = read_text(json.dumps(SKYSCRAPERS))
    with pytest.raises(OutOfTime):
        lower(puzzle.constraints(), puzzle.shape, deadline=time.perf_counter() - 1)
    cells = tuple((0, c) for c in range(9))
    with building(time.perf_counter() - 1), pytest.raises(OutOfTime):
        distinct_table(cells, 9, lambda row: True, "nine cells")
    with building(None):  # no deadline: the whole table
        assert len(distinct_table(cells[:3], 9, lambda row: True, "three cells").tuples) == 504


# Twenty clues of 5 above a 25×25 (unsatisfiable: bitmask proves it in ~6 s, sat in ~50 s).
# Since clues are automata, the 9×9 above builds in a fraction of a second and sat settles it
# in 0.5 s: unrolling these twenty takes ~2 s of CPU before any backend can search.
SKYSCRAPERS_25 = {"size": 25, "rules": [{"type": "skyscraper", "top": [5] * 20 + [0] * 5}]}


@pytest.mark.parametrize("name", ["bitmask", "sat", "cpsat"])
def test_skyscraper_clues_stop_at_the_timeout(name: str) -> None:
    """As Tables, ISS "Skyscraper - all 5" took 2-3 s to build: asked for 1 s, sat answered
    after 3.0 s, cpsat 2.9 s, bitmask 5.8 s. The clock is read while clues unroll too."""
    from satsudoku.io import read_text

    (puzzle,) = read_text(json.dumps(SKYSCRAPERS_25))
    started = time.perf_counter()
    result = get_backend(name).solve(puzzle, timeout=0.3)
    elapsed = time.perf_counter() - started
    assert result.status is Status.UNKNOWN and result.stats["stopped"] == "timeout"
    assert elapsed < 1.5, f"{elapsed:.2f} s for a 0.3 s timeout"
