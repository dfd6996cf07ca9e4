"""The language server's pure parts (no pygls needed): text analysis and the cache of bases."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.helpers import VARIANTS
from unodsl.cli import main
from unodsl.tools.lsp.features import Document, problems, token_range
from unodsl.variant import resolve
from unodsl.variant.load import analyse_text, validate_file


def test_analysing_text_gives_what_validate_gives_for_the_saved_file(tmp_path: Path) -> None:
    text = (VARIANTS / "classic.yaml").read_text().replace("skip()", "skip(nxt)", 1)
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    assert analyse_text(text, path).diagnostics == validate_file(path)
    assert analyse_text(text, path).diagnostics


def test_extends_in_unsaved_text_is_relative_to_its_path(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text((VARIANTS / "classic.yaml").read_text())
    found = analyse_text("unodsl: 1\nname: mine\nextends: base.yaml\n", tmp_path / "mine.yaml")
    assert found.diagnostics == [] and found.model is not None and found.model.name == "mine"


def test_a_base_is_read_again_only_when_it_changes(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text((VARIANTS / "classic.yaml").read_text())
    first = resolve.base_source(base)
    assert resolve.base_source(base) is first
    base.write_text(base.read_text() + "\n# changed\n")
    assert resolve.base_source(base) is not first


def test_a_range_ends_at_the_end_of_the_token_or_the_line() -> None:
    doc = Document("x.yaml", "", ["  on_play: draw(nxt, 2)", "  - {a"])
    start = doc.lines[0].index("nxt")
    r = token_range(doc, 0, start)
    assert (r.start_char, r.end_char) == (start, start + 3)
    r = token_range(doc, 1, 4)
    assert (r.start_char, r.end_char) == (4, 6)


def test_a_base_problem_is_placed_at_extends(tmp_path: Path) -> None:
    base = (VARIANTS / "classic.yaml").read_text().replace("skip()", "skip(nxt)", 1)
    (tmp_path / "base.yaml").write_text(base)
    path = tmp_path / "mine.yaml"
    doc = Document.check(str(path), "unodsl: 1\nname: mine\n\nextends: base.yaml\n")
    found = problems(doc)
    assert found and found[0].range.start_line == 3
    assert found[0].related is not None and found[0].related.path.endswith("base.yaml")


def test_the_command_says_what_to_install_without_pygls(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pygls" else real(name, *a))
    result = CliRunner().invoke(main, ["lsp"])
    assert result.exit_code == 2
    assert "pip install 'unodsl[lsp]'" in result.output
