"""unodsl: a declarative rules language and interpreter for UNO-family card games."""

from .engine.actions import DRAW, KEEP, PASS, Decision, Play
from .engine.game import Game
from .errors import Diagnostic, IllegalAction, UnoDslError, VariantError
from .players.bots import GreedyAgent, RandomAgent, make_agents, play_game
from .variant.load import load_variant, validate_file

__all__ = [
    "DRAW", "KEEP", "PASS", "Decision", "Diagnostic", "Game", "GreedyAgent", "IllegalAction",
    "Play", "RandomAgent", "UnoDslError", "VariantError", "load_variant", "make_agents",
    "play_game", "validate_file",
]
__version__ = "0.1.0"
