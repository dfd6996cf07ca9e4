"""How validation grows with the size of a file, in the shapes of issue 31 (item 9).

Not a test: run `python tests/benchmarks/bench_size.py` and read the figures (CPU seconds
of `validate_file`, the file's size, and the growth from the count before it). Counts
double up to about 1 MB, or until the file is refused; a refused file prints the limit.
The fast version, n against 4n, runs in the default test run (tests/unit/test_size.py).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.unit.test_size import described_cards, mixed_colours, options, rules, statements, unique_colours
from unodsl.variant.load import validate_file

SHAPES = {"statements": (statements, 1000), "options": (options, 4), "mixed colours": (mixed_colours, 2500),
          "unique colours": (unique_colours, 2500), "rules": (rules, 400), "description": (described_cards, 25_000)}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "v.yaml"
        path.write_text(statements(1))
        validate_file(path)  # warm up: imports, grammar, schema
        for shape, (make, n) in SHAPES.items():
            before = None
            while True:
                text = make(n)
                path.write_text(text, encoding="utf-8")
                start = time.process_time()
                diags = validate_file(path)
                seconds = time.process_time() - start
                growth = f"{seconds / before:4.1f}×" if before else "    "
                refused = [d.message for d in diags if d.severity == "error"][:1]
                print(f"{shape:15} {n:>8,} {len(text) / 1000:>7,.0f} KB {seconds:7.2f} s {growth}"
                      + (f"  refused: {refused[0][:70]}" if refused else ""), flush=True)
                if len(text) > 1_000_000 or any(w in m for m in refused for w in ("more than", "limited to")):
                    break
                before, n = max(seconds, 1e-3), n * 2


if __name__ == "__main__":
    main()
