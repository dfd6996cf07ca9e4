"""A web table without a server: seats and tokens, answers and refusals, bots, undo,
the log and saves, and what each seat is sent (unodsl/web/table.py, frames.py,
narration.py, protocol.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import variant
from unodsl import Game, make_agents
from unodsl.tools.replay import load_log, replay
from unodsl.tools.save import load_save, parse_save
from unodsl.variant.load import load_variant
from unodsl.web.narration import SeatNarrator, segments
from unodsl.web.protocol import Answer, Hello, HostAction, Refused, clean_name, parse
from unodsl.web.table import Table


def table(tmp_path: Path, name: str = "classic", players: int = 3, seed: int = 5, **options: bool | int) -> Table:
    return Table("t1", variant(name, **options), players, seed, ["greedy"], tmp_path)


def bots_to_end(t: Table) -> None:
    """Let every bot move until a person must decide or the game ends."""
    while (move := t.bot_move()) is not None:
        agent, game, version = move
        assert game.decision is not None
        assert t.apply_bot(game, version, agent.choose(game, game.decision))


# -- messages ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "says"), [
    ("", "not a JSON message"),
    ("{", "not a JSON message"),
    ("[1, 2]", "a JSON object"),
    ('{"type": "shout"}', "unknown message type"),
    ('{"type": "answer", "decision": "x", "option": "2"}', "number of one of the options"),
    ('{"type": "answer", "decision": "x", "option": true}', "number of one of the options"),
    ('{"type": "answer", "decision": "x", "option": -1}', "number of one of the options"),
    ('{"type": "answer", "option": 1}', "names the"),
    ('{"type": "hello", "seat": "0"}', "seat number"),
    ('{"type": "hello", "seat": 0, "token": 5}', "'token' should be text"),
    ('{"type": "host", "action": "cheat"}', "'action' should be one of"),
    ('{"type": "host", "action": "restart", "seed": -4}', "a seed is a whole number"),
    ('[' * 100_000 + ']' * 100_000, "message too long"),
    ("x" * 1_048_576, "message too long"),
])
def test_a_malformed_message_is_refused_with_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(Refused, match=re.escape(says)):
        parse(text)


def test_binary_messages_are_refused() -> None:
    with pytest.raises(Refused, match="JSON text"):
        parse(b'{"type": "hello"}')


def test_well_formed_messages_parse() -> None:
    assert parse('{"type": "hello", "seat": 1, "token": "abc", "name": " Ann  Lee "}') == \
        Hello(1, "abc", "", "Ann Lee", False)
    assert parse('{"type": "answer", "decision": "d1", "option": 3}') == Answer("d1", 3)
    assert parse('{"type": "host", "action": "restart", "seed": 9}') == HostAction("restart", None, 9)


def test_a_name_keeps_only_printable_text() -> None:
    assert clean_name("\u202eevil\x1b[31m\u200b name\n") == "evil[31m name"
    assert len(clean_name("n" * 500)) == 24


# -- seats and answers --------------------------------------------------------------------
def test_a_seat_opens_only_with_its_own_token(tmp_path: Path) -> None:
    t = table(tmp_path)
    assert t.seat_for(1, t.seats[1].token) is t.seats[1]
    with pytest.raises(Refused, match="no token"):
        t.seat_for(1, "")
    with pytest.raises(Refused, match="not P2's token"):
        t.seat_for(1, t.seats[0].token)  # another seat's token
    with pytest.raises(Refused, match="seats 0–2"):
        t.seat_for(3, t.seats[0].token)
    assert len({s.token for s in t.seats}) == 3


def test_answers_are_refused_unless_they_answer_the_pending_decision_of_their_seat(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.take(0)
    with pytest.raises(Refused, match="not started"):
        t.answer(0, "x", 0)
    t.start()
    bots_to_end(t)
    game = t.game
    assert game is not None and game.decision is not None and game.decision.player == 0
    before = (list(game.actions), t.version)
    with pytest.raises(Refused, match="not your decision"):
        t.answer(1, t.decision_id or "", 0)
    with pytest.raises(Refused, match="answered already"):
        t.answer(0, "an old id", 0)
    with pytest.raises(Refused, match="there is no option 99"):
        t.answer(0, t.decision_id or "", 99)
    assert (list(game.actions), t.version) == before  # nothing changed
    t.answer(0, t.decision_id or "", 0)
    assert len(game.actions) == len(before[0]) + 1


def test_a_seat_handed_to_a_bot_is_played_by_it_and_can_be_taken_back(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.take(0)
    t.start()
    bots_to_end(t)
    assert t.bot_move() is None  # P1's decision: waits for the person
    t.hand_to_bot(0)
    with pytest.raises(Refused, match="a bot plays your seat"):
        t.answer(0, t.decision_id or "", 0)
    move = t.bot_move()
    assert move is not None
    t.take(0)  # back before the bot answered: its answer is not used
    agent, game, version = move
    assert game.decision is not None
    assert not t.apply_bot(game, version, agent.choose(game, game.decision))


def test_a_bots_only_table_plays_the_game_unodsl_run_plays(tmp_path: Path) -> None:
    t = table(tmp_path, seed=11)
    t.start()
    bots_to_end(t)
    assert t.status == "over" and t.game is not None
    alone = Game(variant("classic"), 3, 11)
    alone.autoplay(make_agents(["greedy"], 3, 11))
    assert t.game.actions == alone.actions and t.game.scores == alone.scores


# -- the log, undo, saves --------------------------------------------------------------------
def test_the_log_is_written_as_the_game_goes_and_replays(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.take(0)
    t.start()
    bots_to_end(t)
    assert t.log_path is not None
    written = t.log_path.read_text(encoding="utf-8").splitlines()
    assert json.loads(written[0])["unodsl_log"] and len(written) > 10  # before the game ends
    while t.status == "playing":
        t.answer(0, t.decision_id or "", 0)
        bots_to_end(t)
    result = replay(load_log(t.log_path))
    assert result.identical and result.log.end == {"end": "game over", "events": len(result.log.events)}
    assert result.log.agents == ["human", "greedy", "greedy"]


def test_undo_goes_back_to_the_persons_last_decision_and_rewrites_the_log(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.take(0)
    t.start()
    with pytest.raises(Refused, match="no decision by a person"):
        t.undo()
    bots_to_end(t)
    for _ in range(3):
        t.answer(0, t.decision_id or "", 0)
        bots_to_end(t)
    game = t.game
    assert game is not None and game.decision is not None
    asked = list(game.actions)
    last = max(k for k, (_, person) in enumerate(t.deciders) if person)
    t.undo()
    assert t.game is not None and t.game.actions == asked[:last]
    assert t.game.decision is not None and t.game.decision.player == 0
    assert "undid P1's last decision" in t.message
    t.answer(0, t.decision_id or "", 0)
    bots_to_end(t)
    assert t.log_path is not None
    log = load_log(t.log_path)
    assert replay(log).identical and log.end is None  # the rewritten log, still being written


def test_a_save_of_a_web_game_resumes_at_the_same_decision(tmp_path: Path) -> None:
    t = table(tmp_path, seed=3)
    t.take(0)
    t.start()
    bots_to_end(t)
    t.answer(0, t.decision_id or "", 0)
    bots_to_end(t)
    path = t.save()
    saved = load_save(path)
    assert saved.agents == ("human", "greedy", "greedy") and saved.seed == 3
    again = Table("t2", variant("classic"), 3, 3, ["greedy"], tmp_path / "again")
    again.resume(saved)
    assert again.game is not None and t.game is not None
    assert again.game.actions == t.game.actions
    assert again.game.observation(0) == t.game.observation(0)
    assert again.seats[0].person and again.bot_move() is None  # waits for its person
    with pytest.raises(Exception, match="answer 1"):
        Table("t3", variant("classic"), 3, 3, ["greedy"], tmp_path).resume(
            parse_save(path.read_text().replace('"actions":[', '"actions":["nonsense",')))


# -- what a seat is sent -------------------------------------------------------------------------
def test_a_seat_is_sent_its_own_hand_and_decision_and_only_sizes_of_the_others(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.take(0)
    t.start()
    bots_to_end(t)
    game = t.game
    assert game is not None and game.decision is not None
    mine = t.frame(0)["you"]
    assert sorted(c["label"] for c in mine["hand"]) == sorted(c.label for c in game.hands[0])
    assert mine["decision"] is not None and len(mine["decision"]["options"]) == len(game.decision.options)
    playable = {c["option"] for c in mine["hand"] if c["option"] is not None}
    assert playable and all(mine["decision"]["options"][k]["what"] == "play" for k in playable)
    theirs = t.frame(1)["you"]
    assert theirs["decision"] is None
    public = t.frame(None)["table"]
    assert public is not None
    assert [s["size"] for s in public["seats"]] == [len(h) for h in game.hands]
    assert all(set(s) == {"seat", "size", "score", "out", "backs", "shown", "flags"} for s in public["seats"])


def test_flip_shows_the_backs_of_the_others_cards_and_never_their_faces_nor_a_seat_its_own_backs(
        tmp_path: Path) -> None:
    t = table(tmp_path, "flip", players=3)
    t.start()
    game = t.game
    assert game is not None
    faces = {c.label for h in game.hands for c in h} - {c.back.label for h in game.hands for c in h if c.back}
    shown = set(game.observation(0).discard_pile)
    for seat in (None, 0, 1, 2):
        frame = t.frame(seat)
        public = frame["table"]
        assert public is not None and public["two_sided"]
        for p, s in enumerate(public["seats"]):
            backs = [] if p == seat else sorted(c.back.label for c in game.hands[p] if c.back is not None)
            assert sorted(b["label"] for b in s["backs"]) == backs
        assert seat is None or all("back" not in c for c in frame["you"]["hand"])
        text = json.dumps(public)
        assert not [f for f in faces - shown if f'"{f}"' in text]


def test_the_narration_of_a_seat_names_its_own_drawn_cards_and_not_the_others(tmp_path: Path) -> None:
    names = ["P1", "P2", "P3"]
    mine, watcher = SeatNarrator(list(names), 0), SeatNarrator(list(names), None)
    drawn: dict[int, list[str]] = {0: [], 1: [], 2: []}
    game = Game(variant("classic"), 3, 8, listeners=[
        mine, watcher, lambda g, e, d: drawn[d["player"]].append(d["card"].label) if e == "card_drawn" else None])
    game.autoplay(make_agents(["greedy"], 3, 8))
    told = ["".join(text for text, _ in line) for line in mine.since(0)]
    seen = ["".join(text for text, _ in line) for line in watcher.since(0)]
    assert any("P1 draws" in line and drawn[0][-1] in line for line in told) or not drawn[0]
    runs = [run for line in mine.since(0) for run in line]
    assert ("P1", "b you") in runs and ("P1", "b") not in runs and ("P2", "b") in runs  # its own label, marked
    assert not [line for line in told if "(you)" in line]
    assert not [line for line in seen if "draws" in line and not line.split("draws ")[1][0].isdigit()]
    assert not [line for line in told if "P2 draws" in line and not line.split("draws ")[1][0].isdigit()]


def test_narration_text_is_never_markup() -> None:
    runs = segments("[bold]<script>alert(1)</script>[/] plays [red]red 7[/] [link=javascript:x]here[/]")
    assert "".join(t for t, _ in runs) == "<script>alert(1)</script> plays red 7 here"
    assert {c for _, c in runs} <= {"", "b", "c-red"}  # the link style is no class


def test_a_jump_in_offer_is_sent_to_its_seat_and_the_others_see_only_that_someone_decides(tmp_path: Path) -> None:
    t = Table("j", load_variant("house/jump_in"), 4, 0, ["greedy"], tmp_path)
    t.take(0)
    t.start()
    for _ in range(400):  # P1 answers its first option until a jump-in offer comes to it
        bots_to_end(t)
        game = t.game
        assert game is not None and game.decision is not None
        if game.decision.kind == "jump":
            break
        t.answer(0, t.decision_id or "", 0)
    else:
        pytest.fail("no jump-in offer came to P1")
    mine = t.frame(0)["you"]["decision"]
    assert mine is not None and mine["kind"] == "jump" and mine["about"] is not None
    assert {o["what"] for o in mine["options"]} == {"play", "word"} and mine["options"][-1]["text"] == "pass"
    public = t.frame(None)["table"]
    assert public is not None and public["turn"] is None and public["deciding"] is True
    assert t.frame(1)["you"]["decision"] is None
