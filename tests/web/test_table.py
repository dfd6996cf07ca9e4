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
from unodsl.web.hub import Connection, Hub
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


# -- table truth: every page is told what happened (issue 42) ---------------------------------------
class Clock:
    """An injectable clock: time moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def people(tmp_path: Path, name: str = "classic", players: int = 3, seed: int = 5, **more: object) -> Table:
    """A table where P1 and P2 are people (P1 the host) and the game has started."""
    t = Table("t1", variant(name), players, seed, ["greedy"], tmp_path, **more)  # type: ignore[arg-type]
    t.take(0, "Ann")
    t.take(1, "Bob")
    t.start()
    return t


def play_people_until(t: Table, done: object, most: int = 2000) -> None:
    """Answer every person's decision with its first option (bots move too) until `done()`."""
    for _ in range(most):
        if done():  # type: ignore[operator]
            return
        bots_to_end(t)
        if t.status != "playing" or done():  # type: ignore[operator]
            return
        game = t.game
        assert game is not None and game.decision is not None
        t.answer(game.decision.player, t.decision_id or "", 0)
    pytest.fail("the position never came")


def test_an_undo_is_seen_by_the_other_seat(tmp_path: Path) -> None:
    t = people(tmp_path)

    def p2_asked_after_p1() -> bool:  # P1 made the last decision by a person, and P2 must answer now
        by_people = [seat for seat, person in t.deciders if person]
        d = t.game.decision if t.game is not None else None
        return bool(by_people) and by_people[-1] == 0 and d is not None and d.player == 1 and t.bot_move() is None

    play_people_until(t, p2_asked_after_p1)
    game = t.game
    assert game is not None and game.decision is not None and game.decision.player == 1
    before = t.frame(1)
    assert before["you"]["decision"] is not None and before["table"]["turn"] == 1
    generation = t.generation
    t.undo()
    after = t.frame(1)
    assert after["notice"]["kind"] == "undo" and after["notice"]["text"] == "the host undid P1 · Ann's last decision"
    assert after["you"]["decision"] is None and after["table"]["turn"] == 0  # P2 is no longer asked
    assert t.generation == generation + 1  # every page's narration starts again (the hub sends reset)
    assert t.frame(None)["notice"] == after["notice"]  # a spectator is told as well


def test_a_new_game_and_a_seat_handed_to_a_bot_are_told_to_every_page(tmp_path: Path) -> None:
    t = people(tmp_path)
    first = t.frame(2)["notice"]
    assert first["kind"] == "start" and "seed" not in first["text"] and str(t.seed) not in first["text"]
    t.hand_to_bot(1, by_host=True)
    told = t.frame(2)["notice"]
    assert told["kind"] == "bot" and told["text"] == "P2 · Bob is played by a bot now (the host's doing)"
    assert told["id"] > first["id"] and t.frame(2)["seats"][1]["bot_plays"] is True
    t.take(1)
    back = t.frame(0)["notice"]
    assert back["kind"] == "person" and back["text"] == "P2 · Bob is played by a person now"
    assert t.frame(0)["seats"][1]["bot_plays"] is False
    t.start(424242)
    again = t.frame(None)["notice"]
    assert again["kind"] == "restart" and again["text"] == "a new game has started (game 2)"
    assert "424242" not in json.dumps([t.frame(p, host=p == 0) for p in (None, 0, 1, 2)])


def test_notices_expire_and_a_persons_answer_clears_them(tmp_path: Path) -> None:
    clock = Clock()
    t = people(tmp_path, clock=clock)
    notice = t.frame(0)["notice"]
    assert notice is not None and notice["seconds"] > 0
    clock.now += notice["seconds"] + 0.1
    assert t.frame(0)["notice"] is None  # its time is up
    t.tell("bot", "something happened")
    assert t.frame(1)["notice"]["text"] == "something happened"
    bots_to_end(t)
    assert t.frame(1)["notice"] is not None  # the bots' moves leave it
    assert t.game is not None and t.game.decision is not None
    t.answer(t.game.decision.player, t.decision_id or "", 0)
    assert t.frame(1)["notice"] is None  # the table moved on: old news


def test_a_name_never_passes_for_another_seat(tmp_path: Path) -> None:
    t = people(tmp_path)
    t.rename(1, "P1 (you)")
    play_people_until(t, lambda: t.game is not None and t.game.turns > 30)
    frame = t.frame(0)
    assert frame["seats"][1]["label"] == "P2" and frame["seats"][1]["name"] == "P1 (you)"
    assert [s["label"] for s in frame["seats"]] == ["P1", "P2", "P3"]
    for n in t.narrators:
        text = "\n".join("".join(run for run, _ in line) for line in n.since(0))
        assert "(you)" not in text and "(greedy)" not in text  # labels only, and no "(you)"
        assert "P2 plays" in text or "P2 draws" in text


def test_a_player_out_of_the_round_is_flagged_out_and_the_zone_is_told_readably(tmp_path: Path) -> None:
    t = Table("nm", load_variant("no_mercy"), 4, 0, ["random"], tmp_path)
    t.start()
    while t.game is not None and not t.game.out and t.status == "playing":
        move = t.bot_move()
        assert move is not None
        agent, game, version = move
        assert game.decision is not None and t.apply_bot(game, version, agent.choose(game, game.decision))
    assert t.game is not None and t.game.out
    out = set(t.game.out)
    seats = t.frame(None)["table"]["seats"]
    assert {s["seat"] for s in seats if s["out"]} == out
    said = "\n".join("".join(run for run, _ in line) for line in t.narrators[-1].since(0))
    assert "is out of the round" in said and "discard_pile" not in said and "card(s)" not in said
    assert re.search(r"is out of the round \(\d+ cards? to the discard pile\)", said)


def test_the_top_card_carries_wild_and_the_colour_in_play(tmp_path: Path) -> None:
    t = people(tmp_path, seed=2)
    play_people_until(t, lambda: t.game is not None and t.game.discard_pile[-1].wild and t.game.current_color)
    top = t.frame(2)["table"]["top"]
    game = t.game
    assert game is not None
    assert top == {"label": game.discard_pile[-1].label, "color": "", "wild": True, "in_play": game.current_color}
    assert all("wild" in c for c in t.frame(2)["table"]["discards"])


def test_the_narration_says_a_seats_own_moves_without_you_or_the_bots_name(tmp_path: Path) -> None:
    t = Table("w", variant("classic"), 3, 8, ["greedy"], tmp_path)
    t.start()
    bots_to_end(t)
    runs = [line for line in t.narrators[1].since(0)]
    text = ["".join(r for r, _ in line) for line in runs]
    assert not [line for line in text if "(you)" in line or "(greedy)" in line]
    assert any(("P2", "b you") in line for line in runs)  # its own label is marked, not renamed


# -- the UNO button, play again, the host's buttons, the timer (issue 42) ---------------------------
def page_at(t: Table, seat: int | None, host: bool = False) -> tuple[Hub, Connection]:
    """A hub with `t` and a page at `seat` that has said hello (no server: messages go to `_handle`)."""
    hub = Hub()
    hub.add(t)

    async def nothing(*args: object) -> None:
        return None

    page = Connection(nothing, nothing, table=t, seat=seat, host=host)
    return hub, page


def send(hub: Hub, page: Connection, message: dict[str, object]) -> None:
    assert page.table is not None
    hub._handle(page.table, page, parse(json.dumps(message)))


def test_the_uno_button_calls_when_the_variant_asks_and_is_refused_otherwise(tmp_path: Path) -> None:
    t = people(tmp_path, seed=4)
    hub, page = page_at(t, 0)
    with pytest.raises(Refused, match="no UNO to call now"):
        send(hub, page, {"type": "uno", "action": "call"})

    def asked_to_call() -> bool:
        d = t.game.decision if t.game is not None else None
        return d is not None and d.player == 0 and d.kind == "ask" and d.prompt == "call_uno"

    play_people_until(t, asked_to_call)
    uno = t.frame(0)["you"]["uno"]
    assert uno == {"action": "call", "decision": t.decision_id, "yes": 0, "no": 1} or \
        uno == {"action": "call", "decision": t.decision_id, "yes": 1, "no": 0}
    assert t.frame(1)["you"]["uno"] is None and t.frame(None)["you"] is None
    with pytest.raises(Refused, match="nobody to catch"):
        send(hub, page, {"type": "uno", "action": "catch"})
    answered = len(t.game.actions) if t.game else 0
    send(hub, page, {"type": "uno", "action": "call"})
    assert t.game is not None and t.game.actions[answered] is True
    said = ["".join(r for r, _ in line).strip() for line in t.narrators[0].since(0)]  # (its own answer: P1's)
    assert "P1 calls UNO" in said[-3:]


@pytest.mark.parametrize(("name", "shown"), [("classic", True), ("triple_play", True), ("house/doubles", True),
                                             ("dos", False), ("crazy_eights", False)])
def test_the_uno_button_is_shown_only_where_the_variant_asks_the_uno_call(tmp_path: Path, name: str,
                                                                          shown: bool) -> None:
    """DOS asks its own call ("call_dos") as a question, and Crazy Eights asks none: no button."""
    t = table(tmp_path, name)
    assert t.frame(0)["uno_button"] is shown  # (in the lobby too: the page knows before a game)
    t.take(0)
    t.start()
    assert [t.frame(seat)["uno_button"] for seat in (0, 1, None)] == [shown] * 3


@pytest.mark.parametrize(("asks", "shown"), [
    ('if ask(player, "catch_uno") then draw(player, 1)', True),  # a catch alone is the button's too
    ('if ask(player, "call_uno") then draw(player, 1)', True),
    ('if ask(player, "shout") then draw(player, 1)', False),
    ('q = if count(hand) > 2 then "shout" else "whisper"; if ask(player, q) then draw(player, 1)', True),
])
def test_the_uno_button_follows_the_questions_the_file_asks(tmp_path: Path, asks: str, shown: bool) -> None:
    """A question named otherwise than by a text may be the call: the button is shown then."""
    path = tmp_path / "asks.yaml"
    path.write_text("extends: crazy_eights\nname: asks\nrules:\n  - name: asked\n    on: turn_start\n"
                    f"    do: {json.dumps(asks)}\n")
    t = Table("t1", load_variant(path), 3, 5, ["greedy"], tmp_path)
    assert t.frame(0)["uno_button"] is shown


def test_the_uno_button_catches_a_missed_call(tmp_path: Path) -> None:
    t = Table("c", variant("classic"), 3, 1, ["random"], tmp_path)
    t.take(0)
    t.start()
    hub, page = page_at(t, 0)

    def asked_to_catch() -> bool:
        d = t.game.decision if t.game is not None else None
        return d is not None and d.player == 0 and d.kind == "ask" and d.prompt == "catch_uno"

    play_people_until(t, asked_to_catch, most=5000)
    assert t.frame(0)["you"]["uno"]["action"] == "catch"
    send(hub, page, {"type": "uno", "action": "catch"})
    said = ["".join(r for r, _ in line).strip() for line in t.narrators[0].since(0)]
    assert "P1 catches a missed UNO" in said[-3:]
    assert any(line.endswith("caught not calling UNO") for line in said[-3:])


def test_any_player_may_ask_for_another_game_and_the_host_starts_it(tmp_path: Path) -> None:
    t = people(tmp_path, seed=11, players=2)
    hub, p2 = page_at(t, 1)
    with pytest.raises(Refused, match="still on"):
        send(hub, p2, {"type": "again"})
    play_people_until(t, lambda: t.status == "over", most=20_000)
    end = t.frame(1)
    assert end["scores"]["winners"] and end["scores"]["rounds"]
    last = end["scores"]["rounds"][-1]
    assert last["totals"] == [s["score"] for s in end["table"]["seats"]]
    assert end["host"] is None and t.frame(0, host=True)["host"]["start"] is True
    send(hub, p2, {"type": "again"})
    assert t.frame(0)["again"] == [1] and t.frame(0)["notice"]["kind"] == "again"
    host = Connection(p2.send, p2.close, table=t, seat=0, host=True)
    send(hub, host, {"type": "host", "action": "start"})
    assert t.number == 2 and t.status == "playing" and t.frame(0)["again"] == []
    assert t.frame(0)["scores"] == {"rounds": [], "winners": None}


def test_the_frames_say_which_host_buttons_can_act(tmp_path: Path) -> None:
    t = table(tmp_path)
    t.take(0)
    assert t.frame(0, host=True)["host"] == {"start": True, "restart": False, "undo": False, "save": False,
                                             "seats": True}
    assert t.frame(0)["host"] is None  # not the host's page
    t.start()
    assert t.frame(0, host=True)["host"] == {"start": False, "restart": True, "undo": False, "save": True,
                                             "seats": True}
    bots_to_end(t)
    t.answer(0, t.decision_id or "", 0)
    assert t.frame(0, host=True)["host"]["undo"] is True


def test_a_person_out_of_time_gets_the_bots_answer_and_everyone_is_told(tmp_path: Path) -> None:
    clock = Clock()
    t = people(tmp_path, clock=clock, turn_seconds=30.0)
    bots_to_end(t)
    game = t.game
    assert game is not None and game.decision is not None
    seat = game.decision.player
    assert t.frame(seat)["timer"] == {"seconds": 30.0, "mine": True}
    other = 2 if seat != 2 else 1
    assert t.frame(other)["timer"] == ({"seconds": 30.0, "mine": False} if game.decision.kind == "turn" else None)
    clock.now += 12.5
    assert t.frame(seat)["timer"] == {"seconds": 17.5, "mine": True}
    assert t.bot_move() is None  # time is left: the person is waited for
    clock.now += 17.5
    move = t.bot_move()
    assert move is not None and move[0] is t.seats[seat].agent  # the bot that "let a bot play for me" uses
    twin = t.seats[seat].agent
    agent, g, version = move
    assert g.decision is not None
    choice = agent.choose(g, g.decision)
    assert t.apply_bot(g, version, choice)
    assert t.seats[seat].person and twin is t.seats[seat].agent  # the seat stays the person's
    told = t.frame(None)["notice"]
    assert told["kind"] == "timer" and told["text"] == f"{t.name(seat)} ran out of time: their bot answered for them"
    assert t.deciders[-1] == (seat, False)


def test_without_a_turn_timer_frames_carry_no_timer(tmp_path: Path) -> None:
    t = people(tmp_path)
    bots_to_end(t)
    assert t.frame(0)["timer"] is None and t.bot_move() is None
