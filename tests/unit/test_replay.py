"""`unodsl replay`: a logged game re-played event for event, and every way it can fail to be."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from unodsl import Game, load_variant
from unodsl.cli import main
from unodsl.cli.replay import replay as replay_cmd
from unodsl.engine.actions import DRAW, KEEP, PASS, Play
from unodsl.players.bots import RandomAgent
from unodsl.tools.log import event_line, log_header, write_log
from unodsl.tools.replay import LogError, live_option, load_log, replay

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("variants/*.yaml"), *ROOT.glob("variants/house/*.yaml")])


def run_log(tmp_path: Path, variant: str | Path, *args: str, name: str = "game.jsonl") -> Path:
    """A game played by `unodsl run … --log` (greedy and random bots, 2 players)."""
    log = tmp_path / name
    result = CliRunner().invoke(main, ["run", str(variant), "-p", "2", "--log", str(log), *args])
    assert log.exists(), result.output
    return log


def replay_cli(*args: str | Path) -> Result:
    return CliRunner().invoke(replay_cmd, [str(a) for a in args])


def event_lines(log: Path) -> list[str]:
    """The event lines of a log: the header and the end line left out."""
    return log.read_text().splitlines()[1:-1]


def rewrite(log: Path, number: int, edit: str, target: Path) -> Path:
    """A copy of `log` with event `number` (from 1) replaced by `edit`."""
    lines = log.read_text().splitlines()
    lines[number] = edit
    target.write_text("\n".join(lines) + "\n")
    return target


def events(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in event_lines(log)]


# -- a logged game replays identically ---------------------------------------------------
@pytest.mark.parametrize("variant", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_variant_replays_identically(tmp_path: Path, variant: Path) -> None:
    players = max(2, load_variant(variant).min_players)  # partners are four
    log = run_log(tmp_path, variant, "--seed", "5", "-p", str(players))
    result = replay_cli(log)
    count = len(event_lines(log))
    assert json.loads(log.read_text().splitlines()[-1]) == {"end": "game over", "events": count}
    assert result.exit_code == 0, result.output
    assert f"replayed {count} events: identical to the log" in result.output


def faces_by_card(log: Path) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for line in event_lines(log):
        for m in re.finditer(r'\{"id":(\d+),"face":"([^"]+)"\}', line):
            found.setdefault(int(m[1]), set()).add(m[2])
    return found


def test_a_flip_game_logs_each_face_as_it_was_shown_and_replays_strictly(tmp_path: Path) -> None:
    log = run_log(tmp_path, "flip", "--seed", "1")
    assert '"event":"flipped"' in log.read_text()
    assert any(len(faces) == 2 for faces in faces_by_card(log).values())  # written as it happened
    result = replay(log)
    assert result.identical and result.matched == len(events(log))
    # a card shown with its other face is a difference
    number, line = next((i, line) for i, line in enumerate(event_lines(log), 1)
                        if '"event":"card_played"' in line and any(len(faces_by_card(log)[int(m)]) == 2
                                                                    for m in re.findall(r'"id":(\d+)', line)))
    card = int(re.findall(r'"id":(\d+)', line)[0])
    shown = re.findall(r'"face":"([^"]+)"', line)[0]
    other = next(iter(faces_by_card(log)[card] - {shown}))
    edited = rewrite(log, number, line.replace(f'"face":"{shown}"', f'"face":"{other}"'), tmp_path / "e.jsonl")
    changed = replay(edited)
    assert changed.difference is not None and changed.difference.number == number


def test_options_in_the_header_are_switched_on_and_others_off(tmp_path: Path) -> None:
    on = run_log(tmp_path, "classic", "--seed", "2", "-o", "draw_until_playable", name="on.jsonl")
    assert replay(on).identical
    # An option on by default in the file, off in the game: replayed off.
    copy = tmp_path / "classic.yaml"
    copy.write_text((ROOT / "variants" / "classic.yaml").read_text().replace(
        "  draw_until_playable:\n", "  draw_until_playable:\n    default: true\n"))
    off = run_log(tmp_path, copy, "--seed", "2", "-o", "draw_until_playable=off", name="off.jsonl")
    assert json.loads(off.read_text().splitlines()[0])["options"] == []
    assert replay(off).identical


def test_a_person_at_the_table_draws_no_random_numbers(tmp_path: Path) -> None:
    """`play --log` names the person's seat "human"; the random bot draws from the game's
    generator, and a quit game ends at a pending decision."""
    variant = load_variant("duo")
    game = Game(variant, 2, seed=4, record=True)
    bot = RandomAgent()
    for _ in range(150):
        d = game.decision
        assert d is not None
        game.apply(d.options[-1] if d.player == 0 else bot.choose(game, d))
    log = tmp_path / "quit.jsonl"
    with log.open("w") as out:
        write_log(out, log_header(variant, 2, 4, ["human", "random"], 5_000),
                  [event_line(*e) for e in game.events or ()], over=False)
    result = replay_cli(log)
    assert result.exit_code == 0, result.output
    assert "the game was left unfinished here" in result.output
    assert "identical to the log" in result.output


# -- a changed variant or engine -----------------------------------------------------------
def test_an_edited_variant_differs_at_the_first_draw_of_a_turn(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duo", "--seed", "3")
    edited = tmp_path / "duo.yaml"
    edited.write_text((ROOT / "variants" / "duo.yaml").read_text().replace(
        "draw: {count: 1, then: may_play}", "draw: {count: 2, then: may_play}"))
    logged = events(log)
    first = next(i for i, e in enumerate(logged) if e["event"] == "choice" and e["value"] == "draw"
                 and logged[i + 1]["event"] == "card_drawn" and logged[i + 2]["event"] == "hand_changed")
    result = replay_cli(log, "--variant", edited)
    assert result.exit_code == 1
    assert f"event {first + 3} differs" in result.output  # the choice, one card drawn, then a second
    assert re.search(r'log: +\{"event":"hand_changed"', result.output)
    assert re.search(r'replay: +\{"event":"card_drawn"', result.output)
    assert "round 1, turn" in result.output


def test_changed_points_differ_first_at_a_round_end(tmp_path: Path) -> None:
    log = run_log(tmp_path, "classic", "--seed", "4")
    edited = tmp_path / "classic.yaml"
    edited.write_text((ROOT / "variants" / "classic.yaml").read_text().replace("points: 20", "points: 21"))
    result = replay(log, variant=edited)
    assert result.difference is not None and result.difference.logged is not None
    assert result.difference.logged.startswith('{"event":"round_end"')
    assert result.difference.number == result.matched + 1


def test_a_missing_variant_file_is_named_and_can_be_given(tmp_path: Path) -> None:
    copy = tmp_path / "duo.yaml"
    copy.write_text((ROOT / "variants" / "duo.yaml").read_text())
    log = run_log(tmp_path, copy, "--seed", "8")
    moved = tmp_path / "moved.yaml"
    copy.rename(moved)
    result = replay_cli(log)
    assert result.exit_code == 1
    assert "duo.yaml" in result.output and "does not exist" in result.output and "--variant" in result.output
    assert replay_cli(log, "--variant", moved).exit_code == 0


# -- a tampered, truncated or malformed log -------------------------------------------------
def test_a_tampered_choice_is_reported_with_the_live_options(tmp_path: Path) -> None:
    log = run_log(tmp_path, "classic", "--seed", "6")
    logged = events(log)
    k = next(i for i, e in enumerate(logged) if e["event"] == "choice" and e["kind"] == "turn"
             and isinstance(e["value"], dict) and i > 30)
    entry = {**logged[k], "value": {"id": 9999, "face": "red 5"}}
    tampered = rewrite(log, k + 1, json.dumps(entry, separators=(",", ":")), tmp_path / "t.jsonl")
    result = replay_cli(tampered)
    assert result.exit_code == 1
    assert f"event {k + 1} (round" in result.output
    assert '{"id":9999,"face":"red 5"}' in result.output
    assert "is not among the live options: play " in result.output


def test_a_tampered_face_differs_at_its_line(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duo", "--seed", "2")
    logged = events(log)
    k = next(i for i, e in enumerate(logged) if e["event"] == "card_drawn")
    line = json.dumps(logged[k], separators=(",", ":"))
    tampered = rewrite(log, k + 1, re.sub(r'"face":"[^"]*"', '"face":"purple 42"', line), tmp_path / "t.jsonl")
    result = replay(tampered)
    assert result.difference is not None and result.difference.number == k + 1
    assert result.difference.live == line


def test_a_log_longer_than_the_game_differs(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duo", "--seed", "2")
    longer = tmp_path / "longer.jsonl"
    lines = log.read_text().splitlines()
    longer.write_text("\n".join([*lines[:-1], '{"event":"turn_start","player":0}',
                                 json.dumps({"end": "game over", "events": len(lines) - 1})]) + "\n")
    result = replay_cli(longer)
    assert result.exit_code == 1 and "(the replayed game is over)" in result.output


@pytest.mark.parametrize(("text", "message"), [
    ("", "the log is empty"),
    ("\n\n", "the log is empty"),
    ('{"event":"cut","player":0}\n', "line 1 is not a unodsl log header"),
    ("not json\n", "line 1 is not a unodsl log header"),
    ('{"unodsl_log": 1, "players": 2, "seed": 1}\n', "log format 1 is not one this unodsl reads (5) (written "
     "by an older unodsl, whose bots drew from the game's generator)"),
    ('{"unodsl_log": 4, "file": "duo", "players": 2, "seed": 1}\n', "log format 4 is not one this unodsl reads (5) "
     "(written by an older unodsl, whose cards_moved did not name its cards)"),
    ('{"unodsl_log": 5, "file": "duo", "players": 2}\n', "the header's 'seed' should be a number, not null"),
    ('{"unodsl_log": 5, "file": "duo", "players": "2", "seed": 1}\n', "'players' should be a number"),
    ('{"unodsl_log": 5, "file": "duo", "players": 2, "seed": 1}\n{"event":"cut","pla', "line 2 is not valid "
     "JSON (at column 16) (the last line is cut short: the log is truncated)"),
    ('{"unodsl_log": 5, "file": "duo", "players": 2, "seed": 1}\n{oops}\n{"event":"cut"}\n', "line 2 is not valid"),
    ('{"unodsl_log": 5, "file": "duo", "players": 2, "seed": 1}\n[1, 2]\n', "line 2 is not an event"),
    ('{"unodsl_log": 5, "players": 2, "seed": 1}\n', "the log's header names no variant file"),
])
def test_a_bad_log_is_a_clear_error_not_a_traceback(tmp_path: Path, text: str, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text)
    result = replay_cli(bad)
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert message in " ".join(result.output.split())


def test_a_game_the_variant_does_not_seat_is_a_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    header = {"unodsl_log": 5, "file": str(ROOT / "variants" / "duo.yaml"), "players": 7, "seed": 1}
    bad.write_text(json.dumps(header) + '\n{"event":"cut"}\n')
    result = replay_cli(bad)
    assert result.exit_code == 1 and "2–2 players, not 7" in result.output


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert replay_cli(tmp_path / "nowhere.jsonl").exit_code == 2
    assert replay_cli(tmp_path).exit_code == 2
    log = tmp_path / "x.jsonl"
    log.write_text("")
    assert replay_cli(log, "--until", "0").exit_code == 2


def test_a_game_that_stopped_with_an_error_replays_with_the_same_guard(tmp_path: Path) -> None:
    log = run_log(tmp_path, "classic", "--seed", "1", "--max-turns", "3")
    assert json.loads(log.read_text().splitlines()[0])["max_turns"] == 3
    assert json.loads(log.read_text().splitlines()[-1])["end"] == "unfinished"
    result = replay_cli(log)  # the header's guard, not the default one
    assert result.exit_code == 0, result.output
    assert "stops with an error where the log ends" in result.output


# -- --until, and narration --------------------------------------------------------------------
def test_until_stops_there_and_shows_the_position(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duo", "--seed", "2")
    logged = events(log)
    n = next(i for i, e in enumerate(logged) if e["event"] == "hand_changed" and i > 40) + 1
    result = replay(log, until=n)
    assert result.identical and result.stopped and result.matched == n
    assert result.game is not None
    assert len(result.game.hands[int(str(logged[n - 1]["player"]))]) == logged[n - 1]["size"]
    out = replay_cli(log, "--until", str(n))
    assert out.exit_code == 0
    assert f"after event {n}: {log.read_text().splitlines()[n]}" in out.output
    assert "P1 (greedy)" in out.output and "cards:" in out.output and "top:" in out.output
    assert f"replayed {n} events: identical to the log so far" in out.output


def test_verbose_narrates_as_run_does(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duo", "--seed", "2")
    told = CliRunner().invoke(main, ["run", "duo", "-p", "2", "--seed", "2"]).output
    result = replay_cli(log, "-v")
    assert result.exit_code == 0
    assert "Round 1 — " in result.output
    first_round = told.split("Round 2")[0].split("Round 1")[1]
    assert first_round in result.output
    assert "Round 1" not in replay_cli(log).output


# -- mapping a logged choice to a live option -------------------------------------------------
def test_logged_values_map_back_to_live_options() -> None:
    game = Game(load_variant("duo"), 2, seed=1)
    card = game.cards[7]
    play = Play(card)
    assert live_option({"id": 7, "face": "whatever"}, (DRAW, play)) is play  # a play is logged as its card
    assert live_option({"id": 7, "face": card.label}, (game.cards[3], card)) is card
    assert live_option("draw", (play, DRAW)) is DRAW
    assert live_option("keep", (play, KEEP)) is KEEP
    assert live_option("pass", (PASS,)) is PASS
    assert live_option("blue", ("red", "blue")) == "blue"
    assert live_option(1, (0, 1)) == 1
    assert live_option(False, (True, False)) is False
    for value, options in [(True, (0, 1)), (1, (True, False)), ({"id": 8}, (card,)),
                           ({"play": {"id": 7}}, (card,)), ("draw", (KEEP,)), ([7], (play,))]:
        with pytest.raises(LookupError):
            live_option(value, options)


def test_load_log_reads_lines_too() -> None:
    log = load_log(['{"unodsl_log": 5, "file": "duo", "players": 2, "seed": 1}', "",
                    '{"event": "cut", "player": 0}'])
    assert log.players == 2 and log.seed == 1 and log.canonical(1) == '{"event":"cut","player":0}'
    with pytest.raises(LogError, match="empty"):
        load_log([])


# -- the end line ---------------------------------------------------------------------------
def test_a_log_cut_between_lines_is_noted_and_a_bad_end_line_refused(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duo", "--seed", "6")
    lines = log.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:40]) + "\n")  # no end line
    result = replay_cli(cut)
    assert result.exit_code == 0, result.output
    assert "the log has no end line: it was cut short" in result.output
    miscounted = tmp_path / "miscounted.jsonl"
    miscounted.write_text("\n".join([*lines[:40], '{"end": "game over", "events": 41}']) + "\n")
    assert "the end line (line 41) counts 41 events, but the log has 39" in replay_cli(miscounted).output
    trailing = tmp_path / "trailing.jsonl"
    trailing.write_text("\n".join([*lines, lines[5]]) + "\n")
    assert f"line {len(lines) + 1} comes after the end line" in replay_cli(trailing).output


def test_a_log_that_says_game_over_too_early_differs(tmp_path: Path) -> None:
    log = run_log(tmp_path, "duo", "--seed", "6")
    lines = log.read_text().splitlines()
    early = tmp_path / "early.jsonl"
    early.write_text("\n".join([*lines[:40], '{"end": "game over", "events": 39}']) + "\n")
    result = replay_cli(early)
    assert result.exit_code == 1
    assert "event 40 differs" in result.output and '"end": "game over"' in result.output
