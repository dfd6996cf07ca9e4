"""A backend is a strategy a game holds (engine/backends/): the variant is a plain value,
and what is built from it to run its games lives in the backend it was loaded with."""

from __future__ import annotations

import dataclasses
import gc

from unodsl import Game, load_variant, make_agents
from unodsl.engine.backends import backend_of, base, interpreted


def test_a_game_runs_on_the_backend_its_variant_was_loaded_with() -> None:
    closures = load_variant("classic", backend="closures")
    compiled = load_variant("classic")
    assert backend_of(closures).name == "closures" and backend_of(closures).perform is interpreted.perform
    assert backend_of(compiled).name == "compiled" and backend_of(compiled).source.startswith("# Generated")
    for variant in (closures, compiled):
        game = Game(variant, 4, 5)
        assert game._backend is backend_of(variant) and game._perform is backend_of(variant).perform
        game.autoplay(make_agents(["random"], 4, 5), rounds=1)
        assert Game(variant, 4, 6).draw_pile[0] in backend_of(variant).cache["deck"][1][0]  # the cards it made


def test_a_variant_never_compiled_is_interpreted_and_forgotten_with_it() -> None:
    variant = dataclasses.replace(load_variant("classic"))  # the same domain, no backend attached
    key = id(variant)
    assert base.attached(variant) is None
    assert backend_of(variant).name == "closures" and base.attached(variant) is backend_of(variant)
    del variant
    gc.collect()
    assert key not in base._BACKENDS
