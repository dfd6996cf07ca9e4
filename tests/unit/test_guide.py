"""Every example in docs/guide.md runs, and every topic of `unodsl explain` renders.

Fence forms (anything else in yaml or unodsl is an error here):
- ```yaml — a whole variant file or overlay: validates with no error and plays a
  seeded game to its end (with every option on, too); `extends: base.yaml` finds
  a copy of classic next to it;
- ```yaml file=NAME — a step of a tutorial, saved as NAME beside the guide's earlier
  steps (so `extends: NAME` of an earlier step finds it): validates with no error and
  no warning (as `unodsl validate --strict`) and plays a seeded game to its end;
- ```yaml part — a part of a file: checked as an overlay of classic;
- ```unodsl at=KEY — an expression or program, put into classic at KEY (dots
  between keys: `cards.skip.on_play`) by an overlay, which must then validate
  and play; every key but the last must exist in classic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from rich.console import Console
from rich.markdown import Markdown

from tests.helpers import ROOT, answer, events, labels
from unodsl import Game, load_variant, make_agents, play_game
from unodsl.cli import main
from unodsl.engine.actions import Lay
from unodsl.errors import RunawayRound, VariantRuntimeError
from unodsl.tools.reference import entry, topics
from unodsl.tools.topics import TOPICS, guide_section, names
from unodsl.variant.load import validate_file

GUIDE = ROOT / "docs" / "guide.md"
CLASSIC = ROOT / "variants" / "classic.yaml"
FENCE = re.compile(r"^```(\S*)([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Example:
    where: str  # "guide.md:LINE" or "topic NAME"
    lang: str
    info: str
    body: str


def examples(text: str, where: str) -> list[Example]:
    found = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        found.append(Example(f"{where}:{line}", m[1], m[2].strip(), m[3]))
    return found


GUIDE_EXAMPLES = [e for e in examples(GUIDE.read_text(encoding="utf-8"), "guide.md") if e.lang in ("yaml", "unodsl")]
STEP = re.compile(r"file=(\S+)")


def overlay(key: str, value: str) -> dict[str, Any]:
    """An overlay of classic setting the dotted KEY (every part but the last must exist)."""
    *path, last = key.split(".")
    node = yaml.load(CLASSIC.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)  # keys stay text ("on")
    patch: dict[str, Any] = {"extends": "classic"}
    top = patch
    for part in path:
        node = node[part]
        assert isinstance(node, dict), f"{key}: {part} is not a map"
        top = top.setdefault(part, {})
    top[last] = value
    return patch


def example_file(example: Example, tmp_path: Path) -> Path:
    """The variant file an example stands for."""
    path = tmp_path / f"example_{re.sub(r'[^a-z0-9]+', '_', example.where.lower())}.yaml"
    (tmp_path / "base.yaml").write_text(CLASSIC.read_text(encoding="utf-8"), encoding="utf-8")
    if example.lang == "yaml" and example.info == "":
        path.write_text(example.body, encoding="utf-8")
    elif example.lang == "yaml" and (m := STEP.fullmatch(example.info)):
        earlier = GUIDE_EXAMPLES[:GUIDE_EXAMPLES.index(example)] if example in GUIDE_EXAMPLES else []
        for step in earlier:
            if (s := STEP.fullmatch(step.info)) and step.lang == "yaml":
                (tmp_path / s[1]).write_text(step.body, encoding="utf-8")
        path = tmp_path / m[1]
        path.write_text(example.body, encoding="utf-8")
    elif example.lang == "yaml" and example.info == "part":
        assert "extends:" not in example.body
        path.write_text("extends: classic\n" + example.body, encoding="utf-8")
    elif example.lang == "unodsl" and (m := re.fullmatch(r"at=(\S+)", example.info)):
        path.write_text(yaml.safe_dump(overlay(m[1], example.body.strip()), sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
    else:
        raise AssertionError(f"{example.where}: unknown example form ```{example.lang} {example.info}")
    return path


def check(example: Example, tmp_path: Path) -> None:
    """Validate with no error, then play a seeded game to its end (and again with
    every option on)."""
    path = example_file(example, tmp_path)
    step = example.lang == "yaml" and STEP.fullmatch(example.info) is not None
    errors = [str(d) for d in validate_file(path) if step or d.severity == "error"]  # a step: --strict
    assert errors == [], f"{example.where}: {errors}"
    variant = load_variant(path)
    runs = [variant]
    if variant.options:
        runs.append(load_variant(path, {o.name: True for o in variant.options if o.type == "bool"}))
    for v in runs:
        players = max(v.min_players, min(v.max_players, 3))
        ended = 0
        for agent_seed in range(3):  # random play may hoard every card (a runaway round): not a fault
            game = Game(v, players, 1)
            try:
                play_game(game, make_agents(["greedy", "random"], players, agent_seed))
            except RunawayRound:
                continue
            assert game.over and game.winner is not None, example.where
            ended += 1
        assert ended, f"{example.where}: no game ended"


@pytest.mark.parametrize("example", GUIDE_EXAMPLES, ids=lambda e: e.where)
def test_every_example_in_the_guide_validates_and_plays(example: Example, tmp_path: Path) -> None:
    check(example, tmp_path)


def test_the_guide_has_examples_of_each_form() -> None:
    forms = {(e.lang, e.info.split("=")[0]) for e in GUIDE_EXAMPLES}
    assert forms == {("yaml", ""), ("yaml", "file"), ("yaml", "part"), ("unodsl", "at")}
    assert len(GUIDE_EXAMPLES) >= 25


@pytest.mark.parametrize("example", [
    Example("broken file", "yaml", "", "unodsl: 1\nname: x\nplayers: {min: 2, max: 4}\ncolors: [red]\n"
            "deck:\n  - {kind: number, ranks: 1-9, per_color: 4}\ncards:\n  number: {points: rank, "
            "on_play: skipp()}\n"),
    Example("broken snippet", "unodsl", "at=cards.skip.on_play", "draw(next 2)"),
    Example("wrong type", "unodsl", "at=turn.match", "card.rank == \"red\""),
    Example("wrong key", "unodsl", "at=cards.skipp.on_play", "skip()"),
    Example("unknown form", "yaml", "somewhere", "name: x"),
    Example("step of a missing step", "yaml", "file=two.yaml", "extends: one.yaml\nname: x\n"),
    Example("step with a warning", "yaml", "file=w.yaml", "extends: classic\nname: x\n"
            "cards:\n  blank: {points: 10}\n"),  # a kind no deck group names: a warning
], ids=lambda e: e.where)
def test_a_wrong_example_fails(example: Example, tmp_path: Path) -> None:
    with pytest.raises((AssertionError, KeyError)):
        check(example, tmp_path)


def test_the_guide_carries_the_topics_as_generated() -> None:
    assert guide_section() in GUIDE.read_text(encoding="utf-8"), (
        "docs/guide.md's reference part is stale: run python -c \"from unodsl.tools.topics import "
        "refresh_guide; refresh_guide('docs/guide.md')\"")


def test_the_guide_covers_every_keyword_of_the_grammar() -> None:
    grammar = (ROOT / "grammar" / "unodsl.lark").read_text(encoding="utf-8")
    keywords = set(re.findall(r'"([a-z]+|->|[=!<>]=|[<>%*/+-])"', grammar)) | {"==", "!="}
    text = GUIDE.read_text(encoding="utf-8")
    missing = sorted(k for k in keywords if f"`{k}" not in text and f" {k} " not in text)
    assert missing == []


# -- unodsl explain TOPIC --------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(set(topics())))
def test_every_topic_renders_plain_and_with_rich(name: str) -> None:
    text = entry(name)
    assert text
    console = Console(record=True, width=80, force_terminal=True, color_system="truecolor")
    console.print(Markdown(text))
    assert console.export_text().strip()
    result = CliRunner().invoke(main, ["explain", name])
    assert result.exit_code == 0, result.output
    assert "\x1b[" not in result.output  # piped: plain text
    assert "at=" not in result.output  # the test marks of an example are not shown


@pytest.mark.parametrize("name", ["if", "for", "while", "repeat", "lambda", "operators", "none", "types",
                                  "options", "extends", "rank", "color", "hand", "events", "choices", "bots"])
def test_syntax_and_attribute_topics_are_explained(name: str) -> None:
    result = CliRunner().invoke(main, ["explain", name])
    assert result.exit_code == 0, result.output
    assert "nothing called" not in result.output


TOPIC_EXAMPLES = [e for name, t in TOPICS.items() for e in examples(t.text, f"topic {name}")]


@pytest.mark.parametrize("example", TOPIC_EXAMPLES, ids=lambda e: e.where)
def test_every_example_of_a_topic_validates_and_plays(example: Example, tmp_path: Path) -> None:
    """Run from the topics themselves too, so a stale guide cannot hide a wrong one."""
    check(example, tmp_path)


def test_every_topic_name_is_listed() -> None:
    assert set(names()) <= set(topics())


@pytest.mark.parametrize("name", ["random", "random_pick", "pass_hands", "redeal", "put"])
def test_the_guide_runs_an_example_of_each_new_primitive(name: str) -> None:
    """Issue 15's primitives each appear in an example the suite executes (above)."""
    assert any(re.search(rf"\b{name}\(", e.body) for e in GUIDE_EXAMPLES), f"no guide example uses {name}()"


# -- the steps of "Your own table" ---------------------------------------------------------------
STEPS = [e for e in GUIDE_EXAMPLES if e.lang == "yaml" and STEP.fullmatch(e.info)]


def lays(g: Game) -> list[str]:
    assert g.decision is not None
    return sorted(str(o) for o in g.decision.options if isinstance(o, Lay))


def test_each_step_of_the_guide_has_its_own_file_name() -> None:
    names = [e.info for e in STEPS]
    assert len(names) == len(set(names)) >= 4


def test_the_guides_dos_plays_as_the_guide_tells(tmp_path: Path) -> None:
    """The last step: a Double Match adds up, a Double Color Match makes the others draw
    and earns a bonus card, and a Wild # says the number that makes its match."""
    path = example_file(STEPS[-1], tmp_path)
    g = Game(load_variant(path), 3, 1, record=True)
    g.arrange({0: ["blue 4", "blue 5", "red wild number", "green 3", "green 8", "yellow 3"], 1: ["red 1", "red 7"],
               2: ["red 3", "red 10"]}, draw=["yellow 6", "red 6", "yellow 1", "green 1"],
              zones={"center_row": ["blue 9", "yellow 10"]})
    options = lays(g)
    assert "double_match: blue 4 + blue 5 on blue 9" in options
    assert "double_match: red wild number + green 3 on yellow 10" in options  # a Wild # is 1 to 10
    assert "double_match: green 3 + green 8 on blue 9" not in options  # 11
    answer(g, "double_match: blue 4 + blue 5 on blue 9")
    assert [len(h) for h in g.hands[1:]] == [3, 3]  # a Double Color Match: every other player draws
    answer(g, "double_match: red wild number + green 3 on yellow 10")
    assert [(e["card"].label, e["value"]) for e in events(g, "card_named")] == [("red wild number", "7")]
    assert labels(g.places["center_row"]) == ["yellow 1", "green 1"]  # the row filled up
    answer(g, "green 8")  # the bonus card, from the hand to the row
    assert labels(g.places["center_row"]) == ["yellow 1", "green 1", "green 8"]
    assert labels(g.hands[0]) == ["yellow 3"] and g.decision is not None and g.decision.player == 1


def test_the_guide_quotes_the_error_past_the_bound(tmp_path: Path) -> None:
    """The error shown under "How many plays are tried" is the one the engine gives."""
    path = tmp_path / "four.yaml"
    path.write_text("extends: classic\nname: Any four at once\nturn:\n  plays:\n    - name: four_at_once\n"
                    "      cards: {min: 2, max: 4}\n      legal: first(cards).color == current_color\n",
                    encoding="utf-8")
    game = Game(load_variant(path), 3, 3)
    with pytest.raises(VariantRuntimeError) as err:
        play_game(game, make_agents(["greedy", "random"], 3, 3))
    first_line = str(err.value).splitlines()[0].replace(str(tmp_path) + "/", "")
    assert first_line in GUIDE.read_text(encoding="utf-8")


@pytest.mark.parametrize(("step", "seed", "line"), [
    ("dos1.yaml", 1, "P2 (random) plays wild dos 2 on wild dos 2 (match, 7 left)"),
    ("dos2.yaml", 1, "P3 (greedy) plays red 1 and wild dos 2 on yellow 3 (match, 5 left)"),
    ("dos4.yaml", 2, "P2 (random) says yellow wild number is 4"),
])
def test_the_guide_quotes_what_run_tells(step: str, seed: int, line: str, tmp_path: Path) -> None:
    """A line of `unodsl run STEP -p 3 --seed SEED -v` the guide quotes is one it prints (by round 2)."""
    text = GUIDE.read_text(encoding="utf-8")
    assert f"`{line}`" in text and f"unodsl run {step} -p 3 --seed {seed} -v" in text
    path = example_file(next(e for e in STEPS if e.info == f"file={step}"), tmp_path)
    result = CliRunner().invoke(main, ["run", str(path), "-p", "3", "--seed", str(seed), "-v", "--rounds", "2"])
    assert result.exit_code == 0, result.output
    assert f" {line}\n" in result.output
