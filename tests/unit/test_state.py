"""The state of a game is declared once (engine/state.py): every attribute of a game, new,
played, cloned or loaded from a pickle, is in the declaration, and the declaration names
nothing a game lacks."""

from __future__ import annotations

import pickle

from unodsl import Game, load_variant, make_agents
from unodsl.engine.state import FIELDS


def test_every_field_of_a_game_is_declared_once() -> None:
    variant = load_variant("flip")
    games = [Game(variant, 3, 1), Game(variant, 3, 2, record=True), Game(load_variant("classic"), 4, 3)]
    played = Game(variant, 3, 4)
    played.autoplay(make_agents(["random"] * 3, 3, 4), rounds=1)
    games += [played, played.clone(), pickle.loads(pickle.dumps(played))]
    for game in games:
        assert set(vars(game)) == set(FIELDS), (set(vars(game)) ^ set(FIELDS))
