"""`extends:` overlays: merge rules, positions in the right file, cycles, and the
house-rule variants shipped in variants/house/ (which must also play)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import answer, hand, pending
from unodsl import Game, load_variant, make_agents, play_game, validate_file
from unodsl.errors import RunawayRound, VariantError
from unodsl.variant.resolve import MAX_EXTENDS, load_tree

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "variants" / "classic.yaml"
HOUSE = sorted((ROOT / "variants" / "house").glob("*.yaml"))
MINI = (ROOT / "tests" / "bad_variants" / "bases" / "mini.yaml").read_text()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def messages(path: Path) -> list[str]:
    return [str(d) for d in validate_file(path)]


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# -- merge rules ---------------------------------------------------------------------
def test_a_lone_overlay_may_omit_required_keys_and_inherits_them(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\nname: Mini house\n")
    assert messages(house) == []
    v = load_variant(house)
    assert (v.name, v.file, v.deck_size, v.scoring.target) == ("Mini house", str(house), 40, 100)


def test_maps_merge_lists_replace_null_removes(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", """extends: base.yaml
name: Mini house
players: {max: 3}
deck_size: null
scoring: {target: 250}
deck:
  - {kind: number, ranks: 1-9, per_color: 1}
  - {kind: [skip, wild], count: 1}
cards:
  skip: {on_play: skip(2)}
""")
    data = load_tree(house).data
    assert "extends" not in data and "deck_size" not in data
    assert data["scoring"] == {"round": "winner_scores_others", "target": 250}  # merged
    assert data["deck"] == [{"kind": "number", "ranks": "1-9", "per_color": 1},  # replaced
                            {"kind": ["skip", "wild"], "count": 1}]
    assert data["cards"]["skip"] == {"points": 20, "on_play": "skip(2)"}
    assert data["cards"]["wild"]["on_play"] == "set_color(choose_color())"
    assert load_variant(house).deck_size == 20


def test_a_shipped_variant_is_extended_by_name(tmp_path: Path) -> None:
    house = write(tmp_path, "house.yaml", "extends: classic\nname: My classic\nscoring: {target: 100}\n")
    v = load_variant(house)
    classic = load_variant("classic")
    assert (v.name, v.deck_size, v.scoring.target, len(v.rules)) == ("My classic", 108, 100, len(classic.rules))
    assert [o.name for o in v.options] == [o.name for o in classic.options]


def test_a_base_may_extend_another_base(tmp_path: Path) -> None:
    write(tmp_path, "bases/base.yaml", MINI)
    write(tmp_path, "bases/middle.yaml", "extends: base.yaml\nname: Middle\nplayers: {max: 3}\n")
    top = write(tmp_path, "house/top.yaml", "extends: ../bases/middle.yaml\nname: Top\n")
    with pytest.raises(VariantError, match="outside the folders a variant may build on"):
        load_variant(top)  # bases/ is not under house/: it must be allowed
    v = load_variant(top, allow=[tmp_path / "bases"])
    assert (v.name, v.min_players, v.max_players) == ("Top", 2, 3)


# -- positions -----------------------------------------------------------------------
def test_an_error_in_the_overlay_points_into_the_overlay(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\nname: Mini house\n"
                  "cards:\n  skip:\n    on_play: skip(2); skp()\n")
    assert messages(house) == [f"{house}:5:23: error: unknown function 'skp'\n  hint: did you mean 'skip'?"]


def test_an_inherited_value_points_into_the_base(tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", MINI.replace("    if: size == 1\n",
                                                      '    if: size == 1 and current_color != "blue"\n'))
    house = write(tmp_path, "house.yaml", "extends: base.yaml\nname: Mini house\ncolors: [red, green]\n")
    line = line_of(base, 'current_color != "blue"')
    assert messages(house) == [f"{base}:{line}:40: error: unknown colour 'blue'\n  hint: known: green, red"]


def test_a_schema_error_in_the_merged_result_points_at_the_value_that_caused_it(tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\nname: Mini house\nplayers: {max: many}\n"
                  "scoring: null\n")
    assert messages(house) == [
        f"{house}:3:16: error: players.max should be a whole number, not a string",
        f"{house}:4:10: error: the file: required key 'scoring' is removed here\n"
        "  hint: give it a value instead of null (scoring: Round scoring and the end of the game.)",
    ]
    assert base.exists()


def test_a_misspelt_new_kind_is_explained(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\ncards:\n  skp: {on_play: skip(2)}\n")
    assert messages(house) == [f"{house}:3:8: error: cards.skp: missing required key 'points'\n"
                               "  hint: 'skp' is new (the base has no such key); did you mean 'skip'?"]


def test_null_that_removes_nothing_is_a_warning(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\ncards:\n  wild: {legal_iff: null}\n")
    assert messages(house) == [f"{house}:3:21: warning: cards.wild.legal_iff: null removes nothing here "
                               "(there is no 'legal_iff' to remove)\n  hint: remove this line"]


def test_an_option_of_the_base_may_remove_what_an_overlay_removed_already(tmp_path: Path) -> None:
    house = write(tmp_path, "house.yaml", "extends: classic\ncards:\n  wild_draw_four: {legal_if: null}\n")
    assert messages(house) == []  # the challenge option sets legal_if: null too
    assert load_variant(house, {"wild_draw_four_challenge": True}).kinds["wild_draw_four"].legal_if is None


# -- overlays that add: rules merge by name, deck groups are added ----------------------
TWO_RULES = MINI + """  - name: sevens
    on: card_played
    if: card.rank == 7
    do: for o in opponents do draw(o, 1)
"""


def rule_names(path: Path) -> list[str]:
    return [r.name for r in load_variant(path).rules]


def test_an_overlay_that_adds_a_rule_keeps_the_inherited_ones(tmp_path: Path) -> None:
    """The trap this closes: adding one rule to Classic used to drop its UNO call."""
    house = write(tmp_path, "house.yaml", "extends: classic\nrules:\n"
                  "  - {name: sevens, on: card_played, if: card.rank == 7, do: skip()}\n")
    assert messages(house) == []
    assert rule_names(house) == [r.name for r in load_variant("classic").rules] + ["sevens"]


def test_a_new_name_is_appended_and_the_same_name_replaces_in_place(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", TWO_RULES)
    house = write(tmp_path, "house.yaml", """extends: base.yaml
rules:
  - name: nines
    on: card_played
    if: card.rank == 9
    do: draw(next, 1)
  - name: say UNO
    on: hand_changed
    if: size == 1
    do: if not ask(player, "call_uno") then draw(player, 4)
""")
    assert messages(house) == []
    assert rule_names(house) == ["say UNO", "sevens", "nines"]
    rules = load_tree(house).data["rules"]
    assert rules[0]["do"].endswith("draw(player, 4)") and rules[1]["do"].startswith("for o in opponents")


def test_remove_true_removes_an_inherited_rule(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", TWO_RULES)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\nrules:\n  - {name: say UNO, remove: true}\n")
    assert messages(house) == []
    assert rule_names(house) == ["sevens"]


def test_merged_rules_keep_their_positions(tmp_path: Path) -> None:
    """An error in an inherited rule points into the base, one in a given rule into the overlay,
    whatever their places in the merged list."""
    base = write(tmp_path, "base.yaml", TWO_RULES.replace("draw(o, 1)", "drw(o, 1)"))
    house = write(tmp_path, "house.yaml", "extends: base.yaml\nrules:\n  - {name: say UNO, remove: true}\n"
                  "  - {name: eights, on: card_played, do: skp()}\n")
    assert messages(house) == [
        f"{house}:4:41: error: unknown function 'skp'\n  hint: did you mean 'skip'?",
        f"{base}:{line_of(base, 'drw(o, 1)')}:31: error: unknown function 'drw'\n  hint: did you mean 'draw'?",
    ]


@pytest.mark.parametrize(("rules", "found"), [
    ("  - {on: card_played, do: skip()}\n", "3:5: error: rules: a rule an overlay gives needs a name"),
    ("  - {name: sevens, on: card_played, do: skip()}\n  - {name: sevens, on: turn_end, do: skip()}\n",
     "4:12: error: rules: 'sevens' is named twice in this overlay"),
    ("  - {name: sevens, remove: true, do: skip()}\n", "3:28: error: rules: a rule that removes is written"),
    ("  - {name: sevens, remove: false}\n", "3:28: error: rules: a rule that removes is written"),
    ("  - {name: seven, remove: true}\n", "3:12: warning: rules: remove: true removes nothing here"),
])
def test_mistakes_in_merged_rules_are_told_where_written(tmp_path: Path, rules: str, found: str) -> None:
    write(tmp_path, "base.yaml", TWO_RULES)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\nrules:\n" + rules)
    assert [m.split("\n")[0][len(str(house)) + 1:][:len(found)] for m in messages(house)] == [found]


def test_an_option_patch_merges_rules_by_name_too(tmp_path: Path) -> None:
    path = write(tmp_path, "mini.yaml", TWO_RULES + """options:
  gentle:
    set:
      rules:
        - {name: sevens, remove: true}
        - {name: nines, on: card_played, if: card.rank == 9, do: "draw(next, 1)"}
""")
    assert messages(path) == []
    assert [r.name for r in load_variant(path, {"gentle": True}).rules] == ["say UNO", "nines"]
    assert [r.name for r in load_variant(path).rules] == ["say UNO", "sevens"]


def test_deck_add_appends_groups_and_leaves_the_base_deck_alone(tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", """extends: base.yaml
deck_size: 44
deck:
  add:
    - {kind: blank, count: 4}
cards:
  blank: {points: 0}
""")
    assert messages(house) == []
    data = load_tree(house).data
    assert data["deck"][:3] == load_tree(base).data["deck"]
    assert data["deck"][3] == {"kind": "blank", "count": 4}
    assert sum(1 for f in load_variant(house).sides[0].faces if f.kind == "blank") == 4
    assert "blank" not in base.read_text()


def test_deck_replace_replaces_without_a_warning_and_a_plain_list_warns(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", MINI)
    groups = "    - {kind: number, ranks: 1-9, per_color: 2}\n    - {kind: [skip, wild], count: 2}\n"
    quiet = write(tmp_path, "quiet.yaml", "extends: base.yaml\ndeck_size: 40\ndeck:\n  replace:\n" + groups)
    loud = write(tmp_path, "loud.yaml", "extends: base.yaml\ndeck_size: 40\ndeck:\n" + groups)
    assert messages(quiet) == []
    assert messages(loud) == [
        f"{loud}:3:1: warning: deck: this list replaces the whole inherited deck (3 groups)\n"
        "  hint: to keep them and add yours write `deck: {add: [...]}`; to replace them on purpose, "
        "`deck: {replace: [...]}`"]
    assert load_tree(quiet).data["deck"] == load_tree(loud).data["deck"]


def test_an_inherited_deck_size_is_explained_when_groups_are_added(tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", MINI)
    house = write(tmp_path, "house.yaml", "extends: base.yaml\ndeck: {add: [{kind: skip, count: 2}]}\n")
    assert messages(house) == [f"{base}:6:12: error: deck_size says 40 cards, but the deck lists 42\n"
                               f"  hint: the overlay changed the deck: set `deck_size: 42` in {house}"]


# -- what extends may name -------------------------------------------------------------
def test_a_cycle_is_refused_with_its_chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "name: B\nextends: sub/c.yaml\n")
    write(tmp_path, "sub/c.yaml", "extends: ../a.yaml\n")
    assert [str(d) for d in validate_file("a.yaml")] == [
        "sub/c.yaml:1:10: error: extends goes round in a circle: a.yaml → b.yaml → sub/c.yaml → a.yaml\n"
        "  hint: a variant can't build on itself; remove one of these `extends:`"]


def test_a_long_chain_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "v0.yaml", MINI)
    for i in range(1, MAX_EXTENDS + 1):
        write(tmp_path, f"v{i}.yaml", f"extends: v{i - 1}.yaml\n")
    # v0 … v15 are 16 files, the most a chain may hold (docs/validation.md); v0 … v16 are 17.
    assert load_variant(tmp_path / f"v{MAX_EXTENDS - 1}.yaml").deck_size == 40
    found = messages(tmp_path / f"v{MAX_EXTENDS}.yaml")
    assert found == [f"{tmp_path}/v1.yaml:1:10: error: extends chains more than {MAX_EXTENDS} files\n"
                     "  hint: build on the shipped variant or base file directly"]


@pytest.mark.parametrize(("ref", "message"), [
    ("clasic", "extends: no shipped variant named 'clasic'\n  hint: did you mean 'classic'?"),
    ("bse.yaml", "extends: 'bse.yaml' does not exist (looked for '{dir}/bse.yaml')\n"
                 "  hint: did you mean 'base.yaml'?"),
    ("sub/", "extends: 'sub/' is a directory (looked for '{dir}/sub')\n"
             "  hint: a path is relative to the file that extends it"),
    ("classic.yaml", "extends: 'classic.yaml' does not exist (looked for '{dir}/classic.yaml')\n"
                     "  hint: to build on the shipped variant, give its name: `extends: classic`"),
    ("''", "extends should be a shipped variant's name or a path to a variant file\n"
           "  hint: for example `extends: ../base.yaml`, or a name from `unodsl list`"),
    ("42", "extends should be a shipped variant's name or a path to a variant file\n"
           "  hint: for example `extends: ../base.yaml`, or a name from `unodsl list`"),
])
def test_what_extends_names_must_exist(tmp_path: Path, ref: str, message: str) -> None:
    write(tmp_path, "base.yaml", MINI)
    (tmp_path / "sub").mkdir()
    house = write(tmp_path, "house.yaml", f"name: House\nextends: {ref}\n")
    assert messages(house) == [f"{house}:2:10: error: {message.format(dir=tmp_path)}"]


def test_an_error_in_a_base_file_is_told_by_position_only(tmp_path: Path) -> None:
    # Where, never what: a base that can't be read may not be a variant at all.
    base = write(tmp_path, "base.yaml", MINI.replace("name: Mini", "name: Mini\nname: Again"))
    house = write(tmp_path, "house.yaml", "extends: base.yaml\n")
    with pytest.raises(VariantError) as err:
        load_variant(house)
    assert str(err.value) == (f"{house}:1:10: error: extends: {base} can't be read as a variant "
                              f"(problem at {base}:4:1)\n  hint: check it on its own: unodsl validate {base}")


# -- the shipped house rules ---------------------------------------------------------------
def test_house_variants_are_valid_and_each_extends_something() -> None:
    assert len(HOUSE) >= 2
    for path in HOUSE:
        assert "\nextends: " in path.read_text()
        assert validate_file(path) == [], path


class Conservation:
    """COM-3 after every event: the cards in all zones are exactly the deck."""

    def __init__(self, game: Game) -> None:
        self.deck = sorted(c.id for c in game.cards)

    def __call__(self, g: Game, name: str, data: dict[str, Any]) -> None:
        zones = g.zones().values()  # (the zones a variant declares too)
        assert sorted(c.id for z in zones for c in z) == self.deck, f"COM-3 broken at {name}"


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
@pytest.mark.parametrize("players", [2, 5])
def test_house_variants_play_to_the_end(path: Path, players: int) -> None:
    v = load_variant(path)
    players = min(max(players, v.min_players), v.max_players)  # partners are four
    for seed in range(2):
        game = Game(v, players, seed, max_turns=20_000)
        game.watch(Conservation(game))
        try:
            play_game(game, make_agents(["greedy", "random"], players, seed))
        except RunawayRound:  # pragma: no cover - would be a finding about the rule, not a crash
            pytest.fail(f"{path.name}: a round did not end")
        assert game.over


def test_draw_two_stacking_passes_the_penalty_on() -> None:
    g = Game(load_variant(ROOT / "variants" / "house" / "draw_two_stacking.yaml"), 3, 0, record=True)
    g.arrange({0: ["red draw two", "red 1"], 1: ["blue draw two", "blue 1"], 2: ["green 5", "green 6"]},
              discard=["red 3"], draw=["yellow 1", "yellow 2", "yellow 3", "yellow 4"])
    answer(g, "play red draw two", "yes")  # yes: player 0 calls UNO
    assert pending(g)[:2] == (1, "turn")
    assert {str(o) for o in g.decision.options} == {"play blue draw two", "draw"}  # type: ignore[union-attr]
    answer(g, "play blue draw two", "yes")
    # Player 2 holds no Draw Two, so drawing the whole stack is the only option (taken at once).
    assert hand(g, 2) == ["green 5", "green 6", "yellow 1", "yellow 2", "yellow 3", "yellow 4"]
    assert [e for e, _ in g.events or []].count("penalty_taken") == 1


def test_sevens_swap_and_zeros_pass_hands() -> None:
    g = Game(load_variant(ROOT / "variants" / "house" / "seven_zero.yaml"), 3, 0, record=True)
    g.arrange({0: ["red 7", "red 0", "blue 9"], 1: ["blue 1", "blue 2"], 2: ["green 5"]},
              discard=["red 3"])
    answer(g, "play red 7", 2)
    assert hand(g, 0) == ["green 5"] and hand(g, 2) == ["blue 9", "red 0"]
    g.arrange({0: ["red 0", "blue 9"], 1: ["blue 1", "blue 2"], 2: ["green 5"]}, discard=["red 3"])
    # Each "yes" is an UNO call: player 0 after playing, then after the pass (at once)
    # players 0 and 1, who now hold one card each.
    answer(g, "play red 0", "yes", "yes", "yes")
    assert (hand(g, 0), hand(g, 2)) == (["green 5"], ["blue 1", "blue 2"])
    assert "blue 9" in hand(g, 1)  # (player 1 is on turn, and may have drawn already)
