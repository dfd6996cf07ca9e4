"""The balance lab (`unodsl analyze`, unodsl/tools/analyze/): planted variants whose answer
is known, the evaluator reads nothing hidden, the same figures for any split of the work,
clear errors, and output that fits."""

from __future__ import annotations

import io
import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from unodsl import Game, load_variant, make_agents
from unodsl.cli import main
from unodsl.cli.analyze import _named, show
from unodsl.engine.actions import DRAW, Decision, Play
from unodsl.errors import UnoDslError
from unodsl.tools.analyze import Analysis, AnalyzeError, Budget, analyze, figures, report
from unodsl.tools.analyze.compare import Sprt, rounds_needed
from unodsl.tools.analyze.evaluator import public_keys, tension
from unodsl.tools.analyze.figures import ideal_score
from unodsl.tools.analyze.passes import AVOID, RUSH, Restricted

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "tests" / "lab_variants"
DOCS = (ROOT / "docs" / "analyze.md").read_text(encoding="utf-8") if (ROOT / "docs" / "analyze.md").exists() else ""


@cache
def lab(name: str, rounds: int, power: int = 0, games: int = 0, players: int = 4) -> Analysis:
    path = PLANTED / f"{name}.yaml" if (PLANTED / f"{name}.yaml").exists() else name
    return analyze(path, players=players, agents=["greedy"], seed=3,
                   budget=Budget(rounds=rounds, games=games, power=power, train=200))


def without_timing(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "timing"}


# -- planted variants ---------------------------------------------------------------


def test_a_card_that_wins_at_once_is_flagged_dominant() -> None:
    doc = report(lab("instant_win", 100, power=200))
    rows = {r["kind"]: r for r in doc["sections"]["card_power"]["kinds"]}
    assert rows["jackpot"]["flag"] == "dominant"
    assert rows["jackpot"]["rush"]["ci95"][0] > 0.05  # playing it at once wins clearly more often
    assert doc["sections"]["card_power"]["kinds"][0]["kind"] == "jackpot"  # ranked first
    assert [k for k, r in rows.items() if r["flag"] == "dominant"] == ["jackpot"]


def test_a_card_that_wins_at_once_reads_strong() -> None:
    """Issue 43: the signs read as a designer reads them — never playing a card that wins
    at once costs much, playing it at once gains much, in the JSON's words and on screen."""
    a = lab("instant_win", 100, power=200)
    f = figures(a)
    assert f["card_power.jackpot"].ci95 is not None and f["card_power.jackpot"].ci95[0] > 0.05
    assert f["card_rush.jackpot"].ci95 is not None and f["card_rush.jackpot"].ci95[0] > 0.05
    row = next(r for r in report(a)["sections"]["card_power"]["kinds"] if r["kind"] == "jackpot")
    assert row["never_playing_it"].startswith("costs ") and row["playing_it_at_once"].startswith("gains ")
    out = io.StringIO()
    show(Console(file=out, width=80, color_system=None), [a], [report(a)], None, None, None)
    lines = out.getvalue().splitlines()
    at = lines.index("jackpot — dominant: playing it at once wins clearly more often")
    assert re.match(r"  never playing it costs +\d+\.\d% +\d+\.\d% to \d+\.\d%$", lines[at + 1])
    assert re.match(r"  playing it at once gains +\d+\.\d% +\d+\.\d% to \d+\.\d%$", lines[at + 2])


def test_a_card_that_hands_the_round_away_reads_weak() -> None:
    """The other sign: a poison card (the next player wins the round) loses when played at
    once, and never playing it gains; the words turn with the sign, the interval with them."""
    a = lab("poison", 100, power=200)
    f = figures(a)
    rush, power = f["card_rush.poison"], f["card_power.poison"]
    assert rush.ci95 is not None and rush.ci95[1] < 0 and power.ci95 is not None and power.ci95[1] < 0
    row = next(r for r in report(a)["sections"]["card_power"]["kinds"] if r["kind"] == "poison")
    assert row["never_playing_it"].startswith("gains ") and row["playing_it_at_once"].startswith("loses ")
    lo, hi = (float(x) for x in re.findall(r"\(([\d.]+) to ([\d.]+)\)", row["playing_it_at_once"])[0])
    assert lo == pytest.approx(-100 * rush.ci95[1], abs=0.06) and hi == pytest.approx(-100 * rush.ci95[0], abs=0.06)
    kinds = [r["kind"] for r in report(a)["sections"]["card_power"]["kinds"]]
    assert kinds[-1] == "poison"  # the weakest last


def test_classic_has_no_dominant_card() -> None:
    """The flag can be off: at the same budget no Classic card is flagged dominant."""
    doc = report(lab("classic", 100, power=200))
    assert [r["kind"] for r in doc["sections"]["card_power"]["kinds"] if r["flag"] == "dominant"] == []


def test_a_rule_that_can_never_fire_is_listed_by_coverage() -> None:
    cov = report(lab("dead_rule", 100))["sections"]["coverage"]
    never = [r["name"] for r in cov["rules_never_fired"]]
    assert "a swap costs a card" in never
    assert cov["rules"]["a swap costs a card"] == 0
    assert "COM-2: say UNO when one card is left" not in never  # a rule that fires is not listed
    assert cov["rules_never_fired"][0]["upper95_per_round"] < 0.05


def test_an_extra_turn_for_the_first_seat_shows_as_first_seat_advantage() -> None:
    f = figures(lab("first_seat_extra", 300))["first_seat_advantage"]
    assert f.ci95 is not None and f.ci95[0] > 0
    plain = figures(lab("classic", 300))["first_seat_advantage"]
    assert plain.ci95 is not None and plain.ci95[0] < 0.05 < f.ci95[0]


def test_a_variant_decided_on_the_first_turn_has_no_moves_before_the_winner_is_clear() -> None:
    figs = figures(lab("first_turn", 100))
    assert figs["decisiveness"].value is not None and figs["decisiveness"].value < 0.5
    assert figs["turns_per_round"].value == 1
    classic = figures(lab("classic", 100))["decisiveness"]
    assert classic.value is not None and classic.value > 10  # the figure can be large


# -- the evaluator reads only public information ------------------------------------


@pytest.mark.parametrize("name", ["classic", "flip", "duo"])
def test_the_evaluator_keys_do_not_change_when_the_hidden_cards_are_dealt_again(name: str) -> None:
    v = load_variant(name)
    n = max(v.min_players, min(4, v.max_players))
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        game = Game(v, n, seed)
        agents = make_agents(["greedy"], n, seed)
        for _ in range(rng.randrange(3, 40)):
            if game.decision is None:
                break
            game.apply(agents[game.decision.player].choose(game, game.decision))
        if game.decision is None:
            continue
        for p in range(n):
            again = game.resample(p, random.Random(seed))
            assert public_keys(again) == public_keys(game)
            checked += 1
    assert checked


def test_tension_by_hand() -> None:
    # three positions, two players; player 1 wins: it trails, then leads from position 1
    chances = [[0.7, 0.3], [0.4, 0.6], [0.2, 0.8]]
    changes, drama, clear = tension(chances, 1)
    assert changes == 1
    assert drama == pytest.approx((0.4 + 0 + 0) / 3)
    assert clear == 1
    assert tension([[0.5, 0.5]], 0) == (0, 0.0, 0)
    assert tension([[0.9, 0.1], [0.9, 0.1]], 1)[2] == 2  # clear only with the winning play


def test_ideal_duration_scores_as_ludii() -> None:
    assert ideal_score(30, 20, 60) == 1
    assert ideal_score(10, 20, 60) == 0.5
    assert ideal_score(90, 20, 60) == 0.5
    assert ideal_score(200, 20, 60) == 0


def test_the_design_range_gives_ideal_duration(tmp_path: Path) -> None:
    path = tmp_path / "designed.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'classic.yaml'}\ndesign:\n  turns_per_round: [20, 60]\n",
                    encoding="utf-8")
    a = analyze(path, players=4, agents=["greedy"], seed=1, budget=Budget(rounds=60, games=0, power=0, train=50))
    f = figures(a)
    assert f["ideal_duration"].value is not None and 0.5 < f["ideal_duration"].value <= 1
    assert f["turns_per_round.in_range"].ci95 is not None


# -- restricted play ----------------------------------------------------------------


class _First:
    name = "first"

    def choose(self, game: Any, decision: Decision) -> Any:
        return decision.options[0]


def test_restricted_agents_avoid_or_rush_a_kind_only_when_there_is_a_choice() -> None:
    v = load_variant("classic")
    game = Game(v, 2, 1)
    by_kind = {}
    for card in game.cards:
        by_kind.setdefault(card.kind, card)
    skip, number = Play(by_kind["skip"]), Play(by_kind["number"])
    d = Decision(0, "turn", (skip, number, DRAW))
    assert Restricted(_First(), "skip", AVOID).choose(game, d) == number
    assert Restricted(_First(), "number", RUSH).choose(game, d) == number
    only = Decision(0, "turn", (skip,))
    avoid = Restricted(_First(), "skip", AVOID)
    assert avoid.choose(game, only) == skip and avoid.bites == 0  # no other choice: it plays it
    assert Restricted(_First(), "skip", AVOID).choose(game, Decision(0, "color", ("red", "blue"))) == "red"


# -- reproducibility -----------------------------------------------------------------


def test_the_same_figures_with_one_or_two_workers() -> None:
    budget = Budget(rounds=40, games=4, power=8, train=30)
    one = analyze("classic", players=3, agents=["greedy", "random"], seed=11, budget=budget, workers=1)
    two = analyze("classic", players=3, agents=["greedy", "random"], seed=11, budget=budget, workers=2)
    assert without_timing(report(one)) == without_timing(report(two))
    other = analyze("classic", players=3, agents=["greedy", "random"], seed=12, budget=budget, workers=1)
    assert without_timing(report(other)) != without_timing(report(one))  # the comparison can fail


def test_the_rounds_pass_plays_simulates_rounds() -> None:
    """The main pass is `simulate --rounds` with more listeners: the same rounds, the same figures."""
    from unodsl.tools.simulate import simulate
    a = lab("classic", 100)
    sim = simulate("classic", 100, players=4, agents=["greedy"], seed=3, rounds_only=True)
    assert sim.tally.turns_per_round == a.sim.turns_per_round
    assert sim.tally.round_wins == a.sim.round_wins


# -- the command -----------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["analyze", *args])


def test_bad_input_is_a_clear_error_without_a_traceback(tmp_path: Path) -> None:
    result = run("classic", "--agents", "greedyy", "-r", "5")
    assert result.exit_code == 2 and "unknown agent 'greedyy'" in result.output and "did you mean" in result.output
    result = run("classic", "-r", "0")
    assert result.exit_code == 2 and "at least one round" in result.output
    result = run("classic", "-r", "5", "--explore-rounds", "-1")
    assert result.exit_code == 2 and "cannot be negative, not -1" in result.output
    result = run("classic", "-p", "11", "-r", "5")
    assert result.exit_code == 2 and "2–10 players, not 11" in result.output
    bad = tmp_path / "backwards.yaml"
    bad.write_text(f"extends: {ROOT / 'variants' / 'classic.yaml'}\ndesign:\n  turns_per_round: [60, 20]\n",
                   encoding="utf-8")
    result = run(str(bad), "-r", "5")
    assert result.exit_code == 1
    assert re.search(r"backwards\.yaml:3:\d+: error: design: turns_per_round runs from 60 down to 20", result.output)
    result = run("classic", "-r", "5", "-g", "0", "--power-rounds", "0", "--power", "no_such_figure=1")
    assert result.exit_code == 1 and "no figure named no_such_figure" in result.output
    result = run("classic", "-r", "5", "--power", "turns_per_round")
    assert result.exit_code == 2 and "FIGURE=DIFFERENCE" in result.output
    result = run("classic", "-r", "5", "--until-significant", "drama")
    assert result.exit_code == 2 and "--compare" in result.output
    for r in (result,):
        assert "Traceback" not in r.output
    with pytest.raises(AnalyzeError, match="at least one round"):
        analyze("classic", budget=Budget(rounds=0))
    with pytest.raises(UnoDslError, match="2–10 players, not 11"):
        analyze("classic", players=11, budget=Budget(rounds=1))


def test_json_has_every_figure_with_an_interval_and_a_meaning() -> None:
    result = run("classic", "-r", "30", "-g", "3", "--power-rounds", "5", "--train-rounds", "20", "-s", "2",
                 "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    figs = doc["figures"]
    for name in ("balance", "first_seat_advantage", "dealer_advantage", "completion", "runaway_rate",
                 "timeout_rate", "tie_rate", "turns_per_round", "rounds_per_game", "lead_changes", "drama",
                 "decisiveness", "longest_wait", "longest_wait.p95", "forced_draws", "skips_received",
                 "leader_hit_rate", "card_power.wild", "card_rush.wild", "card_power.spread", "evaluator.skill"):
        assert name in figs, name
    for name, f in figs.items():
        assert f["meaning"], name
        assert "ci95" in f and "value" in f
    assert set(doc["sections"]) == {"outcome", "duration", "tension", "downtime", "card_power", "skill", "coverage"}


def test_every_figure_is_defined_in_the_docs() -> None:
    a = lab("classic", 60, power=10, games=3)
    names = set(figures(a)) | {"skill_gain", "ideal_duration", "ideal_duration.games", "turns_per_round.in_range"}
    kinds = set(a.kinds)
    missing = []
    for name in sorted(names):
        head, _, tail = name.partition(".")
        generic = f"{head}.KIND" if tail in kinds else re.sub(r"\+\d+$", "+K", name)
        if f"`{name}`" not in DOCS and f"`{generic}`" not in DOCS:
            missing.append(name)
    assert missing == []


def test_the_terminal_report_fits_80_columns_and_keeps_numbers_whole() -> None:
    result = run("classic", "-r", "40", "-g", "3", "--power-rounds", "5", "--train-rounds", "20", "-s", "4")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    cut = [line for line in lines if re.search(r"\(-?[\d.,]+%?[–-]-?[\d.,]+%?(?!\))(\s|$)", line)]
    assert cut == []  # no interval cut short by a column too narrow
    a = analyze("classic", players=4, agents=["greedy"], seed=4,
                budget=Budget(rounds=40, games=3, power=5, train=20))
    for f in figures(a).values():
        if f.name.startswith(("card_power.", "card_rush.")) and f.name != "card_power.spread":
            continue
        value, ci = f.text()
        assert any(value in line and ci in line for line in lines), f.name  # the number on one line


def test_compare_and_the_sequential_test_on_the_command_line(tmp_path: Path) -> None:
    classic = str(ROOT / "variants" / "classic.yaml")
    page = tmp_path / "both.html"
    result = run("classic", "-r", "400", "-s", "1", "--train-rounds", "50", "--compare", classic,
                 "--compare-option", "draw_until_playable", "--until-significant", "turns_per_round", "--delta", "5",
                 "--step", "100", "--json", "--html", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert "<h2>A vs B</h2>" in text and "Sequential test of turns_per_round" in text
    doc = json.loads(result.output)
    assert doc["sequential"]["decision"].startswith("B is higher")
    assert doc["sequential"]["steps"][-1]["rounds"] < 400  # it stopped early
    diffs = {d["figure"]: d for d in doc["comparison"]["differences"]}
    assert diffs["turns_per_round"]["significant"]
    assert diffs["turns_per_round"]["p_holm"] >= diffs["turns_per_round"]["p"]


def test_the_sprt_decides_each_way_and_the_power_formula() -> None:
    up = Sprt("x", 1.0)
    assert not up.step(10, 0.5, 1.0)
    assert up.step(100, 2.0, 0.3) and up.decision.startswith("B is higher")
    none = Sprt("x", 1.0)
    assert none.step(100, 0.0, 0.2) and none.decision.startswith("no difference")
    share = Sprt("first_seat_advantage", 0.05, percent=True)  # a share's delta reads as the figure does
    assert share.step(400, 0.2, 0.01) and share.decision == "B is higher by about 5.0% or more"
    # the textbook figure: sd 1 in each arm, a difference of 0.5, α 0.05, 80% power → 63 per arm
    assert rounds_needed(1.0, 1.0, 0.5) == 63


# -- the HTML page ---------------------------------------------------------------------

def test_the_page_escapes_text_from_the_variant(tmp_path: Path) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'classic.yaml'}\nname: \"<script>alert(1)</script> & $x$\"\n",
                    encoding="utf-8")
    out = tmp_path / "page.html"
    result = run(str(path), "-r", "20", "-g", "0", "--power-rounds", "3", "--train-rounds", "10", "--html", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; $x$" in text
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text  # nothing fetched


def test_the_paired_interval_keeps_a_width_when_no_round_changed() -> None:
    from unodsl.tools.analyze.estimates import paired
    same = paired("x", {"00": 80, "11": 20}, "")
    assert same.value == 0 and same.ci95 is not None and same.ci95[0] < -0.03 and same.ci95[1] > 0.03
    one = paired("x", {"00": 80, "11": 19, "10": 1}, "")
    assert one.ci95 is not None and one.ci95[0] < 0 < one.value < one.ci95[1]  # type: ignore[operator]
    big = paired("x", {"00": 60, "10": 30, "01": 10}, "")
    assert big.value == pytest.approx(0.2) and big.ci95 is not None and 0.05 < big.ci95[0] < 0.2 < big.ci95[1]


def test_the_evaluator_predicts_held_out_rounds_better_than_a_fair_share() -> None:
    a = lab("classic", 300)
    skill = figures(a)["evaluator.skill"]
    assert skill.ci95 is not None and skill.ci95[0] > 0
    calibration = report(a)["sections"]["tension"]["calibration"]
    for row in calibration:
        if row["positions"] > 2_000:  # where it has data, what it says happens
            assert abs(row["mean_predicted"] - row["won"]) < 0.05, row


def test_games_that_every_team_wins_together_are_ties() -> None:
    f = figures(lab("nobody_scores", 10, games=8))
    assert f["tie_rate"].value == 1 and f["completion"].value == 1
    assert figures(lab("classic", 60, power=10, games=3))["tie_rate"].value == 0



def test_a_figure_name_too_long_for_its_column_gets_a_line_of_its_own() -> None:
    # (No Mercy's kinds make names such as card_rush.wild_reverse_draw_four, in --compare)
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    for name in ("card_rush.wild_reverse_draw_four", "card_power.\x1b[2Jx"):
        console.print(_named(name, "30.0%".rjust(9)), no_wrap=True, overflow="ignore", crop=False)
    lines = out.getvalue().splitlines()
    assert lines[0] == "card_rush.wild_reverse_draw_four"
    assert lines[1] == " " * 30 + "    30.0%"
    assert lines[2].startswith("card_power.\\x1b[2Jx") and "\x1b" not in out.getvalue()


@pytest.mark.slow
def test_the_skill_ladder_climbs_and_its_report_fits_80_columns() -> None:
    args = ("duo", "-r", "10", "-g", "0", "--power-rounds", "0", "--train-rounds", "20", "--ladder",
            "--ladder-rounds", "2", "-s", "3")
    result = run(*args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80 and "\\n" not in result.output
    rungs = [line.split()[0] for line in lines if line.startswith("skill.")]
    assert any("ismcts" in name for name in rungs) and any("greedy" in name for name in rungs), rungs


# -- the verdict, and coverage that tells the agents' habits from the variant's ----------


def test_the_verdict_comes_first_and_reads_the_planted_variants() -> None:
    """Three to five sentences, first in the JSON, each read from a figure whose answer is
    planted: the first seat that plays twice has an edge, the jackpot is the strongest card,
    the rule that cannot fire was never seen even exploring."""
    extra = report(lab("first_seat_extra", 300))
    assert next(iter(extra)) == "verdict" and 3 <= len(extra["verdict"]) <= 5
    assert extra["verdict"][0].startswith("The first seat has an edge: it wins +")
    classic = report(lab("classic", 300))
    assert classic["verdict"][0].startswith("Fair between seats (first seat ")
    assert "within noise" in classic["verdict"][0]
    assert any(s.startswith("Decided ") for s in classic["verdict"])
    jackpot = report(lab("instant_win", 100, power=200))["verdict"]
    assert any(s.startswith("The Jackpot is the strongest card: playing it at once gains ") for s in jackpot)
    dead = report(lab("dead_rule", 100))["verdict"]
    assert dead[-1] == "Never seen, even with agents that try every answer: rule “a swap costs a card” (see Coverage)."


def test_coverage_tells_a_habit_of_the_agents_from_the_variant() -> None:
    """Greedy bots always call UNO, so nobody is ever caught: with them alone, Classic's
    catch rules never fire. The explorers (the same agents answering yes/no at random) do
    answer "no", so those are listed as the agents' habit; a rule that cannot fire stays
    the variant's."""
    cov = report(lab("dead_rule", 100))["sections"]["coverage"]
    assert cov["exploring"]["rounds"] == 50
    never = {r["name"]: r for r in cov["rules_never_fired"]}
    assert never["a swap costs a card"]["exploring"] == 0
    caught = "COM-2: a missed UNO can be caught until the next turn starts"
    assert never[caught]["exploring"] > 0  # greedy never let it fire; exploring did
    answers = {r["answer"]: r for r in cov["answers_never_chosen"]}
    assert answers['ask "call_uno": no']["exploring"] > 0
    from unodsl.tools.analyze.coverage import coverage_lines
    groups = dict(coverage_lines(cov, "greedy"))
    variant = next(lines for head, lines in groups.items() if head.startswith("Never, in 150 rounds, even exploring"))
    habit = groups["Never with greedy, but done exploring: a habit of the agents, not the variant's"]
    assert any("a swap costs a card" in line for line in variant)
    assert not any("a swap costs a card" in line for line in habit)
    assert any(caught in line for line in habit) and any('ask "call_uno": no' in line for line in habit)


def test_explorers_answer_yes_no_questions_at_random_and_replay_the_same() -> None:
    from unodsl.tools.analyze.watch import Explorer
    v = load_variant("classic")
    game = Game(v, 2, 1)
    ask = Decision(0, "ask", (True, False), prompt="call_uno")
    answers = [Explorer(_First(), seed).choose(game, ask) for seed in range(40)]
    assert set(answers) == {True, False}  # the wrapped agent would always say yes
    again = [Explorer(_First(), seed).choose(game, ask) for seed in range(40)]
    assert again == answers
    turn = Decision(0, "turn", tuple(Play(c) for c in game.cards[:5]))
    picks = [Explorer(_First(), seed).choose(game, turn) for seed in range(200)]
    share = sum(p != turn.options[0] for p in picks) / len(picks)
    assert 0.05 < share < 0.4  # one decision in five at random (a fifth of those the first again)


def test_the_verdict_is_printed_first_and_names_from_the_file_stay_text(tmp_path: Path) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'classic.yaml'}\nname: \"[bold]Loud[/bold] <b>x</b>\"\n"
                    "rules:\n  - name: \"[/nope] <script>x</script>\"\n    on: hands_swapped\n"
                    "    do: draw(player, 1)\n", encoding="utf-8")
    page = tmp_path / "page.html"
    result = run(str(path), "-r", "30", "-g", "0", "--power-rounds", "0", "--train-rounds", "20", "-s", "1",
                 "--html", str(page))
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # (a sentence may wrap)
    assert out.index("Verdict") < out.index("Outcome")
    assert "“[/nope] <script>x</script>”" in out and "[bold]Loud[/bold]" in out
    text = page.read_text(encoding="utf-8")
    assert text.index("Verdict") < text.index("first_seat_advantage")
    assert "<script>" not in text and "“[/nope] &lt;script&gt;x&lt;/script&gt;”" in text


# -- one vocabulary and one number format ------------------------------------------------


def test_a_target_meets_misses_or_is_unsettled_by_its_whole_interval() -> None:
    from unodsl.model import Target
    t = Target("turns_per_round", 30, 40)
    assert t.verdict((32, 38)) == "meets"
    assert t.verdict((41, 50)) == "misses" and t.verdict((20, 29.9)) == "misses"
    assert t.verdict((35, 45)) == "unsettled" and t.verdict(None) == "unsettled"
    assert Target("first_seat_advantage", max=0.02).verdict((-0.05, 0.01)) == "meets"
    assert Target("first_seat_advantage", max=0.02).verdict((0.03, 0.05)) == "misses"
    assert Target("drama", goal="highest").verdict((0.1, 0.2)) == "unsettled"  # a goal has no bound to meet


def test_design_targets_are_judged_with_the_tuners_words_everywhere(tmp_path: Path) -> None:
    path = tmp_path / "designed.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'classic.yaml'}\ndesign:\n  turns_per_round: [1, 2]\n"
                    "  first_seat_advantage: {max: 0.9}\n  drama: {goal: highest}\n", encoding="utf-8")
    page = tmp_path / "page.html"
    args = (str(path), "-r", "30", "-g", "0", "--power-rounds", "0", "--train-rounds", "20", "-s", "1")
    result = run(*args, "--html", str(page))
    assert result.exit_code == 0, result.output
    doc = json.loads(run(*args, "--json").output)
    targets = {t["figure"]: t for t in doc["targets"]}
    assert targets["turns_per_round"]["verdict"] == "misses" and targets["turns_per_round"]["target"] == "1 to 2"
    assert targets["first_seat_advantage"]["verdict"] == "meets"
    assert targets["first_seat_advantage"]["target"] == "90.0% or less"  # a share's bound as a percentage
    assert targets["drama"]["goal"] == "highest"
    assert re.findall(r"\d[–—]\d", page.read_text(encoding="utf-8") + result.output) == []  # "a to b" here too
    assert doc["verdict"][0].startswith("Meets 1 of 2 design targets: turns_per_round misses 1 to 2: ")
    out = result.output
    assert "Design targets" in out and "    misses 1 to 2" in out and "    meets 90.0% or less" in out
    assert "    goal: as high as possible" in out
    html_text = page.read_text(encoding="utf-8")
    assert "<td class=misses>misses</td>" in html_text and "<td class=meets>meets</td>" in html_text
    words = {"met", "missed", "open"}
    assert not words & set(re.findall(r"[a-z]+", " ".join(t["verdict"] for t in doc["targets"])))


def test_every_interval_reads_a_to_b_and_every_share_as_a_percentage(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    args = ("classic", "-r", "40", "-g", "3", "--power-rounds", "5", "--train-rounds", "20", "-s", "4")
    result = run(*args, "--html", str(page))
    assert result.exit_code == 0, result.output
    html_text = re.sub(r"<svg.*?</svg>", "", page.read_text(encoding="utf-8"), flags=re.S)
    for text in (result.output, html_text):
        assert re.findall(r"\d[–—]\d", text) == []  # no "3.30–4.22": an interval reads "a to b"
        assert re.findall(r"\(\d+\.\d+-", text) == []
    doc = json.loads(run(*args, "--json").output)
    shares = [f for f in doc["figures"].values() if f["percent"] and f["value"] is not None]
    assert len(shares) > 10
    for f in shares:
        assert f["shown"].split(" ")[0].endswith("%")
        assert f["ci95"] is None or re.fullmatch(r"-?[\d.]+% \(-?[\d.]+% to -?[\d.]+%\)", f["shown"])
