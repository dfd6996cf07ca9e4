"""`unodsl play`: a person against bots. Answers by number or text, refusals and
help, what the person is shown (never another hand), whole games through the
command, quitting, the log, and usage errors."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import cycle
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.text import Text

from tests.helpers import game
from unodsl.cli.play import play
from unodsl.engine.actions import DRAW, KEEP, Decision, Play
from unodsl.engine.game import Chooser, Game
from unodsl.players.bots import make_agents
from unodsl.players.human import HumanAgent, PlayNarrator, Quit, matches, option_text, parse_answer

NAMES = ["P1 (you)", "P2 (greedy)", "P3 (random)"]
COLOR = Decision(0, "color", ("red", "yellow", "green", "blue"), "name a colour")
ASK = Decision(0, "ask", (True, False), "call_uno")
PLAYER = Decision(0, "player", (1, 2), "pick a player")


def plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def turn() -> tuple[Game, Decision]:
    """P1 to play on a red 5 holding two red 7s, a red 2, a blue 7 and a green 9."""
    g = game("classic", 3)
    g.arrange({0: ["red 7", "red 2", "red 7", "green 9", "blue 7"], 1: ["yellow 3", "green 4"],
               2: ["blue 6", "wild"]}, discard=["red 5"])
    assert g.decision is not None and g.decision.kind == "turn"
    return g, g.decision


def scripted(answers: Iterable[str]) -> tuple[Callable[[str], str], list[str]]:
    """A person who types `answers` in order (then ends the input); the prompts asked."""
    it: Iterator[str] = iter(answers)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read, prompts


# -- parsing answers ------------------------------------------------------------------
def test_an_answer_is_a_number_or_an_options_text_in_any_case() -> None:
    _, d = turn()
    texts = [option_text(o, d) for o in d.options]
    assert texts == ["play red 7", "play red 2", "play red 7", "draw"]
    assert parse_answer("2", d) is d.options[1]
    assert parse_answer(" 4 ", d) is DRAW
    assert parse_answer("draw", d) is DRAW
    assert parse_answer("DRAW", d) is DRAW
    assert parse_answer("Red 2", d) is d.options[1]
    assert parse_answer("play  red 2", d) is d.options[1]
    assert parse_answer("dr", d) is DRAW  # a unique beginning is enough
    # Two red 7s read the same: either is the same answer, the first is taken.
    assert parse_answer("red 7", d) is d.options[0]


def test_a_bad_answer_names_nothing() -> None:
    _, d = turn()
    for bad in ("", "0", "5", "-1", "²", "1.5", "red", "blue 7", "green 9", "purple", "play", "keep", "yes"):
        assert parse_answer(bad, d) is None, bad
    assert len(matches("red", d)) == 2  # ambiguous: red 7 or red 2


def test_colours_questions_and_players_by_text() -> None:
    assert parse_answer("Blue", COLOR) == "blue"
    assert parse_answer("y", COLOR) == "yellow"
    assert parse_answer("g", COLOR) == "green"
    assert parse_answer("yes", ASK) is True
    assert parse_answer("N", ASK) is False
    assert parse_answer("2", ASK) is False
    assert parse_answer("maybe", ASK) is None
    assert parse_answer("call UNO", ASK) is True  # the question's own words say yes
    assert parse_answer("uno", ASK) is None
    assert parse_answer("p3", PLAYER, NAMES) == 2
    assert parse_answer("P2 (greedy)", PLAYER, NAMES) == 1
    assert parse_answer("1", PLAYER, NAMES) == 1  # a number is the option's, not the seat's
    assert parse_answer("p1", PLAYER, NAMES) is None  # not an option


def test_a_drawn_card_is_played_or_kept() -> None:
    g = game("classic", 2)
    card = next(c for c in g.cards if c.label == "red 7")
    d = Decision(0, "drawn", (Play(card), KEEP))
    assert parse_answer("keep", d) is KEEP
    assert parse_answer("k", d) is KEEP
    assert parse_answer("play red 7", d) == Play(card)
    assert parse_answer("p", d) == Play(card)


def test_bad_input_is_refused_and_asked_again_and_help_shows_the_options() -> None:
    g, d = turn()
    said: list[str] = []
    read, prompts = scripted(["", "9", "red", "purple 3", "?", "help", "Red 2"])
    human = HumanAgent(NAMES, lambda m: said.append(plain(m)), read)
    hands = [list(h) for h in g.hands]
    choice = human.choose(g, d)
    assert choice is d.options[1] and human.answered
    assert len(prompts) == 7
    out = "\n".join(said)
    assert "Type an option's number (1–4)" in out
    assert "There is no option 9: answer 1–4" in out
    assert "'red' could be play red 7, play red 2" in out
    assert "'purple 3' is not one of the options" in out
    assert out.count("It is your turn: play one of the cards listed") == 2  # ? and help
    assert out.count("  4. draw") == 3  # the prompt, then ? and help show the options again
    assert g.decision == d and [list(h) for h in g.hands] == hands  # nothing changed


@pytest.mark.parametrize("typed", ["q", "QUIT", " exit "])
def test_quit_words_raise_quit(typed: str) -> None:
    g, d = turn()
    read, _ = scripted([typed])
    with pytest.raises(Quit):
        HumanAgent(NAMES, lambda m: None, read).choose(g, d)


def test_ctrl_c_or_end_of_input_quits_and_autoplay_leaves_the_game_unchanged() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    g, d = turn()
    hands = [list(h) for h in g.hands]
    bots = make_agents(["greedy"], 3)
    for read in (interrupt, scripted([])[0]):
        with pytest.raises(Quit):
            g.autoplay([HumanAgent(NAMES, lambda m: None, read), bots[1], bots[2]])
        assert g.decision == d and [list(h) for h in g.hands] == hands


# -- what the person sees ---------------------------------------------------------------
def test_the_prompt_shows_the_table_but_no_other_hand() -> None:
    g, d = turn()
    said: list[str] = []
    HumanAgent(NAMES, lambda m: said.append(plain(m)), scripted(["1"])[0]).choose(g, d)
    text = said[0]
    for label in ("yellow 3", "green 4", "blue 6", "wild"):  # the others' cards
        assert label not in text
    assert "top card: red 5" in text and "colour to match: red" in text
    assert "P2 (greedy): 2 cards, score 0" in text and "P3 (random): 2 cards, score 0" in text
    assert "your hand (5): blue 7, green 9, red 2, red 7, red 7" in text
    assert "1. play red 7" in text and "4. draw" in text


def _visible(g: Game, seat: int, d: Decision) -> set[str]:
    """Every label the person may see: their hand, the discard pile, the options, the card asked about."""
    labels = {c.label for c in g.hands[seat]} | {c.label for c in g.discard_pile}
    labels |= {o.card.label for o in d.options if isinstance(o, Play)}
    labels |= {o.label for o in d.options if hasattr(o, "label")}
    if d.about is not None:
        labels.add(d.about.label)
    return labels


@pytest.mark.parametrize(("name", "players", "seat"), [("classic", 3, 1), ("duo", 2, 0)])
def test_no_prompt_of_a_whole_game_shows_another_players_hand(name: str, players: int, seat: int) -> None:
    g = Game(game(name, players).variant, players, seed=11)
    said: list[str] = []
    checked = 0

    def read(prompt: str) -> str:
        nonlocal checked
        d = g.decision if g.decision is not None and g.decision.player == seat else None
        assert d is not None
        text = said[-1]
        visible = _visible(g, seat, d)
        hidden = {c.label for p, h in enumerate(g.hands) if p != seat for c in h} - visible
        hidden = {h for h in hidden if not any(h in v for v in visible)}  # "wild" in "wild draw four"
        shown = [h for h in hidden if re.search(rf"\b{re.escape(h)}\b", text)]
        assert shown == [], f"the prompt shows another player's {shown}:\n{text}"
        checked += 1
        return "1"

    human = HumanAgent(NAMES, lambda m: said.append(plain(m)), read)
    agents: list[Chooser] = list(make_agents(["greedy", "random"], players))
    agents[seat] = human
    g.autoplay(agents, rounds=1)
    assert checked > 5


def test_the_person_is_told_what_the_engine_did_for_them() -> None:
    said: list[str] = []
    human = HumanAgent(NAMES[:2], lambda m: said.append(plain(m)), scripted(["keep"])[0])
    narrator = PlayNarrator(NAMES[:2], lambda m: said.append(plain(m)), 0, human)
    g = Game(game("classic", 2).variant, 2, seed=1, listeners=[narrator])
    # P1 cannot play on red 5: the engine draws for them, and they see their card.
    g.arrange({0: ["blue 1", "blue 2"], 1: ["green 3", "green 4"]}, discard=["red 5"], draw=["red 8", "green 6"])
    out = "\n".join(said)
    assert "you have no card you can play: you have to draw" in out
    assert "P1 (you) draws red 8 (3 cards)" in out
    assert g.decision is not None and g.decision.kind == "drawn"
    g.apply(human.choose(g, g.decision))  # P1 keeps it; P2 cannot play either, and draws
    assert g.decision is not None and g.decision.player == 0
    out = "\n".join(said)
    assert "P2 (greedy) draws 1 card (3 cards)" in out
    assert "green 6" not in out  # the card P2 drew is not named


# -- the command ---------------------------------------------------------------------
def invoke(args: list[str], answers: Iterable[str] = (), limit: int = 4_000) -> Result:
    lines = "".join(f"{a}\n" for a, _ in zip(cycle(answers), range(limit), strict=False)) if answers else ""
    return CliRunner().invoke(play, args, input=lines)


def test_a_whole_game_answered_by_number() -> None:
    result = invoke(["classic", "-p", "3", "--seat", "1", "-s", "4", "-a", "greedy"], ["1"])
    assert result.exit_code == 0, result.output
    assert "You are P2;" in result.output
    assert "Your turn. What do you play?" in result.output
    assert "Final scores" in result.output
    assert re.search(r"P\d \((you|greedy)\) wins after \d+ round\(s\)", result.output)


def test_a_whole_game_answered_by_text() -> None:
    # Each decision takes the first of these that names one of its options (the rest are refused).
    result = invoke(["duo", "-s", "2"], ["draw", "keep", "no", "red", "p2", "1"], limit=20_000)
    assert result.exit_code == 0, result.output
    assert "is not one of the options" in result.output  # the refusals were asked again
    assert "Final scores" in result.output and " wins after " in result.output


def test_quit_mid_game_exits_0_and_writes_the_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = invoke(["classic", "-p", "2", "-s", "1", "--log", str(log)], ["1"] * 6 + ["q"], limit=7)
    assert result.exit_code == 0, result.output
    assert "You quit the game." in result.output and "Scores so far" in result.output
    assert "Traceback" not in result.output and " wins after " not in result.output
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["agents"] == ["human", "greedy"] and lines[0]["seed"] == 1
    assert lines[-1] == {"end": "unfinished", "events": len(lines) - 2}
    events = [e["event"] for e in lines[1:-1]]
    assert "card_played" in events and "game_end" not in events
    chosen = [e for e in lines[1:-1] if e["event"] == "choice" and e["player"] == 0]
    assert len(chosen) >= 6  # the six answers given (and any the engine took)


def test_end_of_input_quits_cleanly() -> None:
    result = invoke(["duo", "-s", "1"], ["yes"], limit=3)
    assert result.exit_code == 0, result.output
    assert "You quit the game." in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["duo", "--seat", "2"], "--seat 2: with 2 players the seats are 0–1"),
    (["classic", "-p", "3", "--seat", "3"], "--seat 3: with 3 players the seats are 0–2"),
    (["duo", "--seat", "-1"], "-1 is not in the range"),
    (["duo", "-p", "3"], "UNO Duo is for 2–2 players, not 3"),
    (["duo", "-a", "greedee"], "unknown agent 'greedee'"),
])
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    assert message in result.output


def test_an_invalid_variant_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("unodsl: 1\nname: x\n")
    result = CliRunner().invoke(play, [str(bad)])
    assert result.exit_code == 1
