"""The PettingZoo environment returns what it always returned: its observations are
those of the public `Game.observation` encoded the slow, obvious way; its masks are the
decision's options; and the whole stream of seeded random-policy episodes (every
agent's observation and mask at every step, rewards, ends, infos) hashes to the digest
it had before the encoder was made fast (the env built its observation from a
PlayerView until 168351b; the digests below were computed there)."""

from __future__ import annotations

import hashlib
import random
import zlib
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np

from tests.helpers import ROOT
from unodsl import Game, Play
from unodsl.engine.actions import Decision, Lay
from unodsl.engine.cards import Card
from unodsl.rl import KINDS, PROMPT_BUCKETS, WORDS, UnoEnv, env
from unodsl.variant.resolve import shipped_names

MIRROR = str(ROOT / "tests" / "benchmarks" / "rlcard_mirror.yaml")
ROW = str(ROOT / "tests" / "property" / "row_plays.yaml")  # plays onto a chosen card of a declared row


def reference_observation(e: UnoEnv, game: Game, p: int) -> Any:
    """Seat `p`'s observation from `game.observation(p)` (a PlayerView), part by part."""
    vec = np.zeros(e.layout.size, dtype=np.float32)
    at = {name: part.start for name, part in ((n, e.layout[n]) for n, _, _ in e.layout.parts)}
    view = game.observation(p)
    face = {f: i for i, f in enumerate(e.faces)}
    for card in view.hand:
        vec[at["hand"] + face[card.faces[card.side]]] += 1
    if view.top is not None:
        side = next(s for s in e.variant.sides if s.name == view.side)
        tops = [f for f in side.faces if f.label == view.top]
        if tops:
            vec[at["top"] + face[tops[0]]] = 1
    if view.current_color in e.colors:
        vec[at["color"] + e.colors.index(view.current_color)] = 1
    vec[at["side"] + [s.name for s in e.variant.sides].index(view.side)] = 1
    vec[at["direction"]] = 1.0 if view.direction == 1 else 0.0
    sizes = {o.seat: o.hand_size for o in view.opponents}
    target = max(e.variant.scoring.target or max(max(view.scores), 1), 1)
    for k in range(1, e.n):
        vec[at["hand_sizes"] + k - 1] = sizes[(p + k) % e.n]
    for k in range(e.n):
        vec[at["scores"] + k] = min(max(view.scores[(p + k) % e.n] / target, 0.0), 2.0)
    vec[at["penalty"]] = view.penalty
    vec[at["draw_pile"]] = view.draw_pile_size
    if view.zones:  # the table's zones, then each player's from `p` on, each: faces counted, then its size
        side = next(s for s in e.variant.sides if s.name == view.side)
        by_label = {f.label: face[f] for f in reversed(side.faces)}
        rank = {z.name: i for i, z in enumerate(e.declared)}
        zones = sorted(view.zones, key=lambda z: (rank[z.name], 0 if z.seat is None else (z.seat - p) % e.n))
        for i, z in enumerate(zones):
            base = at["zones"] + i * (len(e.faces) + 1)
            for label in z.cards or ():
                vec[base + by_label[label]] += 1
            vec[base + len(e.faces)] = z.size
    d = game.decision
    if d is not None and d.player == p:
        vec[at["kind"] + KINDS.index(d.kind)] = 1
        if d.about is not None:
            vec[at["about"] + face[d.about.faces[d.about.side]]] = 1
        if d.prompt:
            vec[at["prompt"] + zlib.crc32(d.prompt.encode()) % PROMPT_BUCKETS] = 1
        for slot, lay in enumerate(reference_slots(e, game, d)):  # 1-based: way, target's face and place, faces
            vec[at["lay_way"] + slot] = e.ways.index(lay.way) + 1
            vec[at["lay_target"] + slot] = face[lay.target.faces[lay.target.side]] + 1
            vec[at["lay_target_at"] + slot] = place(e, game, lay)
            for i, c in enumerate(lay.cards):
                vec[at["lay_cards"] + slot * e.lay_most + i] = face[c.faces[c.side]] + 1
    np.minimum(vec, e.observation_space("player_0")["observation"].high, out=vec)
    return vec


def place(e: UnoEnv, game: Game, lay: Lay) -> int:
    """The place of a play's target in its row (1 for the first card), 0 for a pile's top."""
    way = next(w for w in e.variant.turn.plays if w.name == lay.way)
    if not way.row:
        return 0
    return [c.id for c in game.places[way.onto]].index(lay.target.id) + 1


def reference_slots(e: UnoEnv, game: Game, d: Decision) -> list[Lay]:
    """The declared plays of `d` in slot order: the first of each (way, target face and
    place, faces in order), sorted by way, target face and place, number of cards, then
    faces (as indices)."""
    def face(c: Card) -> int:
        return e.faces.index(c.faces[c.side])
    first: dict[Any, Lay] = {}
    for o in d.options:
        if isinstance(o, Lay):
            faces = tuple(face(c) for c in o.cards)
            first.setdefault((e.ways.index(o.way), face(o.target), place(e, game, o), len(faces), faces), o)
    return [first[k] for k in sorted(first)]


def reference_mask(e: UnoEnv, game: Game, agent: str) -> Any:
    """1 for the action of each option of the pending decision, if `agent` is to answer it."""
    mask = np.zeros(e.num_actions, dtype=np.int8)
    d = game.decision
    if (d is None or e.possible_agents[d.player] != agent or e.agent_selection != agent
            or e.terminations.get(agent) or e.truncations.get(agent)):
        return mask
    mask[e.lay_base:e.lay_base + len(reference_slots(e, game, d))] = 1  # a slot for each play, from the first
    for option in d.options:
        if isinstance(option, Lay):
            pass
        elif isinstance(option, Play | Card):
            card = option.card if isinstance(option, Play) else option
            mask[e.faces.index(card.faces[card.side])] = 1
        elif isinstance(option, bool):
            mask[e.word_base + WORDS.index("yes" if option else "no")] = 1
        elif isinstance(option, int):
            mask[e.seat_base + (option - d.player) % e.n] = 1
        elif isinstance(option, str):
            mask[e.color_base + e.colors.index(option)] = 1
        else:
            mask[e.word_base + WORDS.index(str(option))] = 1
    return mask


def _same(got: Any, want: Any) -> bool:
    return bool(got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes())


@pytest.mark.parametrize("name", [MIRROR, ROW, *shipped_names()])
def test_every_observation_and_mask_is_the_public_observation_encoded(name: str) -> None:
    players = {MIRROR: 4, "duo": 2, "house/partners": 4}.get(name, 3)
    e = env(name, players=players, seed=8)
    rng = random.Random(8)
    kinds: set[str] = set()
    for episode in range(2):
        if episode:
            e.reset()
        for _ in e.agent_iter(1500):
            game = e.game
            assert game is not None
            if game.decision is not None:
                kinds.add(game.decision.kind)
            for other in e.possible_agents:
                seen = e.observe(other)
                p = e.possible_agents.index(other)
                assert _same(seen["observation"], reference_observation(e, game, p)), (name, other)
                assert _same(seen["action_mask"], reference_mask(e, game, other)), (name, other)
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert "turn" in kinds


def stream_digest(name: str, players: int, seed: int, episodes: int = 2, **settings: Any) -> str:
    """sha256 of the stream of `episodes` seeded random-policy episodes: at every step
    each agent's observation and mask (dtype and bytes), then the agent to move, its
    reward, ends and infos, and every agent's reward and cumulative reward."""
    e = env(name, players=players, seed=seed, **settings)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for _ in range(episodes):
        e.reset()
        for agent in e.agent_iter(3000):
            for other in e.possible_agents:
                o = e.observe(other)
                h.update(other.encode())
                h.update(o["observation"].dtype.str.encode())
                h.update(o["observation"].tobytes())
                h.update(o["action_mask"].dtype.str.encode())
                h.update(o["action_mask"].tobytes())
            obs, reward, term, trunc, info = e.last()
            h.update(repr((agent, float(reward), term, trunc, sorted(info.items()), sorted(e.rewards.items()),
                           sorted(e._cumulative_rewards.items()))).encode())
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
    return h.hexdigest()


# (variant, players, seed, settings, digest at 168351b; those of dos and house/doubles, new
# with the lay slots, at the rlbots branch); `slow` for the longer ones.
SLOW = pytest.mark.slow
PINNED = [
    (MIRROR, 2, 3, {}, "30f71ca2d6c97199bc7910ff4ffc4fb008ad6722e0cbd6d5ab72511e5b056b63"),
    (MIRROR, 4, 3, {}, "ddab3f6c5f6c48591cb47f0940a2ae137f0d9983b955396824ff01c1e914ea67"),
    ("all_wild", 2, 3, {}, "896ff788c7259d72f50fcc2ab4a61814e7978a46d8a012094c96a6e9e61a8e31"),
    pytest.param("all_wild", 4, 3, {}, "567903c3d92bed00acbc13566721f58c5a50ca241fc1b3c1ce2d10bb021b4218", marks=SLOW),
    pytest.param("attack", 2, 3, {}, "e62058ce005e7cbc102988b0b367b4bceafd04ceaa6e40d24330e07339779d1d", marks=SLOW),
    ("attack", 4, 3, {}, "1821ca0f42715c33b1bc63fee78604bfc24f9c62ee8af90b1db43cedb7ab2a74"),
    pytest.param("classic", 2, 3, {}, "93974ed102fae28fe3de88931abe355a321867fbeb0843e5cfbddae8c358b3bf", marks=SLOW),
    ("classic", 4, 3, {}, "b2051f229b4e54f44c541479cf34502746f257a29540ae937c72231942c1b28f"),
    pytest.param("crazy_eights", 2, 3, {}, "daad9967ab5bdf8fdcca10d49a4e7f13d3904b381908d4a360fffd38c3ad3f99",
                 marks=SLOW),
    pytest.param("crazy_eights", 4, 3, {}, "68c5565f8d311069a850710cc8ebcd85e9809bb0185c40bc1b0d377887966145",
                 marks=SLOW),
    ("dos", 2, 3, {}, "ac1472d6ff06a494b6b5242ea28016bebdcce540d85c58ced201a4ae37f6a543"),  # (at rlbots)
    ("dos", 4, 3, {}, "212be53eb48285bd9f92b4bdf1084c6bf6c7699126f5a69d845b5eb4dffecad3"),
    ("duo", 2, 3, {}, "60f7051c55b6689671cce61496b3e4bacfad649f882e1b2c241012439f9f55bd"),
    pytest.param("flip", 2, 3, {}, "6f5639969a475fbb46263454b820a284452060d42ee998d20a0f941409a280ff", marks=SLOW),
    pytest.param("flip", 4, 3, {}, "eebd0e3ce26b621e8c0abf449ceec922050bf380199b962680b24ad88cee43b1", marks=SLOW),
    ("no_mercy", 2, 3, {}, "69e34e9af4d3bacd07003eea1dd5d464920fe6a1505bb9ae042469fdd49a1abc"),
    pytest.param("no_mercy", 4, 3, {}, "8a8d9dcf2ecf8ad21012d07bb7715cad6c11b4034b53809d0352ffc6950da229", marks=SLOW),
    pytest.param("pocket_pizza", 2, 3, {}, "70b3f9aff81eef6ded10fe30b0f2395b82e74b486e71e7f96c1c971e19f737a8",
                 marks=SLOW),
    pytest.param("pocket_pizza", 4, 3, {}, "72e3f14a0f29eaca32917776d52451eb9b182a27829f40f429b127465ba245d5",
                 marks=SLOW),
    pytest.param("house/draw_two_stacking", 2, 3, {},
                 "77f6ccd00ed7a2382e4229c168a7fb102b8f453a7ea7c629edbc1b9f4df8b0f3", marks=SLOW),
    pytest.param("house/draw_two_stacking", 4, 3, {},
                 "ed8475de09a9b2f2e0717a57f223649a2fb99d7e90e2ed4584e9f4f9e6162478", marks=SLOW),
    ("house/doubles", 2, 3, {}, "0d4b1bd916d1b5f7a39280c76629169beb05416841548727c07b02fa73172a79"),  # (at rlbots)
    ("house/doubles", 4, 3, {}, "1d7e19cfaef6c155e80be65b9e203e266aa2704c3fdf5f3ccd8d8da63f69b297"),
    ("house/jump_in", 2, 3, {}, "1d0df4d4515e9f14333b633d31ec19dddf23a27cbe917975e726c474ea084e9c"),
    pytest.param("house/jump_in", 4, 3, {}, "77591de154a4ad5dc22372723f58799dc61107d9af8cf17f5da9e7ff4dbf546d",
                 marks=SLOW),
    pytest.param("house/launcher", 2, 3, {}, "5d15601bc7c2bd5fec07b9ff472bbb29795ece1b1e1b985455878befd230a833",
                 marks=SLOW),
    pytest.param("house/launcher", 4, 3, {}, "6d712c550794676d28e386b0007e70c95d97cb1241172d1618420fb41efb1efa",
                 marks=SLOW),
    pytest.param("house/mercy", 2, 3, {}, "93974ed102fae28fe3de88931abe355a321867fbeb0843e5cfbddae8c358b3bf",
                 marks=SLOW),
    pytest.param("house/mercy", 4, 3, {}, "b2051f229b4e54f44c541479cf34502746f257a29540ae937c72231942c1b28f",
                 marks=SLOW),
    ("house/partners", 4, 3, {}, "845c85d38d3eb23c0f46cc3cccaf96028ab5b487840cc253a4e6c49586e3b373"),
    ("house/quick_stacking", 2, 3, {}, "99a17baa9b9c3e69a7155843bb055270c99fbdfa635005ed9b7ccc713f481aa1"),
    pytest.param("house/quick_stacking", 4, 3, {}, "9140999aa1e62b8834b0b238446391b83d307da927bd43a69846f57d0e8efce2",
                 marks=SLOW),
    ("house/seven_zero", 2, 3, {}, "40084047998e3a2da0ef3370ac6ca56e1a94aa8e7387a10f7ab2a29529b02cbe"),
    pytest.param("house/seven_zero", 4, 3, {}, "2209e25ad344abfa0ded26a2553f9eded8123203f7d301c67314ad5f5594ee00",
                 marks=SLOW),
    ("flip", 3, 5, {"reward": "points"}, "d080df22d3fd0255c9caf5dc22d8ab753addc4e06de7b91b25102c76876875be"),
    pytest.param("duo", 2, 2, {"episode": "game"}, "fc243da5b738dc6be75cf964d83bf19489cfd7031463cf344743852d5c511a60",
                 marks=SLOW),
    pytest.param("house/partners", 4, 1, {"reward": "points", "episode": "game"},
                 "c15dff2da80d38e439bef1c7846ab8d526d6f0819d1081b3df96a9d93fb44cf9", marks=SLOW),
    ("classic", 2, 1, {"max_turns": 6}, "6de7cee7b91cecb1c011578b521f31762150c81325b0ab35ac2af3a041de6432"),
]


@pytest.mark.parametrize(("name", "players", "seed", "settings", "digest"), PINNED)
def test_the_stream_of_seeded_episodes_is_what_it_was(name: str, players: int, seed: int,
                                                      settings: dict[str, Any], digest: str) -> None:
    """A difference here means the env (or the games the engine plays) changed what it
    returns: if the engine's games changed on purpose, regenerate with `stream_digest`
    and say why in the commit."""
    assert stream_digest(name, players, seed, **settings) == digest


def test_the_pinned_cases_cover_every_shipped_variant_at_two_and_four() -> None:
    named = {(p.values[0] if hasattr(p, "values") else p[0]) for p in PINNED}
    assert set(shipped_names()) <= named and MIRROR in named
