"""How long the language server takes to re-check a shipped variant after an edit.

Not a test: run `python tests/benchmarks/bench_lsp.py` and read the figures.
It times features.Document.check (what the server does after the debounce) plus
the diagnostics' ranges, for each shipped variant, after a one-character edit.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from unodsl.tools.lsp.features import Document, problems

VARIANTS = Path(__file__).resolve().parents[2] / "variants"


def main(repeats: int = 7) -> None:
    files = sorted(VARIANTS.glob("*.yaml")) + sorted((VARIANTS / "house").glob("*.yaml"))
    Document.check(str(files[0]), files[0].read_text())  # warm up: imports, grammar
    for path in files:
        text = path.read_text()
        previous = Document.check(str(path), text)
        times = []
        for i in range(repeats):
            edited = text + f"\n# edit {i}\n"
            start = time.perf_counter()
            doc = Document.check(str(path), edited, previous)
            problems(doc)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{path.relative_to(VARIANTS)}: median {statistics.median(times):.0f} ms, "
              f"max {max(times):.0f} ms over {repeats} edits")


if __name__ == "__main__":
    main()
