"""The bad-variant corpus: each file in tests/bad_variants/ has one mistake, and
`unodsl validate` must print exactly the lines of its `.expected` sidecar.

Run from the corpus folder, so paths in the expected output are relative to it.
Nothing in the corpus may make `validate` raise or hang, in any output format.
To refresh the sidecars after a deliberate change of wording, run
`UNODSL_REGENERATE=1 pytest tests/unit/test_validation_corpus.py` and review the diff.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.helpers import deadline
from unodsl.cli import main
from unodsl.variant.source import MAX_BYTES

CORPUS = Path(__file__).resolve().parents[1] / "bad_variants"
CASES = sorted(p for p in CORPUS.glob("*.yaml"))
REGENERATE = os.environ.get("UNODSL_REGENERATE") == "1"
SECONDS = 10  # per file: generous for a slow CI machine, far less than a hang


def validate(*args: str) -> Result:
    with deadline(SECONDS):
        result = CliRunner().invoke(main, ["validate", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"validate {args} raised") from result.exception
    return result


def test_the_corpus_is_large_and_every_case_has_a_sidecar() -> None:
    assert len(CASES) >= 150
    missing = [p.name for p in CASES if not p.with_suffix(".expected").exists() and not REGENERATE]
    assert missing == []
    orphans = [p.name for p in CORPUS.glob("*.expected") if not p.with_suffix(".yaml").exists()]
    assert orphans == []


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_bad_variant(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)
    result = validate(case.name)
    sidecar = case.with_suffix(".expected")
    if REGENERATE:
        sidecar.write_text(result.output, encoding="utf-8")
    expected = sidecar.read_text(encoding="utf-8")
    assert result.output == expected
    errors = any(": error: " in line for line in expected.splitlines())
    assert result.exit_code == (1 if errors else 0)
    assert f"{case.name}: ok" not in result.output, "every case has a mistake to report"
    # Every line of a finding is positioned (file:line:col) or is its hint.
    for line in result.output.splitlines():
        assert line.startswith("  hint: ") or line.split(": ")[0].count(":") == 2, line


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_bad_variant_machine_formats(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS)
    found = json.loads(validate("--format", "json", case.name).output)
    assert found and all(set(d) == {"file", "line", "column", "severity", "message", "hint"} for d in found)
    annotations = validate("--format", "github", case.name).output.splitlines()
    assert len(annotations) == len(found)
    assert all(a.startswith(("::error file=", "::warning file=")) for a in annotations)
    strict = validate("--strict", case.name)
    assert strict.exit_code == 1, "with --strict, a warning fails too"


def test_a_10_megabyte_file_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    line = "# " + "x" * 1021 + "\n"
    with path.open("w", encoding="utf-8") as out:
        out.write("unodsl: 1\n")
        for _ in range(10 * 1024):
            out.write(line)
    size = path.stat().st_size
    assert size > 10_000_000
    start = time.perf_counter()
    result = validate(str(path))
    assert time.perf_counter() - start < 5
    assert result.output == (f"{path}:1:1: error: file is {size:,} bytes; variant files are limited to "
                             f"{MAX_BYTES:,}\n  hint: a variant is a short description; split out or remove "
                             "generated content\n")
    assert result.exit_code == 1
