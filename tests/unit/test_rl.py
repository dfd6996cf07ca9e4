"""The PettingZoo environment (unodsl.rl, the optional [rl] extra): PettingZoo's own
API and seed tests for every shipped variant and house overlay, the action table,
the observation, rewards, truncation and a variant's runtime error."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from tests.helpers import ROOT, classic_with
from unodsl import DRAW, KEEP, PASS, Game, IllegalAction, Play, load_variant
from unodsl.engine.actions import Lay
from unodsl.engine.cards import Card
from unodsl.errors import UnoDslError
from unodsl.rl import KINDS, LAY_SLOTS, UnoEnv, env, random_policy_episode
from unodsl.variant.resolve import shipped_names

NAMES = shipped_names()
ROW = str(ROOT / "tests" / "property" / "row_plays.yaml")  # a declared row zone: plays onto a chosen card


def seats(name: str, wanted: int = 3) -> int:
    v = load_variant(name)
    return max(v.min_players, min(v.max_players, wanted))


def test_every_shipped_variant_and_house_overlay_is_tested() -> None:
    files = sorted((ROOT / "variants").glob("*.yaml")) + sorted((ROOT / "variants" / "house").glob("*.yaml"))
    assert len(NAMES) == len(files) >= 9
    assert {n.split("/")[-1] for n in NAMES} == {f.stem for f in files}


@pytest.mark.parametrize("name", [*NAMES, ROW])
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(env(name, players=seats(name), seed=1), num_cycles=8)


@pytest.mark.parametrize("name", [*NAMES, ROW])
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: env(name, players=seats(name), seed=1), num_cycles=8)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("reward", ["win", "points"])
def test_pettingzoo_api_test_passes_at_length(name: str, reward: str) -> None:
    api_test(env(name, players=seats(name, 4), seed=2, reward=reward), num_cycles=300)
    seed_test(lambda: env(name, players=seats(name, 4), seed=2, reward=reward), num_cycles=300)


# -- the action table -----------------------------------------------------------

def _face(card: Card) -> Any:
    return card.faces[card.side]


def _key(option: Any, player: int, n: int, game: Game | None = None) -> Any:
    """What an action stands for: a card's face, a colour, a seat relative to the chooser, a word,
    a declared play by its way, its target (its face, and its place in its row: 1 for the
    first card, 0 for a pile's top) and its cards' faces in order."""
    if isinstance(option, Lay):
        at = 0
        for zone in (game.variant.zones if game is not None else ()):
            if zone.shape == "row" and game is not None:  # (a pile's top is at 0, whatever lies under it)
                at = next((i + 1 for i, c in enumerate(game.places[zone.name]) if c.id == option.target.id), at)
        return ("lay", option.way, _face(option.target), at, tuple(_face(c) for c in option.cards))
    if isinstance(option, Play):
        return ("face", _face(option.card))
    if isinstance(option, Card):
        return ("face", _face(option))
    if isinstance(option, bool):
        return ("yes" if option else "no",)
    if isinstance(option, int):
        return ("seat", (option - player) % n)
    if isinstance(option, str):
        return ("colour", option)
    return (str(option),)


@pytest.mark.parametrize("name", [*NAMES, ROW])
def test_every_option_of_every_decision_maps_to_exactly_one_action(name: str) -> None:
    e = env(name, players=seats(name), seed=4)
    rng = random.Random(4)
    kinds: set[str] = set()
    targets = 0  # the most targets of declared plays one decision offered
    for _ in range(400):
        if not e.agents:
            e.reset()
        agent = e.agent_selection
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        assert e.game is not None and e.game.decision is not None
        d = e.game.decision
        kinds.add(d.kind)
        legal = e.legal_actions(d)
        by_key: dict[Any, int] = {}
        for option in d.options:
            matching = [a for a, o in legal.items()
                        if _key(o, d.player, e.n, e.game) == _key(option, d.player, e.n, e.game)]
            assert len(matching) == 1, (d, option)
            by_key.setdefault(_key(option, d.player, e.n, e.game), matching[0])
        # distinct faces, colours, seats and words are distinct actions; each answers with its first option
        assert len(set(by_key.values())) == len(by_key) == len(legal)
        for a, option in legal.items():
            first = next(o for o in d.options
                         if _key(o, d.player, e.n, e.game) == _key(option, d.player, e.n, e.game))
            assert option is first
            described = e.action_names[a]
            if isinstance(option, Play | Card):
                card = option.card if isinstance(option, Play) else option
                assert described.startswith(card.label)
            elif isinstance(option, bool):
                assert described == ("yes" if option else "no")
            elif isinstance(option, int):  # a seat, counted from the chooser in seat order
                assert described == f"seat +{(option - d.player) % e.n}"
            elif isinstance(option, str):
                assert described == f"colour {option}"
            elif isinstance(option, Lay):  # a slot, whose play the observation describes
                assert described == f"lay {a - e.lay_base}"
                assert _slot(e, obs["observation"], a - e.lay_base) == _key(option, d.player, e.n, e.game)
            else:
                assert described == str(option)
        lays = [a for a, o in legal.items() if isinstance(o, Lay)]
        assert lays == list(range(e.lay_base, e.lay_base + len(lays))), "the slots are filled from the first"
        if lays:
            kinds.add("lay")
            targets = max(targets, len({legal[a].target.id for a in lays}))
            assert _slot(e, obs["observation"], len(lays)) is None, "the slots after the last are empty"
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(legal)
        assert obs["action_mask"].dtype == np.int8
        assert e.agents.index(agent) >= 0 and e.possible_agents[d.player] == agent
        e.step(rng.choice(sorted(legal)))
    assert "turn" in kinds
    if name == "house/seven_zero":
        assert "player" in kinds
    assert ("lay" in kinds) == bool(e.variant.turn.plays)
    if name == ROW:
        assert targets > 1, "plays onto more than one card of the row"


def _slot(e: UnoEnv, vec: Any, slot: int) -> Any:
    """The play lay slot `slot` stands for, read back from the observation alone (as _key
    gives it), or None for an empty slot."""
    way = int(vec[e.layout["lay_way"]][slot])
    target = int(vec[e.layout["lay_target"]][slot])
    at = int(vec[e.layout["lay_target_at"]][slot])
    cards = [int(f) for f in vec[e.layout["lay_cards"]][slot * e.lay_most:(slot + 1) * e.lay_most]]
    if not way:
        assert target == at == 0 and not any(cards)
        return None
    faces = cards[:cards.index(0)] if 0 in cards else cards
    assert target and faces and not any(cards[len(faces):])
    return ("lay", e.ways[way - 1], e.faces[target - 1], at, tuple(e.faces[f - 1] for f in faces))


def test_the_action_space_is_derived_from_the_variant() -> None:
    classic, flip = env("classic", players=4), env("flip", players=3)
    assert classic.num_actions == 54 + 4 + 4 + 5
    assert flip.num_actions == 107 + 8 + 3 + 5
    assert [flip.action_names[a] for a in range(flip.color_base, flip.seat_base)] == [
        "colour red", "colour yellow", "colour green", "colour blue",
        "colour pink", "colour teal", "colour orange", "colour purple"]
    assert classic.action_names[-5:] == ["yes", "no", "draw", "keep", "pass"]
    assert classic.action_space("player_0").n == classic.num_actions


def test_a_variant_without_declared_plays_has_no_lay_slots() -> None:
    classic = env("classic", players=4)
    assert classic.lay_slots == 0 and classic.num_actions == classic.lay_base == 54 + 4 + 4 + 5
    assert not [name for name, _, _ in classic.layout.parts if name.startswith("lay_")]


def test_a_variant_with_declared_plays_has_lay_slots_after_the_words() -> None:
    doubles = env("house/doubles", players=4)
    assert doubles.ways == ["doubles"] and doubles.lay_slots == LAY_SLOTS
    assert doubles.num_actions == 54 + 4 + 4 + 5 + LAY_SLOTS
    assert doubles.action_names[doubles.lay_base - 5:doubles.lay_base + 2] == [
        "yes", "no", "draw", "keep", "pass", "lay 0", "lay 1"]
    assert [(name, length) for name, _, length in doubles.layout.parts[-4:]] == [
        ("lay_way", LAY_SLOTS), ("lay_target", LAY_SLOTS), ("lay_target_at", LAY_SLOTS), ("lay_cards", LAY_SLOTS * 4)]
    high = doubles.observation_space("player_0")["observation"].high
    assert high[doubles.layout["lay_way"]].max() == 1 and high[doubles.layout["lay_cards"]].max() == 54
    assert env("house/doubles", players=2, lay_slots=5).num_actions == 54 + 4 + 2 + 5 + 5


def test_each_declared_play_of_a_decision_is_one_slot_in_canonical_order() -> None:
    e = env("house/doubles", players=2, seed=0)
    g = e.game
    assert g is not None
    # blue first is illegal (neither red nor a 3): red 7 + blue 7 and red 7 + blue 7 + blue 7 only
    g.arrange({0: ["red 7", "blue 7", "blue 7", "green 2"], 1: ["green 2", "green 4"]}, discard=["red 3"])
    d = g.decision
    assert d is not None and d.player == 0
    legal = e.legal_actions(d)
    lays = {a - e.lay_base: o for a, o in legal.items() if isinstance(o, Lay)}
    assert {k: [c.label for c in o.cards] for k, o in lays.items()} == {
        0: ["red 7", "blue 7"], 1: ["red 7", "blue 7", "blue 7"]}
    assert all(o in d.options for o in lays.values())
    vec = e.observe("player_0")["observation"]
    assert [_slot(e, vec, k) for k in range(3)] == [_key(lays[0], 0, 2), _key(lays[1], 0, 2), None]
    assert legal[e.action_names.index("red 7")] == Play(g.hands[0][0])
    e._legal = legal  # (arranged behind the env's back)
    assert e.lay_base == 65
    assert e.describe().endswith("62=draw, 65=doubles: red 7 + blue 7 on red 3, "
                                 "66=doubles: red 7 + blue 7 + blue 7 on red 3")


def test_two_row_cards_of_one_face_are_two_targets() -> None:
    # (two cards of a row may differ by more than their face: a number said for a Wild #)
    e = env(ROW, players=2, seed=0)
    g = e.game
    assert g is not None
    g.arrange({0: ["red 7", "green 2"], 1: ["green 2", "green 4"]}, discard=["blue 3"],
              draw=["red 1", "red 1", "yellow 4"])
    assert [c.label for c in g.places["center_row"]] == ["red 1", "red 1"]
    d = g.decision
    assert d is not None
    legal = e.legal_actions(d)
    lays = {a - e.lay_base: o for a, o in legal.items() if isinstance(o, Lay)}
    assert [(o.target.id, [c.label for c in o.cards]) for o in lays.values()] == [
        (c.id, ["red 7"]) for c in g.places["center_row"]]
    vec = e.observe("player_0")["observation"]
    assert [_slot(e, vec, k)[3] for k in (0, 1)] == [1, 2]


def test_stepping_a_lay_slot_makes_that_play() -> None:
    e = env("house/doubles", players=2, seed=0)
    g = e.game
    assert g is not None
    g.arrange({0: ["red 7", "blue 7", "green 2"], 1: ["green 2", "green 4"]}, discard=["red 3"])
    assert g.decision is not None
    e._legal = e.legal_actions(g.decision)  # (arranged behind the env's back)
    e.step(e.lay_base)
    assert [c.label for c in g.discard_pile[-2:]] == ["red 7", "blue 7"]
    assert [c.label for c in g.hands[0]] == ["green 2"]


def test_more_declared_plays_than_lay_slots_is_a_clear_error() -> None:
    e = env("house/doubles", players=2, seed=0, lay_slots=1)
    g = e.game
    assert g is not None
    g.arrange({0: ["red 7", "blue 7", "blue 7"], 1: ["green 2", "green 4"]}, discard=["red 3"])
    assert g.decision is not None
    with pytest.raises(UnoDslError, match=r"offers 2 different declared plays, more than this environment's 1 "
                                          r"lay slots: make it with lay_slots=2 or more"):
        e.legal_actions(g.decision)
    with pytest.raises(UnoDslError, match="lay_slots must be between 1 and"):
        env("house/doubles", lay_slots=0)


def test_the_declared_zones_are_seen_as_their_shows_says(tmp_path: Path) -> None:
    path = tmp_path / "stock.yaml"
    path.write_text("extends: classic\nname: stock\nzones:\n  stock: {owner: player, shows: owner}\n"
                    "  center_row: {shape: row}\n  face_down: {shows: none}\n")
    e = env(str(path), players=3)
    assert e.layout["zones"].stop - e.layout["zones"].start == (3 + 1 + 1) * (54 + 1)
    g = e.game
    assert g is not None
    g.arrange({0: ["red 1"], 1: ["red 2"], 2: ["red 3"]}, discard=["red 4"],
              zones={"stock 1": ["blue 5", "blue 5"], "stock 2": ["green 6"], "center_row": ["yellow 7", "wild"],
                     "face_down": ["red 8"]})

    def zone(vec: Any, i: int) -> tuple[dict[str, int], int]:
        block = vec[e.layout["zones"]][i * 55:(i + 1) * 55]
        return {e.faces[f].label: int(c) for f, c in enumerate(block[:54]) if c}, int(block[54])

    seen = e.observe("player_1")["observation"]  # stock: own (seat 1), seat 2, seat 0; then the row, face_down
    assert [zone(seen, i) for i in range(5)] == [({"blue 5": 2}, 2), ({}, 1), ({}, 0),
                                                 ({"yellow 7": 1, "wild": 1}, 2), ({}, 1)]
    seen = e.observe("player_2")["observation"]
    assert [zone(seen, i) for i in range(3)] == [({"green 6": 1}, 1), ({}, 0), ({}, 2)]
    assert e.observation_space("player_0")["observation"].contains(seen)  # type: ignore[index]
    assert "zones" not in [name for name, _, _ in env("classic").layout.parts]


def test_two_cards_with_one_face_are_one_action_answered_by_the_first() -> None:
    e = env("classic", players=2, seed=0)
    g = e.game
    assert g is not None
    g.arrange({0: ["red 7", "red 7", "blue 3"], 1: ["green 2", "green 4"]}, discard=["red 1"])
    d = g.decision
    assert d is not None and d.player == 0
    legal = e.legal_actions(d)
    sevens = [o for o in d.options if isinstance(o, Play) and o.card.label == "red 7"]
    assert len(sevens) == 2 and sevens[0].card.id != sevens[1].card.id
    action = e.action_names.index("red 7")
    assert legal[action] is sevens[0]
    assert legal[e.action_names.index("draw")] is DRAW
    assert e.action_names.index("blue 3") not in legal


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env("classic", players=2, seed=3)
    assert e.game is not None
    before = e.game.actions[:]
    illegal = next(a for a in range(e.num_actions) if a not in e.legal_actions(e.game.decision))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=re.escape(f"cannot take action {illegal}")):
        e.step(illegal)
    assert e.game.actions == before


# -- observations -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["classic", "flip", "duo", "all_wild"])
def test_the_observation_encodes_what_the_player_sees(name: str) -> None:
    e = env(name, players=seats(name), seed=5)
    rng = random.Random(5)
    layout = e.layout
    for _ in range(150):
        if not e.agents:
            e.reset()
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        g, p = e.game, e.possible_agents.index(e.agent_selection)
        assert g is not None and g.decision is not None
        view = g.view(p)
        vec = obs["observation"]
        assert e.observation_space(e.agent_selection).contains(obs)
        hand = vec[layout["hand"]]
        assert hand.sum() == len(view.hand)
        for card in view.hand:
            assert hand[e.faces.index(_face(card))] >= 1
        top = vec[layout["top"]]
        if view.top is None:  # a decision of the set-up, before the first card is turned up
            assert top.sum() == 0
        else:
            assert top.sum() == 1 and e.faces[int(np.argmax(top))].label == view.top
        colour = vec[layout["color"]]
        if view.current_color is None:
            assert colour.sum() == 0
        else:
            assert e.colors[int(np.argmax(colour))] == view.current_color
        assert vec[layout["side"]].tolist()[g.side] == 1
        assert vec[layout["direction"]][0] == (1.0 if view.direction == 1 else 0.0)
        sizes = {o.seat: o.hand_size for o in view.opponents}
        assert vec[layout["hand_sizes"]].tolist() == [sizes[(p + k) % e.n] for k in range(1, e.n)]
        assert KINDS[int(np.argmax(vec[layout["kind"]]))] == g.decision.kind
        about = vec[layout["about"]]
        assert about.sum() == (g.decision.about is not None)
        assert vec[layout["prompt"]].sum() == bool(g.decision.prompt)
        other = e.possible_agents[(p + 1) % e.n]
        other_obs = e.observe(other)
        assert other_obs["action_mask"].sum() == 0 and other_obs["observation"][layout["kind"]].sum() == 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_render_tells_the_table_and_the_legal_actions() -> None:
    e = env("classic", players=3, seed=2, render_mode="ansi")
    text = e.render()
    assert text is not None and text.startswith("UNO Classic: round 1, turn 1")
    assert "player_2: 7 cards" in text and "=draw" in text
    assert env("classic", players=3).render() is None


# -- rewards, episodes, truncation, errors -------------------------------------

def _play_out(e: UnoEnv, rng: random.Random) -> tuple[dict[str, float], dict[str, bool]]:
    """Masked random actions until every agent is done; totals and each agent's end (terminated?)."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    ends: dict[str, bool] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += float(reward)
        if terminated or truncated:
            ends[agent] = terminated
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals, ends


@pytest.mark.parametrize("name", NAMES)
def test_random_policy_loop_ends_every_agent_with_the_round_rewards(name: str) -> None:
    n = seats(name)
    for reward in ("win", "points"):
        e = env(name, players=n, seed=7, reward=reward)
        totals, ends = _play_out(e, random.Random(7))
        assert e.agents == []
        assert ends == dict.fromkeys(e.possible_agents, True), "every agent terminated at the round's end"
        assert e.game is not None and len(e.game.round_turns) == 1
        if reward == "win":
            assert sorted(totals.values()) == [-1.0] * (n - 1) + [1.0]
        else:
            assert abs(sum(totals.values())) < 1e-9 and all(-1 <= t <= 1 for t in totals.values())
            # A round won by the last player left (No Mercy's knock-outs) may score nothing.
            assert any(t != 0 for t in totals.values()) == any(e.game.scores)


def test_points_reward_follows_the_round_score() -> None:
    e = env("classic", players=3, seed=11, reward="points")
    totals, _ = _play_out(e, random.Random(1))
    assert e.game is not None
    scores = e.game.scores
    winner = scores.index(max(scores))
    assert max(totals, key=lambda a: totals[a]) == f"player_{winner}"
    deck_points = sum(f.points for f in e.variant.sides[0].faces)
    assert totals[f"player_{winner}"] == pytest.approx(scores[winner] * (1 - 1 / 3) / deck_points)


def test_points_reward_favours_the_lowest_when_the_lowest_score_wins() -> None:
    e = env("duo", players=2, seed=3, reward="points")
    totals, _ = _play_out(e, random.Random(3))
    assert e.game is not None
    loser = max(range(2), key=lambda q: e.game.scores[q])  # type: ignore[union-attr]
    assert totals[f"player_{loser}"] < 0 < totals[f"player_{1 - loser}"]


def test_a_game_episode_goes_on_to_the_game_winner() -> None:
    e = env("duo", players=2, seed=2, episode="game")
    totals, ends = _play_out(e, random.Random(2))
    assert e.game is not None and e.game.over and len(e.game.round_turns) >= 1
    assert totals == {f"player_{q}": (1.0 if q == e.game.winner else -1.0) for q in range(2)}
    assert all(ends.values())


def test_a_runaway_round_is_truncated_not_raised() -> None:
    e = env("classic", players=2, seed=1, max_turns=6)
    ended: dict[str, Any] = {}
    for agent in e.agent_iter(200):
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            ended[agent] = (terminated, truncated, info)
            e.step(None)
            continue
        e.step(e.action_names.index("draw") if obs["action_mask"][e.action_names.index("draw")]
               else int(np.flatnonzero(obs["action_mask"])[0]))
    assert set(ended) == set(e.possible_agents)
    for terminated, truncated, info in ended.values():
        assert (terminated, truncated) == (False, True)
        assert "passed 6 turns" in info["truncated"]


def test_a_runtime_error_of_the_variant_terminates_with_its_message(tmp_path: Path) -> None:
    path = classic_with(tmp_path, "on_play: skip()                            # CL-9",
                        "on_play: skip(10 / (player_count - player_count))")
    failed = None
    for seed in range(10):
        e = env(path, players=3, seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter(3000):
            obs, _, terminated, truncated, info = e.last()
            if terminated or truncated:
                if "error" in info:
                    failed = (terminated, truncated, info["error"], e.rewards[agent])
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if failed:
            break
    assert failed is not None, "no game met the failing card"
    terminated, truncated, message, reward = failed
    assert (terminated, truncated, reward) == (True, False, 0.0)
    assert "division by zero" in message and f"{path}:" in message


def test_reset_with_a_seed_deals_the_game_of_that_seed() -> None:
    e = env("flip", players=4, seed=1)
    for seed in (1, 9):
        e.reset(seed=seed)
        g = Game(load_variant("flip"), 4, seed)
        assert e.game is not None and e.game.decision is not None and g.decision is not None
        assert e.game.decision.player == g.decision.player
        assert [str(o) for o in e.game.decision.options] == [str(o) for o in g.decision.options]
        assert [c.id for c in e.game.hands[0]] == [c.id for c in g.hands[0]]
    e.reset()  # the next seed
    assert e.game is not None and [c.id for c in e.game.hands[0]] == [
        c.id for c in Game(load_variant("flip"), 4, 10).hands[0]]


def test_the_random_policy_helper_plays_one_episode() -> None:
    e = env("classic", players=2, seed=3)
    totals = random_policy_episode(e, random.Random(0))
    assert sorted(totals.values()) == [-1.0, 1.0] and e.agents == []


def test_settings_are_checked() -> None:
    from unodsl.errors import UnoDslError
    with pytest.raises(UnoDslError, match="reward must be"):
        env("classic", reward="score")
    with pytest.raises(UnoDslError, match="2–2 players, not 3"):
        env("duo", players=3)
    assert KEEP is not PASS  # the words are distinct actions


# -- docs/rl.md ---------------------------------------------------------------------

DOC = ROOT / "docs" / "rl.md"


def test_the_random_policy_loop_in_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- rl-example -->\n```python\n(.*?)```", text, re.S)
    assert block is not None, "docs/rl.md has no rl-example block"
    scope: dict[str, Any] = {}
    exec(compile(block.group(1), str(DOC), "exec"), scope)
    returns = scope["returns"]
    assert sorted(returns.values()) == [-1.0, -1.0, -1.0, 1.0]
    assert scope["table"].agents == []
    assert str(returns) in capsys.readouterr().out


def test_the_docs_action_table_counts_are_the_environments() -> None:
    rows = re.findall(r"^\| ([a-z_/]+)[^|]*\| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", DOC.read_text(encoding="utf-8"),
                      re.M)
    assert len(rows) == 9
    for name, faces, colours, slots, actions in rows:
        e = env(name, players=seats(name, 4))
        assert (len(e.faces), len(e.colors), e.lay_slots, e.num_actions) == (
            int(faces), int(colours), int(slots), int(actions)), name
