"""`satsudoku generate`: unique puzzles with minimal givens from random grids, streamed one per
line (top-down removal: not a uniform sample, biased toward fewer clues); --minimal also removes
rule clues read off the grid, --certificate proves each."""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from satsudoku.commands.common import (
    Progress,
    add_progress_option,
    parse_box,
    positive_float,
    positive_int,
    say_on_stderr,
    seed_argument,
)
from satsudoku.deadline import OutOfTime
from satsudoku.errors import PuzzleError, SatsudokuError
from satsudoku.grid import MAX_SIZE, Shape, regular_shape
from satsudoku.io import format_line, puzzle_document
from satsudoku.io.source import open_input
from satsudoku.rules import Rule, make_rule
from satsudoku.tools.clues import READERS
from satsudoku.tools.generate import SYMMETRIES, Generated, Request, generate
from satsudoku.tools.regions import start_regions

_REGIONS_LIMIT = 64 * 1024  # 64 lines of 64 labels, with room for spaces and line ends
_DESCRIPTION = (
    "Generate unique puzzles: a complete grid from a randomised search, the clues of each "
    f"--rule that can be read off a grid ({', '.join(READERS)}) drawn from it, then givens "
    "removed in a random order (in symmetric groups with --symmetry) while the puzzle stays "
    "unique, so no given left can go: the givens are minimal. --minimal removes the rule "
    "instances read off the grid in the same pass. The distribution is not uniform: removal "
    "stops at the first minimal puzzle it meets, which favours fewer clues than a uniform "
    "sample of minimal puzzles has, and grids come from a randomised search, not a uniform "
    "sampler. The same --seed gives the same puzzles on any machine."
)


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "generate",
        help="unique puzzles from random grids (minimal givens; --minimal: rule clues too)",
        description=_DESCRIPTION,
    )
    parser.add_argument(
        "--box",
        type=parse_box,
        default=(3, 3),
        metavar="RxC",
        help="box shape (default 3x3: a 9x9 board; 2x3 gives 6x6, 4x4 gives 16x16)",
    )
    parser.add_argument(
        "--regions",
        metavar="FILE",
        help="jigsaw regions: n lines of n labels (one label per region), e.g. 112223334",
    )
    parser.add_argument(
        "--jigsaw",
        type=positive_int,
        metavar="N",
        help="an NxN board with random jigsaw regions, drawn afresh for each puzzle",
    )
    parser.add_argument(
        "--rule",
        dest="generate_rules",
        action="append",
        default=[],
        metavar="TYPE",
        help="a parameterless rule every grid obeys (diagonal, antiknight, ...), or a rule "
        f"whose clues are read off each grid: {', '.join(READERS)}",
    )
    parser.add_argument(
        "--count", type=positive_int, default=1, metavar="N", help="puzzles (default 1)"
    )
    parser.add_argument(
        "--seed",
        type=seed_argument,
        metavar="S",
        help="random seed (default: drawn, and printed on stderr so the run can be repeated)",
    )
    parser.add_argument(
        "--symmetry",
        choices=SYMMETRIES,
        default="none",
        help="givens come and go in symmetric groups (default none); the givens are then "
        "minimal as groups: a single given of a group may be redundant",
    )
    parser.add_argument(
        "--minimal",
        action="store_true",
        help="also remove the rule clues read off the grid (cages, dots, lines) that the "
        "puzzle stays unique without (by SAT, each puzzle a few tenths of a second)",
    )
    parser.add_argument(
        "--givens",
        type=int,
        choices=(0,),
        metavar="0",
        help="0: no givens at all, the clues read off the grid alone (grids whose clues leave "
        "several solutions are redrawn)",
    )
    parser.add_argument(
        "--rating",
        type=_rating_range,
        metavar="LO..HI",
        help="keep only puzzles whose `satsudoku rate` figure is in LO..HI, e.g. 4..7",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        metavar="S",
        help="seconds per puzzle, its --rating and --certificate included (then: an error)",
    )
    parser.add_argument(
        "--certificate",
        metavar="DIR",
        help="prove each puzzle unique: a checked DRAT certificate in DIR/0001, DIR/0002, ...",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per puzzle: puzzle, solution, givens, seed, attempts, time_s",
    )
    add_progress_option(parser, "on when stderr is a terminal")
    parser.set_defaults(run=run)


def _rating_range(text: str) -> tuple[float, float]:
    low, sep, high = text.partition("..")
    try:
        bounds = (float(low), float(high))
    except ValueError:
        bounds = (1.0, 0.0)
    if not sep or bounds[0] > bounds[1]:
        raise argparse.ArgumentTypeError(f"expected a range LO..HI such as 4..7, not {text!r}")
    return bounds


def request_from(args: argparse.Namespace, seed: int) -> Request:
    """The generation request the options describe; errors name the option."""
    shape = _shape(args)
    rules: list[Rule] = []
    clues: list[str] = []
    for name in args.generate_rules:
        if name in READERS:
            clues.append(name)
            continue
        try:
            rules.append(make_rule({"type": name}, shape))
        except PuzzleError as exc:
            raise SatsudokuError(
                f"--rule {name}: {exc.message} (clues can be read off a grid for: "
                f"{', '.join(READERS)})"
            ) from None
    return Request(
        shape,
        tuple(rules),
        tuple(clues),
        symmetry=args.symmetry,
        minimal=args.minimal,
        givens=args.givens != 0,
        seed=seed,
        timeout=args.timeout,
        rating=args.rating,
        jigsaw=args.jigsaw is not None,
    )


def _shape(args: argparse.Namespace) -> Shape:
    if args.jigsaw is not None:
        if args.regions is not None:
            raise SatsudokuError("--jigsaw draws regions; --regions reads them: give one")
        if not 4 <= args.jigsaw <= MAX_SIZE:
            raise SatsudokuError(f"--jigsaw {args.jigsaw}: the size must be 4..{MAX_SIZE}")
        return start_regions(args.jigsaw)  # the size; each puzzle draws its own regions
    if args.regions is None:
        rows, cols = args.box
        if rows * cols > MAX_SIZE:
            raise SatsudokuError(f"--box {rows}x{cols}: boards above {MAX_SIZE}x{MAX_SIZE} refused")
        return regular_shape(rows, cols)
    path = Path(args.regions)
    # As a puzzle file is opened: a device or directory refused, a pipe without writer announced.
    with open_input(args.regions, args.regions, say_on_stderr) as handle:
        data = handle.read(_REGIONS_LIMIT + 1)  # read bounded: a huge file reports no size
    if len(data) > _REGIONS_LIMIT:
        raise PuzzleError(f"{path}: larger than 64 KiB, too large for a region file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PuzzleError(f"{path}: not UTF-8 text") from None
    labels = [line.replace(" ", "") for line in text.splitlines() if line.strip()]
    try:
        return Shape.jigsaw(labels)
    except PuzzleError as exc:
        raise PuzzleError(f"{path}: {exc.message}") from None


def run(args: argparse.Namespace) -> int:
    seed = random.SystemRandom().randrange(2**31) if args.seed is None else args.seed
    request = request_from(args, seed)
    if args.seed is None:  # once the options are known good: the run can then be repeated
        say_on_stderr(f"generate --seed {seed}")
    folders = _CertificateFolders(args.certificate, args.count, args.timeout)
    progress = Progress(args.progress, beside_terminal_output=True)
    made_so_far = generate(request, args.count)
    try:
        for index in range(1, args.count + 1):
            progress.phase("generating")
            try:
                made = next(made_so_far)
            except OutOfTime:
                raise SatsudokuError(
                    f"puzzle {index}: none made within --timeout {args.timeout:g} s"
                ) from None
            note = folders.prove(index, made, progress)
            if args.json:
                progress.emit(json.dumps(_record(index, seed, made, note)))
            else:
                progress.emit(_text(made))
                if note:
                    say_on_stderr(f"puzzle {index}: {note}")
            progress.update()
    finally:
        progress.close()
    return 0


def _form(made: Generated) -> Any:
    """A classic puzzle as a line; with rules or jigsaw regions, its document."""
    puzzle = made.puzzle
    if puzzle.rules or puzzle.shape.is_jigsaw:
        return puzzle_document(puzzle)
    return format_line(puzzle.givens, puzzle.symbols)


def _text(made: Generated) -> str:
    form = _form(made)
    return form if isinstance(form, str) else json.dumps(form)


def _record(index: int, seed: int, made: Generated, note: str | None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "index": index,
        "seed": seed,
        "puzzle": _form(made),
        "solution": format_line(made.solution, made.puzzle.symbols),
        "givens": made.puzzle.givens.count_filled(),
        "attempts": made.attempts,
        **{k: round(v, 6) if isinstance(v, float) else v for k, v in made.stats.items()},
    }
    if note is not None:
        record["certificate"] = note
    return record


class _CertificateFolders:
    """Where each puzzle's certificate goes (none without --certificate)."""

    def __init__(self, root: str | None, count: int, timeout: float | None) -> None:
        self.root = None if root is None else Path(root)
        self.count = count
        self.timeout = timeout  # seconds per puzzle, the certificate's included
        if self.root is not None:
            from satsudoku.proof.files import clear, make_folder

            make_folder(self.root)
            clear(self.root, force=False)  # never mixes with an earlier run's files

    def prove(self, index: int, made: Generated, progress: Progress) -> str | None:
        """Certify uniqueness, check the proof, write it; a one-line account."""
        if self.root is None:
            return None
        from satsudoku.proof.certificate import (
            CertificateTimeoutError,
            check_certificate,
            make_certificate,
        )

        progress.phase("proving")
        deadline = None
        if self.timeout is not None:  # what is left of the puzzle's --timeout
            deadline = time.perf_counter() + self.timeout - float(made.stats["time_s"])
        try:
            certificate = make_certificate(made.puzzle, [made.solution], deadline=deadline)
            check = check_certificate(certificate, deadline)
        except (CertificateTimeoutError, OutOfTime):
            raise SatsudokuError(
                f"puzzle {index}: no checked certificate within --timeout {self.timeout:g} s"
            ) from None
        if not check.ok:
            raise SatsudokuError(f"puzzle {index}: certificate check failed: {check.messages[-1]}")
        folder = self.root / f"{index:04d}"
        certificate.write(folder)
        return f"certificate {folder} (checked: {check.messages[-1]})"
