"""A PettingZoo AEC environment for any variant (the optional `[rl]` extra).

`env("flip", players=4, seed=1)` seats `player_0` … `player_{n-1}` at a game of
the variant and lets each answer the decisions put to it. Everything is derived
from the variant's model (its sides, faces, colours and scoring), and the game
runs through the engine's public contract only: `decision`, `apply`, `view`.

Spaces (see docs/rl.md for the full layout):

- the action space is a fixed `Discrete(F + C + n + 5 + N)`: one action per distinct
  card face of every side (play that face on a turn, a drawn card or a jump-in;
  choose it when asked for a card), one per colour of every side, one per seat
  (relative to the player deciding: 0 is itself, 1 the next seat …), then yes,
  no, draw, keep and pass, then N numbers for `choose_number`: action +k picks the
  k-th number offered (lo + k). N is 0 for a variant that never asks for a number,
  its widest range when each range's bounds are written as numbers or options,
  else 1,000 (the most a range may hold). Two cards with the same face are one
  action (the first matching option is taken). A variant with declared plays
  (`turn: plays:`) has K more actions after those, `lay_slots` (256 by default): the
  declared plays a decision offers, one per slot in a canonical order, each slot
  described in the observation by indices (`lay_way`, `lay_target`, `lay_target_at`,
  `lay_cards`); see `lay_options`.
- the observation is a `Dict` of `observation` (a float32 `Box`, layout in
  `ObservationLayout`) and `action_mask` (int8, 1 for each legal action of the
  player to move, all 0 for the others).

Rewards come when a round (or the game, `episode="game"`) ends: `reward="win"`
gives +1 to the winner and -1 to the others; `reward="points"` gives the round's
points, centred and divided by the deck's points (see `_points_rewards`).

A round that passes `max_turns` turns, or a game that passes `max_rounds`, is
*truncated*. A runtime error of the variant (a fault in one of its rules) ends
the episode: every agent is *terminated* with reward 0 and the error's message
in `infos[agent]["error"]`. An illegal action is refused with an `IllegalAction`
and changes nothing (wrap the env in PettingZoo's `TerminateIllegalWrapper` to
end the episode instead).
"""

from __future__ import annotations

import random
import zlib
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as missing:  # pragma: no cover - depends on what is installed
    raise ImportError(f"unodsl.rl needs the [rl] extra ({missing.name} is missing): "
                      "pip install 'unodsl[rl]'") from missing

from .engine.actions import DRAW, KEEP, PASS, Decision, Lay, Play
from .engine.actions import KINDS as DECISION_KINDS
from .engine.cards import Card
from .engine.events import seat_zone
from .engine.game import MAX_TURNS, Game
from .engine.zones import said
from .errors import GameError, IllegalAction, RunawayRound, UnoDslError
from .model import Face, Variant
from .variant.asks import numbers_offered
from .variant.load import load_variant

KINDS = tuple(DECISION_KINDS)
PROMPT_BUCKETS = 8  # a decision's prompt, hashed (crc32) into one of these
WORDS = ("yes", "no", "draw", "keep", "pass")
LAY_SLOTS = 256  # the declared plays one decision may offer (distinct by way, target face, faces): see docs/rl.md
_FLOAT32, _INT8 = np.dtype(np.float32), np.dtype(np.int8)


@dataclass(frozen=True)
class ObservationLayout:
    """Where each part of the observation vector starts and how long it is, in order."""

    parts: tuple[tuple[str, int, int], ...]  # (name, start, length)

    @property
    def size(self) -> int:
        _, start, length = self.parts[-1]
        return start + length

    def __getitem__(self, name: str) -> slice:
        for part, start, length in self.parts:
            if part == name:
                return slice(start, start + length)
        raise KeyError(name)


class UnoEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of one variant for a fixed number of players (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "unodsl_v0", "is_parallelizable": False}

    def __init__(self, variant: Variant, players: int | None = None, seed: int = 0, *,
                 reward: str = "win", episode: str = "round", max_turns: int = MAX_TURNS,
                 max_rounds: int = 1_000, render_mode: str | None = None, lay_slots: int = LAY_SLOTS) -> None:
        super().__init__()
        if reward not in ("win", "points"):
            raise UnoDslError(f'reward must be "win" or "points", not {reward!r}')
        if episode not in ("round", "game"):
            raise UnoDslError(f'episode must be "round" or "game", not {episode!r}')
        if render_mode not in (None, "human", "ansi"):
            raise UnoDslError(f'render_mode must be "human", "ansi" or None, not {render_mode!r}')
        n = players if players is not None else max(variant.min_players, min(2, variant.max_players))
        if not variant.min_players <= n <= variant.max_players:
            raise UnoDslError(f"{variant.name} is for {variant.min_players}–{variant.max_players} "
                              f"players, not {n}")
        if variant.turn.plays and not 1 <= lay_slots <= 100_000:
            raise UnoDslError(f"lay_slots must be between 1 and 100,000, not {lay_slots!r}")
        self.variant, self.n = variant, n
        self.reward_kind, self.episode = reward, episode
        self.max_turns, self.max_rounds = max_turns, max_rounds
        self.render_mode = render_mode
        self._next_seed = seed
        # -- the action table, from the variant
        self.faces: list[Face] = []
        for side in variant.sides:
            self.faces += [f for f in dict.fromkeys(side.faces) if f not in self.faces]
        self.colors: list[str] = list(dict.fromkeys(c for side in variant.sides for c in side.colors))
        self._face_index = {f: i for i, f in enumerate(self.faces)}
        self._color_index = {c: i for i, c in enumerate(self.colors)}
        nf, nc = len(self.faces), len(self.colors)
        self.color_base, self.seat_base = nf, nf + nc
        self.word_base = self.seat_base + n
        self._word_action = {w: self.word_base + k for k, w in enumerate(WORDS)}
        self.number_base = self.word_base + len(WORDS)
        self.numbers = numbers_offered(variant)  # the k-th number offered (lo + k): number_base + k
        # the declared plays' slots (none for a variant without `turn: plays:`)
        self.ways = [w.name for w in variant.turn.plays]
        self._way_index = {w: i for i, w in enumerate(self.ways)}
        self.lay_slots = lay_slots if self.ways else 0
        self.lay_base = self.number_base + self.numbers
        self.num_actions = self.lay_base + self.lay_slots
        self.action_names: list[str] = [self._face_name(f) for f in self.faces]
        self.action_names += [f"colour {c}" for c in self.colors]
        self.action_names += [f"seat +{k}" for k in range(n)]
        self.action_names += list(WORDS)
        self.action_names += [f"number lo+{k}" for k in range(self.numbers)]
        self.action_names += [f"lay {k}" for k in range(self.lay_slots)]
        self._slots: tuple[Decision | None, list[Lay]] = (None, [])  # the last decision's slots (memo)
        # the top card's face, by side and label (the view shows labels)
        self._top_face: dict[tuple[str, str], int] = {}
        for side in variant.sides:
            for f in side.faces:
                self._top_face.setdefault((side.name, f.label), self._face_index[f])
        self._face_of_id: dict[int, int] = {}  # a card's face_id → its action (memo)
        self._top_of: dict[tuple[int, int], int] = {}  # (side, top card's face_id) → its face, -1: none (memo)
        self._kind_index = {k: i for i, k in enumerate(KINDS)}
        self._bucket: dict[str, int] = {}  # a prompt → its bucket (memo)
        # -- the observation layout
        deck = max(variant.deck_size, 1)
        sizes = [("hand", nf, deck), ("top", nf, 1), ("color", nc, 1), ("side", len(variant.sides), 1),
                 ("direction", 1, 1), ("hand_sizes", n - 1, deck), ("scores", n, 2), ("penalty", 1, deck),
                 ("draw_pile", 1, deck), ("kind", len(KINDS), 1), ("about", nf, 1), ("prompt", PROMPT_BUCKETS, 1)]
        # the zones of `zones:` (a player's: one per seat, own first, then in seat order)
        self.declared = [z for z in variant.zones if not z.builtin]
        places = sum(n if z.owner == "player" else 1 for z in self.declared)
        ranks = [f.rank for f in self.faces if f.rank is not None] or [0]
        self.said_numbers = range(min(ranks), max(ranks) + 1)  # (a number said outside them: its nearest end)
        if places:  # each: its cards counted by face (those the player may see), then its size; and what
            # was said of them (name_color, name_number): cards counted by the colour said, then by the number
            sizes.append(("zones", places * (nf + 1), deck))
            sizes.append(("zone_said", places * (nc + len(self.said_numbers)), deck))
        k = self.lay_slots
        self.lay_most = max((w.most for w in variant.turn.plays), default=0)  # the most cards of a play
        if k:  # each slot's play by indices, 1-based (0: no play): its way, its target's face, its cards' faces
            longest = max([deck, *(z.capacity or 0 for z in self.declared)])  # the longest a row can be
            sizes += [("lay_way", k, len(self.ways)), ("lay_target", k, nf), ("lay_target_at", k, longest),
                      ("lay_cards", k * self.lay_most, nf)]
        parts, start, high = [], 0, []
        for name, length, top in sizes:
            parts.append((name, start, length))
            start += length
            high += [float(top)] * length
        self.layout = ObservationLayout(tuple(parts))
        self._at = tuple(start for _, start, _ in parts[:12])  # where each part starts, in the order of `sizes`
        self._blank = array("f", bytes(4 * start))  # an observation of zeros, copied by _encode
        self._deck = deck  # the cap of every count in the observation (the space's bound)
        self._high = np.array(high, dtype=np.float32)
        side_points = [sum(f.points for f in side.faces) for side in variant.sides]
        self._points_scale = float(max([*side_points, 1]))
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self._order = [[(p + k) % n for k in range(n)] for p in range(n)]  # the seats from each, in turn order
        self._action_space = spaces.Discrete(self.num_actions)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=np.zeros_like(self._high), high=self._high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8),
        })
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.game: Game | None = None
        self._legal: dict[int, Any] = {}
        self._ended: list[dict[str, Any]] = []  # round_end events since the last step

    def _face_name(self, face: Face) -> str:
        if len(self.variant.sides) == 1:
            return f"{face.label}"
        side = next(s.name for s in self.variant.sides if face in s.faces)
        return f"{face.label} ({side})"

    # -- the PettingZoo contract ------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """A new game. `seed` deals the game `unodsl run VARIANT --seed SEED` would;
        without one, the seed after the last game's. (`options` is accepted and unused.)"""
        if seed is not None:
            self._next_seed = seed
        game_seed, self._next_seed = self._next_seed, self._next_seed + 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._ended = []
        self.steps = 0
        self.agent_selection = self.agents[0]
        try:
            self.game = Game(self.variant, self.n, game_seed, max_turns=self.max_turns,
                             max_rounds=self.max_rounds, listeners=[self._heard], listen_to=("round_end",))
        except UnoDslError as err:
            self.game = None
            self._stop(err)
            return
        self._after_move()

    def _heard(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "round_end":
            self._ended.append(data)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and game.decision is not None
        option = None if action is None else self._legal.get(int(action))
        if option is None:
            legal = ", ".join(f"{a} ({self.action_names[a]})" for a in sorted(self._legal))
            raise IllegalAction(f"{agent} cannot take action {action!r} now; legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.steps += 1
        try:
            game.apply(option)
        except UnoDslError as err:
            self._stop(err)
            self._accumulate_rewards()
            return
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_move(self) -> None:
        """Rewards for the rounds that ended, the end of the episode, or the next player."""
        game = self.game
        assert game is not None
        ended, self._ended = self._ended, []
        done = False
        for data in ended:
            if self.reward_kind == "points":
                self._add(self._points_rewards(data["points"]))
            elif self.episode == "round":
                self._add([1.0 if q == data["player"] else -1.0 for q in range(self.n)])
            done = done or self.episode == "round"
        if game.over:
            done = True
            if self.reward_kind == "win" and self.episode == "game":
                self._add([1.0 if q == game.winner else -1.0 for q in range(self.n)])
        if done or game.decision is None:
            if not done:  # no decision and no end: cannot happen with a working engine
                self.infos = {a: {"error": "the game stopped without a decision"} for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._legal = {}
            return
        self._legal = self.legal_actions(game.decision)
        self.agent_selection = self.possible_agents[game.decision.player]

    def _add(self, rewards: list[float]) -> None:
        for q, r in enumerate(rewards):
            self.rewards[self.possible_agents[q]] += r

    def _points_rewards(self, gained: list[int]) -> list[float]:
        """A round's points as rewards: each player's points less the table's mean,
        divided by the points of a whole deck (so within -1…1, summing to 0), and
        negated when the lowest score wins."""
        sign = 1.0 if self.variant.scoring.winner == "highest" else -1.0
        mean = sum(gained) / self.n
        return [sign * (g - mean) / self._points_scale for g in gained]

    def _stop(self, err: UnoDslError) -> None:
        """End the episode on an engine error: truncated for a runaway round or game,
        terminated (reward 0, the message in infos) for a fault of the variant."""
        runaway = isinstance(err, RunawayRound) or (type(err) is GameError and "rounds" in str(err))
        key = "truncated" if runaway else "error"
        self.infos = {a: {key: str(err)} for a in self.agents}
        if runaway:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.terminations = dict.fromkeys(self.agents, True)
        self._legal = {}

    # -- actions ------------------------------------------------------------
    def _face_action(self, card: Card) -> int:
        index = self._face_of_id.get(card.face_id)
        if index is None:
            index = self._face_of_id[card.face_id] = self._face_index[card.faces[card.side]]
        return index

    def legal_actions(self, d: Decision) -> dict[int, Any]:
        """Each legal action of decision `d` → the option it answers with (the first
        option of each action: two cards of one face are one action)."""
        legal: dict[int, Any] = {}
        lays = False
        for option in d.options:
            kind = type(option)
            if kind is Lay:
                lays = True
                continue
            if kind is Play:
                action = self._face_action(option.card)
            elif kind is Card:
                action = self._face_action(option)
            elif kind is bool:
                action = self._word_action["yes" if option else "no"]
            elif kind is int and d.kind == "int":
                action = self.number_base + option - d.options[0]
                if action >= self.num_actions:  # a range wider than the variant's file says it can be
                    raise UnoDslError(f"choose_number offers {len(d.options):,} numbers; this table's "
                                      f"actions have room for {self.numbers:,}")
            elif kind is int:
                action = self.seat_base + (option - d.player) % self.n
            elif kind is str:
                action = self.color_base + self._color_index[option]
            elif option is DRAW or option is KEEP or option is PASS:
                action = self._word_action[str(option)]
            else:  # pragma: no cover - the engine offers nothing else
                raise UnoDslError(f"no action stands for the option {option!r}")
            legal.setdefault(action, option)
        if lays:
            for slot, option in enumerate(self.lay_options(d)):
                legal[self.lay_base + slot] = option
        return legal

    def _lay_key(self, option: Lay) -> tuple[int, int, int, int, tuple[int, ...]]:
        """What a slot stands for: the way, the target's face and its place in its row (1
        for the first card; 0 for a pile's top: two cards of a row are two targets, as
        they may differ by more than their face, a number said for a Wild #), how many
        cards, their faces in order."""
        way = self._way_index[option.way]
        at = 0
        onto = self.variant.turn.plays[way]
        if onto.row and self.game is not None:
            row = self.game.places.get(onto.onto, ())
            at = next((i + 1 for i, c in enumerate(row) if c.id == option.target.id), 0)
        faces = tuple(self._face_action(c) for c in option.cards)
        return (way, self._face_action(option.target), at, len(faces), faces)

    def lay_options(self, d: Decision) -> list[Lay]:
        """The declared plays `d` offers, one per slot: plays alike (the same way, a target
        of the same face, cards of the same faces in the same order) are one, answered by
        the first the engine offers; sorted by way, target face, the target's place in
        its row, number of cards and the cards' faces (the order of `faces`). More than `lay_slots` of them is an error
        that says which `lay_slots` would do."""
        memo, slots = self._slots
        if memo is d:
            return slots
        first: dict[tuple[int, int, int, int, tuple[int, ...]], Lay] = {}
        for option in d.options:
            if type(option) is Lay:
                first.setdefault(self._lay_key(option), option)
        if len(first) > self.lay_slots:
            raise UnoDslError(f"a decision offers {len(first)} different declared plays, more than this "
                              f"environment's {self.lay_slots} lay slots: make it with lay_slots={len(first)} "
                              f"or more (env(..., lay_slots=N))")
        slots = [first[key] for key in sorted(first)]
        self._slots = (d, slots)
        return slots

    def action_mask(self, agent: str) -> Any:
        mask = bytearray(self.num_actions)
        if agent == self.agent_selection and not (self.terminations.get(agent) or self.truncations.get(agent)):
            for action in self._legal:
                mask[action] = 1
        return np.frombuffer(mask, _INT8)

    # -- observations -------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        p = self._seat.get(agent)
        if p is None:
            p = self.possible_agents.index(agent)  # not an agent: the ValueError of a list
        game = self.game
        vec = np.zeros(self.layout.size, dtype=np.float32) if game is None else self._encode(game, p)
        return {"observation": vec, "action_mask": self.action_mask(agent)}

    def _encode(self, game: Game, p: int) -> Any:
        """The observation of seat `p`, read from the fields of the game that `Game.view`
        copies into a PlayerView (hands, piles, colour, side, direction, scores, penalty)
        and the pending decision: the same vector as encoding `game.observation(p)`,
        without building the view (tests/unit/test_rl_stream.py compares the two).
        Written into a float32 `array` (cheaper item by item than a NumPy array) that
        the returned NumPy array then shares; the counts are capped at `self._deck`
        as the space's bounds say."""
        vec = array("f", self._blank)
        hand_at, top_at, color_at, side_at, dir_at, sizes_at, scores_at, penalty_at, pile_at, kind_at, \
            about_at, prompt_at = self._at
        deck, face_of = self._deck, self._face_of_id
        hand = game.hands[p]
        for card in hand:
            face = face_of.get(card.face_id)
            if face is None:
                face = self._face_action(card)
            vec[hand_at + face] += 1
        if len(hand) > deck:  # more cards than a deck (a stacked game): a face's count may pass the cap
            for face in range(hand_at, top_at):
                vec[face] = min(vec[face], deck)
        side = game.side
        if game.discard_pile:
            top = game.discard_pile[-1]
            key = (side, top.face_id)
            face = self._top_of.get(key)
            if face is None:  # the view shows the top card's label on the side in play
                face = self._top_of[key] = self._top_face.get((self.variant.sides[side].name, top.label), -1)
            if face >= 0:
                vec[top_at + face] = 1
        color = game.current_color
        if color in self._color_index:
            vec[color_at + self._color_index[color]] = 1
        vec[side_at + side] = 1
        vec[dir_at] = 1.0 if game.direction == 1 else 0.0
        hands, scores, order = game.hands, game.scores, self._order[p]
        for k in range(1, len(order)):
            size = len(hands[order[k]])
            vec[sizes_at + k - 1] = size if size <= deck else deck
        if any(scores):  # all zero: the blank's zeros
            target = max(self.variant.scoring.target or max(max(scores), 1), 1)
            for k, q in enumerate(order):
                vec[scores_at + k] = min(max(scores[q] / target, 0.0), 2.0)
        penalty, pile = game.penalty, len(game.draw_pile)
        if penalty:
            vec[penalty_at] = penalty if penalty <= deck else deck
        vec[pile_at] = pile if pile <= deck else deck
        d = game.decision
        if d is not None and d.player == p:
            vec[kind_at + self._kind_index[d.kind]] = 1
            if d.about is not None:
                vec[about_at + self._face_action(d.about)] = 1
            if d.prompt:
                bucket = self._bucket.get(d.prompt)
                if bucket is None:
                    bucket = self._bucket[d.prompt] = zlib.crc32(d.prompt.encode()) % PROMPT_BUCKETS
                vec[prompt_at + bucket] = 1
            if self.lay_slots and any(type(o) is Lay for o in d.options):
                self._encode_slots(vec, d)
        if self.declared:
            self._encode_zones(vec, game, p)
        return np.frombuffer(vec, _FLOAT32)

    def _encode_zones(self, vec: array[float], game: Game, p: int) -> None:
        """The zones of `zones:` as `p` sees them (PlayerView.zones): for each, in order
        (a player's zone once per seat, `p`'s first), its cards counted by face when `p`
        may see them (face up; or `p`'s own, for a zone its owner sees), then its size; and
        in zone_said, the same places' cards counted by the colour and the number said of them."""
        at, nf, deck, order = self.layout["zones"].start, len(self.faces), self._deck, self._order[p]
        said_at, nc, numbers = self.layout["zone_said"].start, len(self.colors), self.said_numbers
        lo, hi = numbers[0], numbers[-1]
        for z in self.declared:
            held: list[tuple[int | None, list[Card]]] = [(None, game.places[z.name])] if z.owner == "table" \
                else [(q, game.seat_places[z.name][q]) for q in order]
            for seat, cards in held:
                if z.shows == "all" or (z.shows == "owner" and seat == p):
                    for card in cards:
                        face = at + self._face_action(card)
                        vec[face] = min(vec[face] + 1, deck)
                    if game.named:  # (zone_said: the colours said, then the numbers, nearest end if outside)
                        here = z.name if seat is None else seat_zone(z.name, seat)
                        for card in cards:
                            color, number = said(game, card, here)
                            if color in self._color_index:
                                vec[said_at + self._color_index[color]] += 1
                            if number is not None:
                                vec[said_at + nc + min(max(number, lo), hi) - lo] += 1
                vec[at + nf] = min(len(cards), deck)
                at += nf + 1
                said_at += nc + hi - lo + 1

    def _encode_slots(self, vec: array[float], d: Decision) -> None:
        """Each slot's play by 1-based indices: its way (lay_way[k]), its target's face
        (lay_target[k]) and place in its row (lay_target_at[k], 0 for a pile's top), and
        its cards' faces in the order they go down (lay_cards[k * lay_most + i], 0 after
        the last)."""
        layout, most = self.layout, self.lay_most
        way_at, target_at, cards_at = layout["lay_way"].start, layout["lay_target"].start, layout["lay_cards"].start
        place_at = layout["lay_target_at"].start
        for slot, option in enumerate(self.lay_options(d)):
            way, target, at, _, faces = self._lay_key(option)
            vec[way_at + slot] = way + 1
            vec[target_at + slot] = target + 1
            vec[place_at + slot] = at
            for i, face in enumerate(faces):
                vec[cards_at + slot * most + i] = face + 1

    # -- rendering ----------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.describe()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def describe(self) -> str:
        """The table as text: side, colour, top card, hands, scores and the pending decision."""
        game = self.game
        if game is None:
            return "no game (the variant failed to set up)"
        seat = game.decision.player if game.decision is not None else 0
        view = game.view(seat)
        lines = [f"{self.variant.name}: round {game.round}, turn {game.turns}, side {view.side}, "
                 f"colour {view.current_color or '-'}, top {view.top or '-'}, "
                 f"direction {'+1' if view.direction == 1 else '-1'}, draw pile {view.draw_pile_size}"]
        for q in range(self.n):
            size = len(view.hand) if q == seat else next(o.hand_size for o in view.opponents if o.seat == q)
            lines.append(f"  player_{q}: {size} cards, score {view.scores[q]}")
        d = game.decision
        if d is None:
            over = f"player_{game.winner} won the game" if game.over else "no decision pending"
            lines.append(f"  {over}")
            return "\n".join(lines)
        hand = ", ".join(c.label for c in view.hand)
        lines.append(f"  player_{seat}'s hand: {hand}")
        what = f" ({d.prompt})" if d.prompt else ""
        about = f" about {d.about.label}" if d.about is not None else ""
        options = ", ".join(f"{a}={self._legal[a] if a >= self.lay_base else self.action_names[a]}"
                            for a in sorted(self._legal))
        lines.append(f"  player_{seat} chooses a {d.kind}{what}{about}: {options}")
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None


def env(variant: str | Path | Variant, players: int | None = None, seed: int = 0, *,
        options: Mapping[str, bool | int] | None = None, **settings: Any) -> UnoEnv:
    """The AEC environment of `variant` (a shipped name such as "flip" or
    "house/jump_in", a path, or a loaded Variant) with `players` seats (the variant's
    smallest table of at least 2 when not given). `options` switches on or sets
    variant options; `settings` go to UnoEnv (reward, episode, max_turns, max_rounds,
    render_mode, lay_slots)."""
    loaded = variant if isinstance(variant, Variant) else load_variant(variant, options)
    made = UnoEnv(loaded, players, seed, **settings)
    made.reset(seed=seed)
    return made


def random_policy_episode(environment: UnoEnv, rng: random.Random) -> dict[str, float]:
    """Play one episode with uniformly random legal actions; the total reward of each agent."""
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        obs, reward, terminated, truncated, _ = environment.last()
        totals[agent] += float(reward)
        if terminated or truncated:
            environment.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]  # np.flatnonzero, without its checks
        environment.step(int(legal[rng.randrange(len(legal))]))
    return totals
