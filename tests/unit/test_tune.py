"""The tuner (issue 29): a planted answer found, a front for conflicting targets, the same
result with any number of workers and on a cluster, a run resumed, bad input refused
with nothing written, candidate overlays that load by themselves, and the report page."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.helpers import ROOT
from unodsl.cli import main
from unodsl.model import Target
from unodsl.tools.analyze import Budget, analyze, figures
from unodsl.tools.tune import Effort, Tuned, TuneError, tune
from unodsl.tools.tune.evaluate import judge
from unodsl.tools.tune.space import base, overlay
from unodsl.variant.design import figure_pass
from unodsl.variant.load import load_variant, validate_file

pytest.importorskip("optuna", reason="optuna is not installed (the [tune] extra)")

PLANTED = ROOT / "tests" / "tune_variants" / "planted_hand_size.yaml"
SMALL = Effort(step=100, most=300, train=20)
CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")


def planted(tmp_path: Path, design: str | None = None) -> Path:
    """The planted variant in tmp_path (so an overlay can be written next to it), its design: replaced if given."""
    text = PLANTED.read_text(encoding="utf-8")
    if design is not None:
        text = text[: text.index("design:")] + design
    path = tmp_path / "planted.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def trials(t: Tuned) -> list[tuple[Any, ...]]:
    return [(r.number, r.values, r.state, json.dumps(r.result, sort_keys=True)) for r in t.trials]


def test_tune_finds_the_planted_deal_size_and_its_overlay_meets_the_target_on_fresh_seeds(tmp_path: Path) -> None:
    path = planted(tmp_path)
    out = tmp_path / "planted.tuned.yaml"
    t = tune(path, trials=8, players=2, seed=1, effort=SMALL, storage=tmp_path / "s.db", output=out)
    assert t.sampler == "TPE"
    assert t.winner is not None and t.winner.values["hand_size"] in (8, 9), trials(t)
    assert t.winner.met == 1  # its whole interval inside 15–19
    text = out.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    deal = t.winner.values["hand_size"]
    assert lines == ["extends: planted.yaml", "options:", "  hand_size:", f"    default: {deal}"]
    assert [d for d in validate_file(out) if d.severity == "error"] == []
    fresh = analyze(out, players=2, seed=12345, budget=Budget(rounds=400, games=0, power=0, train=20))
    median = figures(fresh)["turns_per_round.median"]
    assert median.value is not None and 15 <= median.value <= 19
    assert t.check is not None and t.check["met_by_value"] == 1


def test_two_conflicting_targets_give_a_front_of_more_than_one_candidate(tmp_path: Path) -> None:
    path = planted(tmp_path, "design:\n  turns_per_round: {median: {max: 10}, p95: {min: 30}}\n"
                   "  vary:\n    hand_size: true\n")
    t = tune(path, trials=10, players=2, seed=2, effort=SMALL, storage=tmp_path / "s.db", check=False)
    assert t.sampler == "NSGA-II"
    distinct = {tuple(r.values.items()) for r in t.front}
    assert len(distinct) > 1, trials(t)


def test_the_same_seed_gives_the_same_search_with_one_or_two_workers(tmp_path: Path) -> None:
    path = planted(tmp_path)
    effort = Effort(step=50, most=100, train=10)
    one = tune(path, trials=4, players=2, seed=3, effort=effort, storage=tmp_path / "one.db", check=False)
    two = tune(path, trials=4, players=2, seed=3, effort=effort, storage=tmp_path / "two.db", check=False, workers=2)
    assert trials(one) == trials(two)
    assert one.winner is not None and two.winner is not None and one.winner.values == two.winner.values


def test_the_same_seed_gives_the_same_search_on_a_local_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="dask.distributed is not installed (the [cluster] extra)")
    path = planted(tmp_path)
    effort = Effort(step=50, most=100, train=10)
    here = tune(path, trials=3, players=2, seed=4, effort=effort, storage=tmp_path / "here.db", check=False)
    there = tune(path, trials=3, players=2, seed=4, effort=effort, storage=tmp_path / "there.db", check=False,
                 cluster="local", workers=2)
    assert trials(here) == trials(there)


def test_a_run_resumed_from_its_storage_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    path = planted(tmp_path)
    effort = Effort(step=50, most=100, train=10)
    whole = tune(path, trials=5, players=2, seed=5, effort=effort, storage=tmp_path / "whole.db", check=False)
    tune(path, trials=2, players=2, seed=5, effort=effort, storage=tmp_path / "parts.db", check=False)
    resumed = tune(path, trials=5, players=2, seed=5, effort=effort, storage=tmp_path / "parts.db", check=False)
    assert resumed.resumed == 2
    assert trials(resumed) == trials(whole)


def test_an_empty_space_or_no_targets_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    one = planted(tmp_path, "design:\n  turns_per_round: {median: [15, 19]}\n  vary:\n    hand_size: [7, 7]\n")
    with pytest.raises(TuneError, match="one candidate"):
        tune(one, trials=2, players=2, storage=tmp_path / "s.db", output=tmp_path / "out.yaml")
    none = planted(tmp_path, "design:\n  vary:\n    hand_size: true\n")
    with pytest.raises(TuneError, match="no targets"):
        tune(none, trials=2, players=2, storage=tmp_path / "s.db", output=tmp_path / "out.yaml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["planted.yaml"]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["tune", *args])


@pytest.mark.parametrize(("design", "message"), [
    ("design:\n  turn_per_round: {median: [15, 19]}\n  vary:\n    hand_size: true\n",
     r"planted\.yaml:\d+:\d+: error: design: no figure named 'turn_per_round\.median'\n"
     r"  hint: did you mean 'turns_per_round\.median'\?"),
    ("design:\n  turns_per_round: {median: {min: 19, max: 15}}\n  vary:\n    hand_size: true\n",
     r"planted\.yaml:\d+:\d+: error: design: turns_per_round\.median has min 19 above max 15"),
    ("design:\n  turns_per_round: {median: [15, 19]}\n  vary:\n    hand_sise: true\n",
     r"planted\.yaml:\d+:5: error: design: vary: 'hand_sise' is not an option of this variant\n"
     r"  hint: did you mean 'hand_size'\?"),
    ("design:\n  turns_per_round: {median: [15, 19]}\n  vary: {}\n",
     r"planted\.yaml:\d+:3: error: design: vary: names nothing that may change"),
])
def test_bad_input_is_a_positioned_error_and_nothing_is_written(tmp_path: Path, design: str, message: str) -> None:
    path = planted(tmp_path, design)
    result = run(str(path), "-p", "2", "-n", "2", "--storage", str(tmp_path / "s.db"))
    assert result.exit_code == 1
    assert re.search(message, result.output), result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["planted.yaml"]


def test_an_undeclared_vary_on_the_command_line_is_refused(tmp_path: Path) -> None:
    path = planted(tmp_path)
    result = run(str(path), "-p", "2", "-n", "2", "--vary", "colours=1..3", "--storage", str(tmp_path / "s.db"))
    assert result.exit_code == 1
    assert "--vary: design: vary: 'colours' is not an option of this variant" in result.output
    result = run(str(path), "-p", "2", "-n", "2", "--vary", "hand_size=1..3", "--storage", str(tmp_path / "s.db"))
    assert result.exit_code == 1 and "outside option 'hand_size''s range 3–12" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["planted.yaml"]


def test_an_output_the_overlay_could_not_extend_from_is_refused_first(tmp_path: Path) -> None:
    path = planted(tmp_path)
    elsewhere = tmp_path / "sub"
    elsewhere.mkdir()
    result = run(str(path), "-p", "2", "-n", "2", "--storage", str(tmp_path / "s.db"), "--output",
                 str(elsewhere / "x.yaml"))
    assert result.exit_code == 1 and "must be in its folder or below it" in result.output
    assert not (tmp_path / "s.db").exists() and not (elsewhere / "x.yaml").exists()


def test_a_count_overlay_rewrites_the_deck_and_its_size_and_loads_by_itself(tmp_path: Path) -> None:
    classic = load_variant("classic")
    (tmp_path / "t.yaml").write_text("extends: classic\ndesign:\n  first_seat_advantage: {max: 0.02}\n  vary:\n"
                                     "    count.draw_two: [0, 4]\n    hand_size: [5, 9]\n", encoding="utf-8")
    v = load_variant(tmp_path / "t.yaml")
    b = base(tmp_path / "t.yaml", v)
    for copies in (0, 1, 4):
        text = overlay(b, v.vary, {"count.draw_two": copies, "hand_size": 6}, {}, tmp_path)
        out = tmp_path / f"c{copies}.yaml"
        out.write_text(text, encoding="utf-8")
        loaded = load_variant(out)
        assert loaded.deck_size == 108 + (copies - 2) * 4
        assert sum(f.kind == "draw_two" for f in loaded.sides[0].faces) == 4 * copies
        assert sum(f.kind == "skip" for f in loaded.sides[0].faces) == 8  # its old group partner keeps its count
        assert [o.value for o in loaded.options if o.name == "hand_size"] == [6]
    assert classic.deck_size == 108


def test_every_figure_the_lab_computes_is_in_the_design_catalogue() -> None:
    a = analyze("classic", players=3, agents=["greedy", "random"], seed=1,
                budget=Budget(rounds=20, games=2, power=4, train=10))
    names = list(figures(a))
    assert "card_power.draw_two" in names and "rounds_per_game" in names
    assert [n for n in names if figure_pass(n, a.kinds, 10) is None] == []
    assert figure_pass("card_power.nope", a.kinds) is None and figure_pass("turns_per_round.p99") is None


def test_a_bound_is_settled_only_when_its_whole_interval_is_on_one_side() -> None:
    from unodsl.tools.analyze.estimates import Figure

    t = Target("x", 10.0, 20.0)
    assert judge(t, Figure("x", 15.0, (12.0, 18.0), 100, "")).verdict == "met"
    assert judge(t, Figure("x", 15.0, (8.0, 18.0), 100, "")).verdict == "open"
    assert judge(t, Figure("x", 25.0, (21.0, 29.0), 100, "")).verdict == "missed"
    assert judge(t, Figure("x", 15.0, (12.0, 18.0), 100, "")).objective == -5.0  # 5 inside the nearer end
    assert judge(Target("x", goal="highest"), Figure("x", 3.0, (2.0, 4.0), 9, "")).objective == -3.0


def test_the_report_page_escapes_and_opens_in_headless_chromium(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = planted(tmp_path, "name: \"<script>alert(1)</script>\"\ndesign:\n  turns_per_round: {median: {max: 10}, "
                   "p95: {min: 30}}\n  vary:\n    hand_size: true\n")
    path.write_text(path.read_text(encoding="utf-8").replace("name: Planted deal size\n", ""), encoding="utf-8")
    page = tmp_path / "report.html"
    result = run(str(path), "-p", "2", "-n", "6", "-s", "1", "-r", "100", "--step", "50", "--train-rounds", "10",
                 "--storage", str(tmp_path / "s.db"), "--report", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert "Pareto front" in text and "<script>" not in text and "&lt;script&gt;alert(1)" in text
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the [browser] extra)")
    errors: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            tab = browser.new_page(viewport={"width": 1100, "height": 900})
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.on("request", lambda r: errors.append(f"fetched {r.url}") if not r.url.startswith(
                ("file:", "data:")) else None)
            tab.goto(page.as_uri())
            images = tab.eval_on_selector_all("img.plot", "els => els.map(e => [e.complete, e.naturalWidth])")
            tab.screenshot(path=str(tmp_path / "shot.png"), full_page=True)
        finally:
            browser.close()
    assert errors == []
    assert len(images) == 3 and all(done and width > 100 for done, width in images)  # two histories and the front


def test_the_worked_example_of_the_docs_validates_and_runs_at_a_small_budget(tmp_path: Path) -> None:
    example = ROOT / "docs" / "tune" / "classic_for_four.yaml"
    assert [d for d in validate_file(example) if d.severity == "error"] == []
    t = tune(example, trials=2, players=4, seed=1, effort=Effort(step=20, most=40, train=10),
             storage=tmp_path / "s.db", check=False)
    assert t.sampler == "NSGA-II" and [x.name for x in t.space] == ["deal", "count.draw_two"]
    assert sum("same_as" not in r.result for r in t.trials) == 2


def test_a_run_interrupted_inside_a_candidate_resumes_it_and_ends_as_an_uninterrupted_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from unodsl.tools.tune import search

    path = planted(tmp_path)
    effort = Effort(step=50, most=100, train=10)
    whole = tune(path, trials=4, players=2, seed=6, effort=effort, storage=tmp_path / "whole.db", check=False)
    played = search.evaluate
    calls = []

    def stopped(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return played(*args, **kwargs)

    monkeypatch.setattr(search, "evaluate", stopped)
    with pytest.raises(KeyboardInterrupt):
        tune(path, trials=4, players=2, seed=6, effort=effort, storage=tmp_path / "cut.db", check=False)
    monkeypatch.setattr(search, "evaluate", played)
    resumed = tune(path, trials=4, players=2, seed=6, effort=effort, storage=tmp_path / "cut.db", check=False)
    assert resumed.resumed >= 2
    assert trials(resumed) == trials(whole)


def test_a_switch_is_varied_and_a_winner_that_meets_no_target_is_said_to_be_only_the_closest(tmp_path: Path) -> None:
    path = tmp_path / "sw.yaml"
    path.write_text("extends: classic\nname: switch test\ndesign:\n  turns_per_round: [1, 2]\n"
                    "  vary: {draw_until_playable: true}\n", encoding="utf-8")
    result = run(str(path), "-p", "2", "-n", "2", "-r", "200", "-s", "1", "--storage", str(tmp_path / "s.db"))
    assert result.exit_code == 0, result.output
    played = set(re.findall(r"draw_until_playable=(\d)", result.output))
    assert played == {"0", "1"}  # both sides of the switch were played
    assert "meets 0 of 1 target(s)" in result.output
    assert "no candidate meets any target: the winner is only the closest found" in " ".join(result.output.split())
