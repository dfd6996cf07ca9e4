"""Fuzzing the validator with mutated shipped variants.

Hypothesis takes a shipped variant (the five games and the house-rule overlays)
and damages it: in the text (drop, duplicate or re-indent a line, splice a
token into a line) or in the data (drop, duplicate, retype and rename keys and
list items, change numbers, splice the text of expressions together). Then:

1. `validate_file` never raises: every problem is a positioned Diagnostic.
2. What it rejects, `load_variant` rejects too; what it accepts, `load_variant`
   loads (with no option, or with any one option on: the combinations it checks).
3. Every accepted variant plays a seeded game between bots, with card
   conservation (COM-3), a valid current player and non-negative scores checked
   after every event.

Outcomes of a game other than its end that are accepted, and why:
- `RunawayRound`/`GameError`: the engine's guards against a round that passes
  `max_turns` or a `while` loop that never ends. A mutated variant can be a
  well-formed game that cannot finish (a `match` that is never true with
  `turn.draw.count: 0`; a deck of nothing but wilds under `while top.wild do …`),
  which no static check can rule out in general; the guard ending it with a
  clear error is the designed behaviour, not a crash.
- running out of the decision budget: a mutated target or scoring mode can make
  a legal game too long for a test (a target of 1,000,000 points); the
  invariants held for every event played, which is what is being tested.
Any other exception fails the test.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import deadline
from unodsl import Game, load_variant, make_agents, validate_file
from unodsl.errors import Diagnostic, GameError, VariantError
from unodsl.variant.source import parse_source

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "variants"
SOURCES = sorted(p.relative_to(VARIANTS) for p in VARIANTS.rglob("*.yaml"))
TEXTS = {p: (VARIANTS / p).read_text(encoding="utf-8") for p in SOURCES}
EXAMPLES = settings().max_examples * 5  # 40 by default, 300 with HYPOTHESIS_PROFILE=ci
MAX_TURNS = 2_000
BUDGET = 30_000  # decisions per game
SECONDS = 30  # per example: a hang in the validator or the engine fails instead of stalling the run

VALUES: list[Any] = [0, 1, 2, 7, -1, 10**12, "", "text", "rank", "1-9", "9-1", True, False, None,
                     [], {}, [1], ["red"], {"kind": "number"}, "skip()", 'c -> c.kind == "wild"',
                     # issue 16: fractions, huge ranges, control characters, dates, paths outside
                     2.5, 2.0, "0-10e25", "0-" + "9" * 100, "\x1b[2J", "a\x00b", "\u202e", "2024-05-01",
                     "/etc/passwd", "../../../../etc/hostname.yaml", "a/" * 3000 + "x.yaml"]
NUMBERS = [0, 1, 2, 3, 5, 7, 10, 20, 100, 108]
TOKENS = ["(", ")", ";", "==", "!=", " and ", " or ", "not ", "-", "[]", "[", "]", ",", ".", "->",
          "draw(next, 2)", "skip()", '"red"', '"nope"', "7", "none", "true", "c -> c.wild", "x = 1; ",
          "if true then ", " else ", "choose_color()", "choose_player([])", "top.rank", "card.kind",
          "repeat 3 do ", "for p in players do ", "while false do ", "player", "hand", "#",
          "0 - 1", "9" * 5000, "if true then skip() else " * 300]
TEXT_TOKENS = [": ", "- ", "\t", "  ", "{", "}", "[", "]", "&a ", "*a", "!!str ", "'", '"', "null", "|",
               '"\\e[2J"', '"\\0"', "9" * 5000, "2.5", "2024-05-01", ">", "extends: /proc/self/environ"]


# -- mutations ---------------------------------------------------------------------------
def paths(value: Any, key: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node's path in a YAML document, the root first."""
    out = [key]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*key, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*key, i))
    return out


def get(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def strings(doc: Any) -> list[tuple[Any, ...]]:
    return [p for p in paths(doc) if p and isinstance(get(doc, p), str)]


def mutate_data(data: st.DataObject, doc: Any) -> Any:
    """One structural change to the parsed document (in place where possible)."""
    where = [p for p in paths(doc) if p]
    path = data.draw(st.sampled_from(where), label="path")
    parent, last = get(doc, path[:-1]), path[-1]
    op = data.draw(st.sampled_from(["drop", "duplicate", "retype", "rename", "number", "splice", "token"]),
                   label="op")
    value = parent[last]
    if op == "drop":
        del parent[last]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(last, value)
    elif op == "duplicate" and isinstance(parent, dict):
        siblings = [k for k in parent if k != last]
        if siblings:  # a key's value copied under another key
            parent[data.draw(st.sampled_from(siblings), label="onto")] = value
    elif op == "retype":
        parent[last] = data.draw(st.sampled_from(VALUES), label="value")
    elif op == "rename" and isinstance(parent, dict):
        names = sorted({str(p[-1]) for p in where if isinstance(p[-1], str)})
        name = str(last)
        new = data.draw(st.one_of(st.sampled_from(names), st.sampled_from([name[:-1], name + "s", name.upper(),
                                                                         name[::-1], "_" + name])), label="to")
        parent[new] = parent.pop(last)
    elif op == "number":
        targets = [p for p in where if isinstance(get(doc, p), int) and not isinstance(get(doc, p), bool)]
        if targets:
            at = data.draw(st.sampled_from(targets), label="int")
            get(doc, at[:-1])[at[-1]] = data.draw(st.sampled_from(NUMBERS), label="n")
    elif op in ("splice", "token"):
        texts = strings(doc)
        if texts:
            at = data.draw(st.sampled_from(texts), label="text")
            text = get(doc, at)
            cut = data.draw(st.integers(0, len(text)), label="cut")
            if op == "splice":
                other = get(doc, data.draw(st.sampled_from(texts), label="other"))
                rest = other[data.draw(st.integers(0, len(other)), label="from"):]
            else:
                rest = data.draw(st.sampled_from(TOKENS), label="token") + text[cut:]
            get(doc, at[:-1])[at[-1]] = text[:cut] + rest
    return doc


def mutate_text(data: st.DataObject, text: str) -> str:
    """One change to the text itself: what a slip of the keyboard does."""
    lines = text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    op = data.draw(st.sampled_from(["drop", "duplicate", "indent", "dedent", "token"]), label="text op")
    if op == "drop":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "indent":
        lines[i] = " " + lines[i]
    elif op == "dedent":
        lines[i] = lines[i][1:]
    else:
        cut = data.draw(st.integers(0, len(lines[i])), label="col")
        token = data.draw(st.sampled_from(TEXT_TOKENS + TOKENS), label="text token")
        lines[i] = lines[i][:cut] + token + lines[i][cut:]
    return "\n".join(lines) + "\n"


# -- the game -------------------------------------------------------------------------------
class Invariants:
    """Checked after every event: COM-3, a valid current player, non-negative scores."""

    def __init__(self, game: Game) -> None:
        self.deck = sorted(c.id for c in game.cards)
        self.events = 0

    def __call__(self, g: Game, name: str, data: dict[str, Any]) -> None:
        self.events += 1
        zones = g.zones().values()  # (the zones a variant declares too)
        assert sorted(c.id for z in zones for c in z) == self.deck, f"COM-3 broken at {name}"
        assert 0 <= g.current < g.n, f"current player {g.current} at {name}"
        assert all(s >= 0 for s in g.scores), f"negative score at {name}"


def play(path: Path, data: st.DataObject) -> str:
    """Play one seeded game of an accepted variant; how it ended."""
    options = {o.name for o in load_variant(path).options if o.type == "bool"}  # number options keep their default
    chosen = data.draw(st.one_of(st.just({}), st.sampled_from(sorted(options)).map(lambda o: {o: True}))
                       if options else st.just({}), label="options")
    variant = load_variant(path, chosen)
    most = max(variant.min_players, min(variant.max_players, 6))  # large tables are slow, not different
    players = data.draw(st.integers(variant.min_players, most), label="players")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    agents = make_agents(["random", "greedy"], players, seed)
    try:
        game = Game(variant, players, seed, max_turns=MAX_TURNS)  # the set-up of round 1 runs here
        check = Invariants(game)
        game.watch(check)
        for _ in range(BUDGET):
            d = game.decision
            if d is None:
                assert game.over and game.winner is not None
                return "ended"
            game.apply(agents[d.player].choose(game, d))
    except GameError:  # RunawayRound included; see the module docstring
        return "guard"
    return "budget"


def refused(path: Path, reported: set[str]) -> bool:
    """Does the loader refuse the file, alone or with one of its options on?"""
    tries: list[dict[str, bool]] = [{}]
    try:
        tries += [{o.name: True} for o in load_variant(path).options if o.type == "bool"]
    except VariantError as err:
        assert {str(d) for d in err.diagnostics} <= reported
        return True
    for options in tries[1:]:
        try:
            load_variant(path, options)
        except VariantError as err:
            assert {str(d) for d in err.diagnostics} <= reported
            return True
    return False


@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_mutated_variants_are_diagnosed_or_play(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(SOURCES), label="variant")
    text = TEXTS[source]
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        if data.draw(st.booleans(), label="in the text"):
            text = mutate_text(data, text)
        else:
            try:  # our reader, not yaml.safe_load: it keeps `on:` a string, as variants mean it
                doc = parse_source(text).data
            except VariantError:
                break  # an earlier change broke the YAML: that is the case to validate
            if not isinstance(doc, dict):
                break
            text = yaml.safe_dump(mutate_data(data, doc), sort_keys=False, allow_unicode=True)
    with tempfile.TemporaryDirectory() as tmp, deadline(SECONDS):
        # The house overlays extend each other by path: the mutated file lives among copies.
        shutil.copytree(VARIANTS / "house", Path(tmp) / "house")
        path = Path(tmp) / source
        path.write_text(text, encoding="utf-8")

        diags = validate_file(path)  # 1. must not raise
        assert all(isinstance(d, Diagnostic) and d.pos.line >= 1 and d.pos.col >= 1 and d.message
                   for d in diags)
        if any(d.severity == "error" for d in diags):
            # 2. rejected by validate: the loader refuses it too (maybe only with an option on),
            # with errors validate reported
            assert refused(path, {str(d) for d in diags}), f"validate rejected {source}, the loader did not"
            return
        play(path, data)  # 3. accepted: plays without a crash or a broken invariant
