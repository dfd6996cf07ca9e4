"""Options that take a value (issue 13, point 5): declared with a type, a default and a
range, read as `option.NAME` in expressions and `{option: NAME}` as a value, set with
`-o NAME=VALUE` or `load_variant(..., options={NAME: VALUE})`, logged and replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl import Game, load_variant
from unodsl.cli import main
from unodsl.cli.common import parse_options
from unodsl.errors import VariantError
from unodsl.tools.replay import replay
from unodsl.tools.simulate import simulate
from unodsl.variant.load import validate_file

ROOT = Path(__file__).resolve().parents[2]
MINI = (ROOT / "tests" / "bad_variants" / "bases" / "mini.yaml").read_text(encoding="utf-8")
DEAL_OPTION = """options:
  deal:
    description: cards dealt to each player
    type: int
    default: 5
    min: 1
    max: 7
  fast:
    description: a shorter game
    set:
      scoring: {target: 30}
"""


def mini(tmp_path: Path, setup: str = "deal(option.deal)", options: str = DEAL_OPTION) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(MINI.replace("deal(5)", setup).replace("rules:\n", options + "rules:\n"), encoding="utf-8")
    return path


def messages(err: pytest.ExceptionInfo[VariantError]) -> list[str]:
    return [str(d) for d in err.value.diagnostics]


# -- declared, chosen, read ---------------------------------------------------------------
def test_an_option_value_is_read_in_an_expression(tmp_path: Path) -> None:
    path = mini(tmp_path)
    for deal in (1, 3, 7):
        g = Game(load_variant(path, {"deal": deal}), 3, seed=1)
        assert [len(h) for h in g.hands] == [deal] * 3
    assert [len(h) for h in Game(load_variant(path), 2, seed=1).hands] == [5, 5]


def test_the_variant_records_each_options_declaration_and_chosen_value(tmp_path: Path) -> None:
    v = load_variant(mini(tmp_path), {"deal": "3", "fast": True})
    deal, fast = v.options
    assert (deal.name, deal.type, deal.default, deal.min, deal.max, deal.value) == ("deal", "int", 5, 1, 7, 3)
    assert deal.description == "cards dealt to each player" and deal.label == "deal=3" and deal.is_set
    assert (fast.type, fast.value, fast.enabled, fast.label) == ("bool", True, True, "fast")
    assert v.scoring.target == 30


def test_the_public_api_still_takes_switches() -> None:
    v = load_variant("classic", {"draw_until_playable": True})
    assert v.turn.draw.until_playable and v.scoring.target == 500
    assert [o.name for o in v.options if o.enabled] == ["draw_until_playable"]


@pytest.mark.parametrize(("given", "told"), [
    ("abc", "option 'deal' takes a whole number from 1 to 7, not 'abc'"),
    (8, "option 'deal' takes a whole number from 1 to 7, not 8"),
    ("0", "option 'deal' takes a whole number from 1 to 7, not '0'"),
    (True, "option 'deal' takes a whole number from 1 to 7: give it one"),
])
def test_a_value_that_does_not_fit_is_an_error_at_the_declaration(tmp_path: Path, given: object,
                                                                    told: str) -> None:
    with pytest.raises(VariantError) as err:
        load_variant(mini(tmp_path), {"deal": given})  # type: ignore[dict-item]
    assert messages(err) == [f"{tmp_path}/v.yaml:32:3: error: {told}\n  hint: for example -o deal=5"]


def test_a_switch_given_a_number_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as err:
        load_variant(mini(tmp_path), {"fast": 3})
    assert messages(err)[0].endswith("error: option 'fast' takes on or off, not 3\n  hint: for example -o fast=on")


@pytest.mark.parametrize(("setup", "told"), [
    ("deal(option)", "'option' is read with the option's name: option.NAME"),
    ("deal(option.fast)", "deal() wants int for 'count', got bool"),
    ("option = 3; deal(option)", "'option' is a built-in name and can't be assigned"),
    ("deal(option.hand)", "unknown option 'hand'"),
])
def test_option_reads_are_checked(tmp_path: Path, setup: str, told: str) -> None:
    with pytest.raises(VariantError) as err:
        load_variant(mini(tmp_path, setup))
    assert any(f"error: {told}" in m for m in messages(err)), messages(err)


def test_a_switch_reads_as_true_or_false(tmp_path: Path) -> None:
    path = mini(tmp_path, "deal(if option.fast then 2 else 4)")
    assert [len(h) for h in Game(load_variant(path), 2, seed=1).hands] == [4, 4]
    assert [len(h) for h in Game(load_variant(path, {"fast": True}), 2, seed=1).hands] == [2, 2]


def test_validate_tries_each_number_option_at_its_min_and_max(tmp_path: Path) -> None:
    assert validate_file(mini(tmp_path)) == []
    wide = mini(tmp_path, options=DEAL_OPTION.replace("max: 7", "max: 20000"))
    assert [d.message for d in validate_file(wide)] == ["deal(): option.deal = 20000, which is more than 10,000"]
    assert load_variant(wide).options[0].value == 5  # fine at its default


def test_the_deal_must_fit_the_deck_at_an_options_max(tmp_path: Path) -> None:
    path = mini(tmp_path, options=DEAL_OPTION.replace("max: 7", "max: 12"))
    assert [d.message for d in validate_file(path)] == [
        "the deck has 40 cards, but dealing 12 to each of 4 players and turning up 1 takes 49 "
        "(with option.deal = 12)"]
    with pytest.raises(VariantError):
        load_variant(path, {"deal": 10})
    assert load_variant(path, {"deal": 9}).options[0].value == 9


# -- the command line -----------------------------------------------------------------------
def test_parse_options_keeps_values_as_text_for_the_variant_to_check() -> None:
    assert parse_options(("a", "b=off", "target=300")) == {"a": True, "b": "off", "target": "300"}


def test_run_with_a_bad_value_is_a_clear_error_not_a_traceback() -> None:
    result = CliRunner().invoke(main, ["run", "classic", "-o", "target=abc", "--seed", "1"])
    assert result.exit_code == 1 and (result.exception is None or isinstance(result.exception, SystemExit))
    assert "error: option 'target' takes a whole number from 1 to 10000, not 'abc'" in result.output
    assert "classic.yaml:" in result.output


def test_run_names_a_value_in_the_header_and_the_log_replays_with_it(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    result = CliRunner().invoke(main, ["run", "classic", "-p", "3", "--seed", "3", "-o", "target=50",
                                       "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "options: target=50" in result.output.splitlines()[0]
    header = json.loads(log.read_text().splitlines()[0])
    assert header["option_values"] == {"target": 50, "hand_size": 7}  # every number option, at its value
    assert replay(log).identical
    ends = [json.loads(line) for line in log.read_text().splitlines() if '"game_end"' in line]
    assert len(ends) == 1 and max(ends[0]["scores"]) >= 50
    # The value is what replays the game: without it the game is the default's, and differs.
    header.pop("option_values")
    lines = log.read_text().splitlines()
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert not replay(stripped).identical


def test_a_log_with_a_bad_option_values_entry_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    CliRunner().invoke(main, ["run", "classic", "-p", "2", "--seed", "3", "--log", str(log)])
    lines = log.read_text().splitlines()
    header = json.loads(lines[0]) | {"option_values": {"target": "fifty"}}
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 1 and "'option_values' should map option names to numbers" in result.output


def test_simulate_takes_values() -> None:
    short = simulate("classic", 3, players=3, seed=1, options={"target": 50})
    assert short.options_on == ("target=50",) and short.label == "UNO Classic + target=50"
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "2", "-p", "3", "--seed", "1",
                                       "-o", "target=50", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["variant"]["options"] == ["target=50"]


def test_unodsl_options_lists_each_option_with_its_type_default_and_range() -> None:
    result = CliRunner().invoke(main, ["options", "classic"])
    assert result.exit_code == 0
    assert "  -o target=N: a whole number from 1 to 10000 (default 500)" in result.output
    assert "  -o draw_until_playable: on or off (default off)" in result.output
    assert "CL-14" in result.output
    assert "unodsl options VARIANT" in CliRunner().invoke(main, ["run", "--help"]).output
