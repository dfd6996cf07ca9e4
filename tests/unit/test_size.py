"""Validation grows linearly with the size of a file, in every shape (issue 31, 9), or a
file is refused early with a limit it names.

Not a timed test: each shape is validated at n and at 4n in the same run, and the CPU time
may grow at most 8× (linear is 4×; the quadratic shapes of issue 31 grew 12–16×). The
benchmark-sized versions are in tests/benchmarks/bench_size.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from unodsl.variant.expressions import MAX_TOKENS
from unodsl.variant.load import MAX_OPTION_WORK, validate_file
from unodsl.variant.options import MAX_OPTIONS

MINI = (Path(__file__).resolve().parents[1] / "bad_variants" / "bases" / "mini.yaml").read_text()


def statements(n: int) -> str:
    return MINI.replace("on_play: skip()", "on_play: " + "; ".join("skip()" for _ in range(n)), 1)


def mixed_colours(n: int) -> str:
    return MINI.replace("colors: [red, blue]", "colors: [" + ", ".join(f"c{i}" if i % 2 else str(i)
                                                                       for i in range(n)) + "]")


def unique_colours(n: int) -> str:
    return MINI.replace("colors: [red, blue]", "colors: [red, blue, " + ", ".join(f"c{i}" for i in range(n)) + "]")


def rules(n: int) -> str:
    return MINI + "".join(f"  - name: rule {i}\n    on: hand_changed\n    if: size == {i}\n    do: draw(player, 1)\n"
                          for i in range(n))


def options(n: int) -> str:
    return MINI + "options:\n" + "".join(f"  o{i}:\n    description: option {i}\n"
                                         f"    set: {{turn: {{draw: {{count: {i % 5 + 1}}}}}}}\n" for i in range(n))


def described_cards(n: int) -> str:
    return MINI.replace("    on_play: skip()", "    on_play: skip()\n    description: " + "word " * n, 1)


def cpu(path: Path) -> float:
    """The least CPU time of three validations (the caches of the first are warm for the others;
    the least is the one a busy machine disturbed least)."""
    times = []
    for _ in range(3):
        start = time.process_time()
        validate_file(path)
        times.append(time.process_time() - start)
    return min(times)


SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "statements": (statements, 600), "mixed colours": (mixed_colours, 1500),
    "unique colours": (unique_colours, 1500), "rules": (rules, 60), "description": (described_cards, 20_000),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_validation_grows_linearly(shape: str, tmp_path: Path) -> None:
    make, n = SHAPES[shape]
    small, large = tmp_path / "small.yaml", tmp_path / "large.yaml"
    small.write_text(make(n), encoding="utf-8")
    large.write_text(make(4 * n), encoding="utf-8")
    validate_file(small)  # warm: the grammar, the schema, the caches
    ratio = cpu(large) / max(cpu(small), 1e-3)
    assert ratio < 8, f"{shape}: 4× the size took {ratio:.1f}× the time"


@pytest.mark.parametrize(("make", "n", "message"), [
    (statements, 120_000, f"more than {MAX_TOKENS:,} words and symbols in all"),
    (options, 5_000, f"more than {MAX_OPTIONS} options (5,000)"),
    (mixed_colours, 120_000, "more than 100,000 keys, values and items"),
], ids=["statements", "options", "colours"])
def test_a_megabyte_in_a_shape_too_large_is_refused_early(make: Callable[[int], str], n: int, message: str,
                                                         tmp_path: Path) -> None:
    """Refused before the slow passes, with the limit named (the 1 MB file of rules that is not
    refused is validated in tests/unit/test_hardening.py)."""
    path = tmp_path / "v.yaml"
    path.write_text(make(n), encoding="utf-8")
    assert len(path.read_bytes()) > 200_000
    diags = validate_file(path)
    assert any(message in d.message for d in diags), [str(d) for d in diags[:3]]
    assert all(d.pos.line >= 1 for d in diags)


def test_options_are_checked_one_by_one_only_within_a_budget(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text(options(MAX_OPTIONS), encoding="utf-8")
    assert validate_file(path) == []
    big = rules(1500) + "".join(f"  o{i}:\n    description: option {i}\n    set: {{turn: {{draw: {{count: 2}}}}}}\n"
                                for i in range(MAX_OPTIONS))
    path.write_text(big.replace("  o0:\n", "options:\n  o0:\n", 1), encoding="utf-8")
    diags = validate_file(path)
    assert any(f"is more than {MAX_OPTION_WORK:,} in all" in d.message for d in diags), [str(d) for d in diags]
