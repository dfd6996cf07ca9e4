"""`unodsl simulate` and unodsl.tools.simulate: batches of games, streaming figures, comparisons."""

from __future__ import annotations

import importlib
import json
import math
import pickle
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from unodsl.cli import main
from unodsl.engine.game import Game
from unodsl.players.bots import make_agents
from unodsl.tools import plots
from unodsl.tools import simulate as simulate_module
from unodsl.tools.comparison import compare
from unodsl.tools.plots import PlotUnavailable
from unodsl.tools.seating import game_seed, seating, table
from unodsl.tools.simulate import simulate
from unodsl.tools.simulation import Simulation
from unodsl.tools.stats import (
    betainc,
    chi2_sf,
    chi_square,
    mann_whitney,
    t_quantile,
    t_sf2,
    two_proportions,
    welch,
    wilson,
)
from unodsl.variant.load import load_variant

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "variants" / "classic.yaml"


def fixed(sim: Simulation) -> dict[str, Any]:
    """The figures without the timing (the only part that may change between runs)."""
    figures = sim.figures()
    del figures["timing"]
    return figures


def greedy(count: int, *, players: int = 2, seed: int = 5, variant: str | Path = CLASSIC,
           **kw: Any) -> Simulation:
    return simulate(variant, count, players=players, agents=["greedy"], seed=seed, **kw)


# -- seeds and workers ---------------------------------------------------------------


def test_game_seeds_are_stable_across_runs_and_distinct() -> None:
    # A SHA-256 of (seed, index), so these numbers never change between Python runs.
    assert game_seed(0, 0) == game_seed(0, 0) == 0xC78C30DB906D
    assert len({game_seed(s, i) for s in range(5) for i in range(50)}) == 250


def test_the_same_figures_for_one_and_two_workers() -> None:
    one = greedy(14, workers=1)
    two = greedy(14, workers=2)
    assert one.workers == 1 and two.workers == 2
    assert one.tally == two.tally
    assert fixed(one) == fixed(two)
    assert one.tally.completed == 14 and sum(one.tally.game_wins) == 14


def test_a_run_is_reproducible_and_depends_on_the_seed() -> None:
    assert fixed(greedy(6)) == fixed(greedy(6))
    assert greedy(6).tally != greedy(6, seed=6).tally


def test_single_rounds_mode_counts_rounds_not_games() -> None:
    sim = greedy(20, rounds_only=True, players=3)
    f = sim.figures()
    assert f["mode"] == "rounds" and f["rounds"]["completed"] == 20
    assert f["rounds_per_game"] is None and "game_by_seat" not in f["wins"]
    assert sum(r["count"] for r in f["wins"]["round_by_seat"]) == 20
    assert sum(r["count"] for r in f["wins"]["round_by_seat_from_dealer"]) == 20


def test_memory_stays_flat_the_tally_is_counters_only() -> None:
    small, large = greedy(15, rounds_only=True), greedy(60, rounds_only=True)
    assert large.tally.rounds == 4 * small.tally.rounds
    # histograms of small integers, not lists of games: four times the games, far less than four times the bytes
    assert len(pickle.dumps(large.tally)) < 2 * len(pickle.dumps(small.tally))


# -- the figures -------------------------------------------------------------------------


def test_figures_add_up() -> None:
    sim = simulate(CLASSIC, 10, players=3, agents=["greedy", "random"], seed=2)
    f = sim.figures()
    assert f["agents"] == ["greedy", "greedy", "random"] and f["seating"] == "rotating"
    rounds = f["rounds"]["completed"]
    assert rounds == sum(v * c for v, c in sim.tally.rounds_per_game.items())
    assert f["rounds_per_game"]["n"] == 10
    assert f["turns_per_round"]["n"] == rounds == sum(c for _, c in f["turns_per_round"]["histogram"])
    assert sum(r["count"] for r in f["wins"]["game_by_seat"]) == 10
    assert sum(r["count"] for r in f["wins"]["game_by_seat_from_first_dealer"]) == 10
    by_agent = {a["agent"]: a for a in f["wins"]["by_agent"]}
    assert by_agent["greedy"]["seats"] == 2 and by_agent["random"]["seats"] == 1
    assert by_agent["greedy"]["games"]["count"] + by_agent["random"]["games"]["count"] == 10
    kinds = f["cards_played"]["by_kind"]
    assert set(kinds) <= {"number", "skip", "reverse", "draw_two", "wild", "wild_draw_four"}
    assert sum(k["count"] for k in kinds.values()) == f["cards_played"]["total"] > 0
    turns = f["turns_per_round"]
    assert turns["min"] <= turns["median"] <= turns["p95"] <= turns["max"]
    assert turns["ci95"][0] < turns["mean"] < turns["ci95"][1]
    for row in f["wins"]["round_by_seat"]:
        assert row["ci95"][0] <= row["rate"] <= row["ci95"][1]


def test_a_runaway_round_is_counted_and_the_run_goes_on() -> None:
    # Greedy Classic rounds last about 50 turns: a guard of 30 stops many, not all.
    sim = greedy(30, rounds_only=True, max_turns=30)
    t = sim.tally
    assert 0 < t.runaway < 30
    assert t.runaway + t.rounds == 30 == t.games
    assert max(t.turns_per_round) <= 30
    f = sim.figures()
    assert f["rounds"]["runaway"]["count"] == t.runaway
    # whole games: the game with the runaway round is abandoned, the next one is played
    games = greedy(4, max_turns=30)
    assert games.tally.runaway == 4 and games.tally.completed == 0 and games.tally.rounds > 0
    assert games.figures()["rounds_per_game"] is None


def test_the_cli_reports_runaway_rounds_without_crashing() -> None:
    result = CliRunner().invoke(main, ["simulate", str(CLASSIC), "--rounds", "6", "-a", "greedy", "-s", "1",
                                       "--max-turns", "5"])
    assert result.exit_code == 0, result.output
    assert "runaway rounds (over 5 turns): 6" in result.output


# -- comparisons ----------------------------------------------------------------------


def test_compare_finds_no_difference_between_a_variant_and_itself() -> None:
    a, b = greedy(12), greedy(12)
    result = compare(a, b)
    assert result.significant == []
    assert all(t.p in (None, 1.0) for t in result.tests)
    # nor between two independent samples of the same variant (different master seeds)
    other = compare(greedy(12, seed=1), greedy(12, seed=2))
    assert other.significant == []


def test_compare_detects_a_lower_target_score() -> None:
    result = compare(greedy(12), greedy(12, options={"target": 60}))
    found = {t.metric: t for t in result.significant}
    assert "rounds per game (mean)" in found
    assert found["rounds per game (mean)"].test == "Welch's t-test"
    assert found["rounds per game (mean)"].a > found["rounds per game (mean)"].b  # type: ignore[operator]
    # a round is a round: the rules did not change, so turns per round stay alike
    assert "turns per round (distribution)" not in found


def test_compare_detects_longer_rounds_with_an_option() -> None:
    a = greedy(100, rounds_only=True, players=3)
    b = greedy(100, rounds_only=True, players=3, options={"draw_until_playable": True})
    assert b.label == "UNO Classic + draw_until_playable"
    found = {t.metric: t for t in compare(a, b).significant}
    assert found["turns per round (distribution)"].test == "Mann–Whitney U test"
    assert "turns per round (mean)" in found


# -- seating: the table turns one seat per game ---------------------------------------


def seat_counts(seatings: list[list[str]]) -> Counter[tuple[int, str]]:
    """How many games each (seat, agent) pair was seated."""
    return Counter((p, name) for seats in seatings for p, name in enumerate(seats))


@pytest.mark.parametrize(("agents", "players"), [
    (["greedy", "random"], 4), (["greedy", "random"], 3), (["greedy", "random"], 5),
    (["greedy", "greedy", "random"], 4), (["a", "b", "c"], 3), (["a", "b", "c"], 2), (["random"], 3)])
def test_rotation_gives_every_agent_every_seat_equally_often(agents: list[str], players: int) -> None:
    seats = table(agents, players)
    assert sorted(seats) == sorted(agents[p % len(agents)] for p in range(players))  # the same table, turned
    cycles = 3
    games = [seating(agents, players, i) for i in range(cycles * players)]
    assert all(sorted(g) == sorted(seats) for g in games)  # every game seats the same agents
    # over a whole number of turns of the table, an agent with m of the n places holds every seat m times a turn
    assert seat_counts(games) == Counter({(p, name): cycles * seats.count(name)
                                          for p in range(players) for name in seats})
    # fixed seats: the cycled list, in every game
    assert all(seating(agents, players, i, fixed_seats=True) == [agents[p % len(agents)] for p in range(players)]
               for i in range(5))


@pytest.fixture
def seatings(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The seating of every game simulate plays, in order (make_agents spied on)."""
    seen: list[list[str]] = []

    def spy(names: list[str], players: int, seed: int = 0) -> Any:
        seen.append(list(names))
        return make_agents(names, players, seed)

    monkeypatch.setattr(simulate_module, "make_agents", spy)
    return seen


def test_a_run_seats_the_agents_as_seating_says(seatings: list[list[str]]) -> None:
    simulate(CLASSIC, 6, players=3, agents=["greedy", "random"], seed=1)
    assert seatings == [seating(["greedy", "random"], 3, i) for i in range(6)]
    shares = (("greedy", 4), ("random", 2))
    assert seat_counts(seatings) == Counter({(p, name): n for p in range(3) for name, n in shares})
    seatings.clear()
    simulate(CLASSIC, 4, players=3, agents=["greedy", "random"], seed=1, fixed_seats=True)
    assert seatings == [["greedy", "random", "greedy"]] * 4


def test_with_rotation_the_order_of_the_agents_does_not_matter() -> None:
    # Lists that fill the table with the same cyclic order seat the same table (its smallest
    # rotation) turned the same way in game i: the runs are the very same games, so an agent's
    # figures are exactly equal. With fixed seats they are not: the seats differ, so do the games.
    def by_agent(sim: Simulation) -> dict[str, Any]:
        return {row["agent"]: row for row in sim.figures()["wins"]["by_agent"]}

    for players, orders in ((2, [["greedy", "random"], ["random", "greedy"]]),
                            (4, [["greedy", "random"], ["random", "greedy"]]),
                            (3, [["greedy", "greedy", "random"], ["random", "greedy", "greedy"],
                                 ["greedy", "random", "greedy"]])):
        runs = [simulate(CLASSIC, 12, players=players, agents=agents, seed=3) for agents in orders]
        assert all(by_agent(run) == by_agent(runs[0]) for run in runs)
        assert all(run.tally == runs[0].tally for run in runs)
        strong = by_agent(runs[0])["greedy"]
        assert strong["games"]["rate"] > strong["fair_share"]  # greedy does beat random
        fixed_runs = [simulate(CLASSIC, 12, players=players, agents=agents, seed=3, fixed_seats=True)
                      for agents in orders]
        assert any(by_agent(run) != by_agent(fixed_runs[0]) for run in fixed_runs)


def test_rotation_gives_the_same_figures_for_one_and_two_workers() -> None:
    kw: dict[str, Any] = {"players": 3, "agents": ["greedy", "random"], "seed": 5}
    one, two = simulate(CLASSIC, 14, workers=1, **kw), simulate(CLASSIC, 14, workers=2, **kw)
    assert one.tally == two.tally and fixed(one) == fixed(two)
    assert sum(one.tally.agent_game_wins.values()) == one.tally.completed == 14
    assert sum(one.tally.agent_round_wins.values()) == one.tally.rounds


def replay(agents: list[str], players: int, count: int, seed: int,
           seats_of: Callable[[int], list[str]]) -> dict[str, Any]:
    """Play a run's games one by one, seating game i as `seats_of(i)`, and count the wins."""
    variant = load_variant(CLASSIC)
    wins: dict[str, Any] = {"game": [0] * players, "round": [0] * players,
                            "agent_game": Counter(), "agent_round": Counter()}
    for i in range(count):
        seats = seats_of(i)

        def on_round_end(game: Game, name: str, data: dict[str, Any], seats: list[str] = seats) -> None:
            if name == "round_end":  # listeners hear every event the game builds
                wins["round"][data["player"]] += 1
                wins["agent_round"][seats[data["player"]]] += 1

        game = Game(variant, players, game_seed(seed, i), listeners=[on_round_end], listen_to=("round_end",))
        game.autoplay(make_agents(seats, players, game_seed(seed, i)))  # the bots' seed: the game's
        assert game.winner is not None
        wins["game"][game.winner] += 1
        wins["agent_game"][seats[game.winner]] += 1
    return wins


def test_fixed_seats_reproduce_the_old_figures() -> None:
    # The old way, replayed game by game: seat p holds agents[p % len(agents)] in every game.
    agents, players, count, seed = ["greedy", "random"], 3, 8, 4
    old = replay(agents, players, count, seed, lambda i: [agents[p % len(agents)] for p in range(players)])
    f = simulate(CLASSIC, count, players=players, agents=agents, seed=seed, fixed_seats=True).figures()
    assert f["seating"] == "fixed" and f["agents"] == ["greedy", "random", "greedy"]
    assert [r["count"] for r in f["wins"]["game_by_seat"]] == old["game"]
    assert [r["count"] for r in f["wins"]["round_by_seat"]] == old["round"]
    assert [r["agent"] for r in f["wins"]["game_by_seat"]] == ["greedy", "random", "greedy"]
    rows = {row["agent"]: row for row in f["wins"]["by_agent"]}
    assert rows["greedy"]["seats"] == 2 and rows["greedy"]["fair_share"] == pytest.approx(2 / 3, abs=1e-6)
    assert rows["greedy"]["games"]["count"] == old["game"][0] + old["game"][2]  # the old per-agent sum over seats
    assert rows["random"]["rounds"]["count"] == old["round"][1]


def test_with_rotation_wins_by_agent_are_tallied_from_who_sat_where() -> None:
    agents, players, count, seed = ["greedy", "random"], 3, 8, 4
    turned = replay(agents, players, count, seed, lambda i: seating(agents, players, i))
    f = simulate(CLASSIC, count, players=players, agents=agents, seed=seed).figures()
    assert [r["count"] for r in f["wins"]["game_by_seat"]] == turned["game"]
    assert [r["count"] for r in f["wins"]["round_by_seat"]] == turned["round"]
    assert all(r["agent"] is None for r in f["wins"]["round_by_seat"])  # no seat has an agent of its own
    rows = {row["agent"]: row for row in f["wins"]["by_agent"]}
    assert Counter({name: row["games"]["count"] for name, row in rows.items()}) == turned["agent_game"]
    assert Counter({name: row["rounds"]["count"] for name, row in rows.items()}) == turned["agent_round"]
    assert rows["random"]["rounds"]["count"] > 0  # so that who won a round matters
    assert rows["greedy"]["seats"] == 2 and rows["random"]["fair_share"] == pytest.approx(1 / 3, abs=1e-6)
    # the same seeds seated otherwise: other games
    fixed_run = simulate(CLASSIC, count, players=players, agents=agents, seed=seed, fixed_seats=True).figures()
    assert fixed_run["wins"]["round_by_seat"] != f["wins"]["round_by_seat"]


def test_compare_plays_the_same_seatings_and_tests_each_agent(seatings: list[list[str]]) -> None:
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "5", "-p", "3", "-s", "2", "--json",
                                       "--compare", "classic", "--compare-option", "draw_until_playable"])
    assert result.exit_code == 0, result.output
    assert seatings[:5] == seatings[5:] == [seating(["greedy", "random"], 3, i) for i in range(5)]
    out = json.loads(result.output)
    assert out["a"]["seating"] == out["b"]["seating"] == "rotating"
    metrics = {t["metric"] for t in out["comparison"]["tests"]}
    assert {"greedy wins (games)", "random wins (games)"} <= metrics


def test_the_cli_fixed_seats_flag() -> None:
    args = ["simulate", str(CLASSIC), "-n", "4", "-p", "3", "-s", "4"]
    fixed_run = CliRunner().invoke(main, [*args, "--fixed-seats", "--json"])
    assert fixed_run.exit_code == 0, fixed_run.output
    f = json.loads(fixed_run.output)
    del f["timing"]
    expected = fixed(simulate(CLASSIC, 4, players=3, agents=["greedy", "random"], seed=4, fixed_seats=True))
    assert f == json.loads(json.dumps(expected))
    text = CliRunner().invoke(main, [*args, "--fixed-seats"]).output
    assert "P1 greedy, P2 random, P3 greedy; fixed seats" in text and "Wins by seat (95% CI), fixed seats" in text
    text = CliRunner().invoke(main, args).output
    assert "greedy, greedy, random; seats rotate each game" in text
    assert "Wins by agent (95% CI), seats rotating" in text and "2 of 3 (66.7%)" in text


# -- the statistics against reference values (computed with scipy 1.17) -------------


def test_distribution_functions_match_reference_values() -> None:
    assert betainc(0.5, 0.5, 0.3) == pytest.approx(0.36901011956554536, rel=1e-12)
    assert betainc(3, 7, 0.2) == pytest.approx(0.26180249600000016, rel=1e-12)
    assert t_sf2(2.0, 3) == pytest.approx(0.13932596855884305, rel=1e-10)
    assert t_sf2(1.0, 10.5) == pytest.approx(0.33979839253914185, rel=1e-10)
    assert t_sf2(3.0, 1e6) == pytest.approx(0.0026998625414218, rel=1e-6)
    assert t_quantile(0.975, 4) == pytest.approx(2.7764451051977934, rel=1e-9)
    assert t_quantile(0.975, 30) == pytest.approx(2.0422724563012378, rel=1e-9)
    assert chi2_sf(10, 3) == pytest.approx(0.01856613546304325, rel=1e-10)
    assert chi2_sf(200, 150) == pytest.approx(0.003973185970821635, rel=1e-9)
    assert wilson(30, 100) == pytest.approx((0.21894885294932764, 0.39584854633346667), rel=1e-12)


def test_tests_match_reference_values() -> None:
    stat, df, p = chi_square([30, 20, 25, 25], [20, 30, 28, 22])
    assert (stat, df, p) == (pytest.approx(4.361300682456845), 3, pytest.approx(0.22500064989182095))
    a = Counter({1: 3, 2: 5, 3: 2, 7: 1})
    b = Counter({2: 1, 3: 4, 5: 3, 9: 2})
    # scipy.stats.mannwhitneyu(A, B, method="asymptotic", use_continuity=True)
    u, _, p = mann_whitney(a, b)
    assert u == 16.5 and p == pytest.approx(0.006009312476297679, rel=1e-9)
    # scipy.stats.ttest_ind_from_stats(1.0, 2.0, 30, 2.5, 1.0, 20, equal_var=False)
    t, _, p = welch(1.0, 4.0, 30, 2.5, 1.0, 20)
    assert t == pytest.approx(-3.503245248726853, rel=1e-9) and p == pytest.approx(0.001049088231382232, rel=1e-9)
    z, p = two_proportions(45, 100, 30, 100)
    assert z == pytest.approx(2.1908902300206647, rel=1e-9) and p == pytest.approx(0.02845973691631055, rel=1e-9)
    assert mann_whitney(a, a)[2] == 1.0 and two_proportions(0, 10, 0, 10) == (0.0, 1.0)
    assert math.isnan(welch(1.0, 0.0, 1, 1.0, 0.0, 1)[2])


# -- the command --------------------------------------------------------------------


def test_json_output_shape() -> None:
    result = CliRunner().invoke(main, ["simulate", str(CLASSIC), "-n", "3", "-a", "greedy", "-p", "2", "-s", "4",
                                       "--json"])
    assert result.exit_code == 0, result.output
    f = json.loads(result.output)
    assert {"variant", "mode", "count", "players", "agents", "seating", "seed", "max_turns", "games", "rounds",
            "rounds_per_game", "turns_per_round", "points_per_round", "reshuffles_per_round",
            "rounds_with_reshuffle", "wins", "cards_played", "timing"} <= set(f)
    assert f["mode"] == "games" and f["count"] == 3 and f["seed"] == 4 and f["games"]["completed"] == 3
    for key in ("mean", "ci95", "median", "median_ci95", "p95", "max", "histogram"):
        assert key in f["turns_per_round"]
    assert set(f["wins"]) == {"game_by_seat", "game_by_seat_from_first_dealer", "round_by_seat",
                              "round_by_seat_from_dealer", "by_agent"}
    assert {"seat", "label", "agent", "count", "n", "rate", "ci95"} <= set(f["wins"]["game_by_seat"][0])
    # the same figures as the library gives
    expected = fixed(greedy(3, seed=4))
    del f["timing"]
    assert f == json.loads(json.dumps(expected))


def test_json_compare_shape() -> None:
    result = CliRunner().invoke(main, ["simulate", "classic", "--rounds", "8", "-a", "greedy", "-p", "3", "-s", "4",
                                       "--compare", "classic", "--compare-option", "draw_until_playable", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert set(out) == {"a", "b", "comparison"}
    assert out["b"]["variant"]["options"] == ["draw_until_playable"] and out["a"]["variant"]["options"] == []
    tests = out["comparison"]["tests"]
    assert {"metric", "test", "a", "b", "statistic", "p", "p_holm", "significant", "note"} == set(tests[0])
    assert {"Welch's t-test", "Mann–Whitney U test", "chi-square test of homogeneity",
            "two-proportion z-test"} <= {t["test"] for t in tests}


def test_text_report_names_the_tests() -> None:
    result = CliRunner().invoke(main, ["simulate", "classic", "--rounds", "8", "-a", "greedy,random", "-s", "4",
                                       "--compare", "classic"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("turns per round", "Wins by seat", "dealer+1", "Wins by agent", "Cards played by kind",
                 "Mann–Whitney U test", "Welch's t-test", "Holm", "No significant difference"):
        assert text in out, text


def test_usage_errors() -> None:
    runner = CliRunner()
    both = runner.invoke(main, ["simulate", "classic", "-n", "2", "--rounds", "2"])
    assert both.exit_code == 2 and "not both" in both.output
    players = runner.invoke(main, ["simulate", "classic", "-n", "2", "-p", "11"])
    assert players.exit_code == 2 and "2–10 players" in players.output
    unknown = runner.invoke(main, ["simulate", "classic", "-n", "2", "-a", "greedyy"])
    assert unknown.exit_code == 2 and "did you mean" in unknown.output
    missing = runner.invoke(main, ["simulate", "no_such_variant", "-n", "2"])
    assert missing.exit_code == 1


# -- charts ---------------------------------------------------------------------------


def test_plot_writes_pngs(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    a, b = greedy(3), greedy(3, options={"draw_until_playable": True})
    paths = plots.plot([a.figures(), b.figures()], tmp_path, [a.label, b.label])
    assert [p.name for p in paths] == ["turns_per_round.png", "seat_win_rates.png"]
    for p in paths:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "2", "-a", "greedy", "-p", "2", "-s", "1",
                                       "--plot", str(tmp_path / "one")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "one" / "seat_win_rates.png").exists()


def test_plot_without_matplotlib_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = importlib.import_module

    def no_matplotlib(name: str, *args: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr(plots.importlib, "import_module", no_matplotlib)
    with pytest.raises(PlotUnavailable, match="pip install matplotlib"):
        plots.check_plot()
    result = CliRunner().invoke(main, ["simulate", "classic", "-n", "2", "--plot", str(tmp_path)])
    assert result.exit_code == 1 and "pip install matplotlib" in result.output


# -- games that fail ------------------------------------------------------------------

# A skip card played from a short hand fails (a division by zero): some rounds end
# normally, others stop with a runtime error.
FAULTY_SKIP = ("on_play: skip()                            # CL-9",
               "on_play: if count(hand) < 3 then skip(1 / (count(hand) - count(hand))) else skip()")


def faulty(tmp_path: Path) -> Path:
    from tests.helpers import classic_with
    return classic_with(tmp_path, *FAULTY_SKIP)


def test_a_failing_game_is_counted_and_the_run_goes_on(tmp_path: Path) -> None:
    sim = greedy(12, variant=faulty(tmp_path), rounds_only=True)
    t = sim.tally
    assert 0 < t.failed < 12, t.failed
    assert t.games == 12 and t.completed + t.failed + t.runaway == 12
    assert t.rounds == t.completed  # the figures are those of the rounds that ended
    first = t.failures[0]
    assert "runtime error: division by zero" in first.error
    assert first.seed == game_seed(5, first.index)
    assert first.replay.startswith(f"unodsl run {sim.setup.variant} --seed {first.seed} -p 2 -a ")
    f = sim.figures()
    assert f["failures"]["count"] == t.failed and not f["failures"]["stopped_early"]
    assert f["failures"]["games"][0] == first.as_dict()


def test_failures_are_the_same_with_two_workers(tmp_path: Path) -> None:
    one = greedy(8, variant=faulty(tmp_path))
    two = greedy(8, variant=faulty(tmp_path), workers=2)  # worker processes do not die either
    assert one.tally.failed > 0
    assert fixed(one)["failures"] == fixed(two)["failures"]


def test_max_failures_stops_the_run_early(tmp_path: Path) -> None:
    sim = greedy(40, variant=faulty(tmp_path), max_failures=2)
    assert sim.tally.failed == 2 and sim.tally.games < 40 and sim.stopped_early
    assert sim.figures()["failures"]["stopped_early"]


def test_the_cli_reports_failed_games_with_a_replay_and_exits_1(tmp_path: Path) -> None:
    path = faulty(tmp_path)
    result = CliRunner().invoke(main, ["simulate", str(path), "-n", "10", "-p", "2", "-a", "greedy", "-s", "5"])
    assert result.exit_code == 1, result.output
    assert "game(s) failed" in result.output and "replay: unodsl run" in result.output
    assert "Lengths and points" in result.output  # the figures of the rest are still printed
    as_json = CliRunner().invoke(main, ["simulate", str(path), "-n", "10", "-p", "2", "-a", "greedy", "-s", "5",
                                        "--json", "--max-failures", "1"])
    assert as_json.exit_code == 1
    data = json.loads(as_json.output)
    assert data["failures"]["count"] == 1 and data["failures"]["stopped_early"]
    assert data["failures"]["games"][0]["replay"].startswith("unodsl run ")
