"""The generated reference is current, and the engine names no variant or card kind."""

from __future__ import annotations

import re
from pathlib import Path

from unodsl.engine.primitives import REGISTRY
from unodsl.tools.reference import markdown

ROOT = Path(__file__).resolve().parents[2]


def test_language_reference_is_up_to_date() -> None:
    current = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert current == markdown(), "run: unodsl explain --markdown > docs/language.md"


def test_every_primitive_and_name_is_documented() -> None:
    undocumented = [p.name for p in REGISTRY.primitives.values() if len(p.doc) < 15]
    undocumented += [n.name for n in REGISTRY.names.values() if len(n.doc) < 10]
    assert undocumented == []


def test_engine_names_no_variant_and_no_card_kind() -> None:
    names = (r"\b(duo|pocket|pizza|all_wild|allwild|classic|flip_card)\b|draw_two|draw_four|"
             r"wild_draw|draw_five|skip_everyone|forced_swap|double_skip|deep_into|draw_color|crazy|launcher|"
             # UNO Show 'Em No Mercy and UNO Attack!, and their card kinds
             r"no.mercy|uno attack|hit_two|hit_fire|all_hit|trade_hands|discard_all|draw_six|draw_ten|"
             r"roulette|reverse_draw|"
             # DOS, UNO Triple Play and the doubles house rule (issue 41), their kinds, questions and plays
             r"\bdos\b|triple.play|wild_number|wild.dos|call_dos|catch_dos|single_match|double_match|wild_clear|"
             r"wild_give_away|discard_two")
    kinds_as_text = r"|\"reverse\"|\"skip\"|\"number\"|\"eight\"|\"queen\""  # (in HTML, type="number" is HTML's)
    in_python, in_page = re.compile(names + kinds_as_text, re.IGNORECASE), re.compile(names, re.IGNORECASE)
    hits = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
            for p in (ROOT / "unodsl").rglob("*") if p.suffix in (".py", ".js", ".html", ".css")  # the web page too
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if (in_python if p.suffix == ".py" else in_page).search(line)]
    assert hits == []


def test_one_sanitiser_of_terminal_text() -> None:
    """Text from a file or a page is escaped for a terminal by errors.shown alone: no module
    writes its own copy of the escape (`ascii(c)[1:-1]` of the characters that are not printable)."""
    copies = [f"{p.relative_to(ROOT)}:{i}"
              for p in (ROOT / "unodsl").rglob("*.py") if p != ROOT / "unodsl" / "errors.py"
              for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"\bascii\(\w+\)\[1:-1\]", line)]
    assert copies == []
