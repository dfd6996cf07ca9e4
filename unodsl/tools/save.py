"""A saved game: a position as a small JSON document, and the game again from it.

A save says what the game is (the variant file and its options, the players, the
seed, the turn guard), who plays it (each seat's agent and the agents' seed) and
the answers given so far (`Game.actions`: card ids, words, colours, seats,
booleans):

    {"unodsl_save": 1, "variant": "My UNO", "file": "my_uno.yaml",
     "options": ["an_option"], "option_values": {"target": 500}, "players": 4,
     "seed": 7, "agents": ["greedy", "random", "greedy", "random"], "agent_seed": 7,
     "max_turns": 5000, "actions": [12, "draw", true, "red", …]}

`restore` rebuilds the game with `Game.from_actions`; `catch_up` then asks the
agents again every decision their seats made before the save (their answers are
put aside, the save's are the game's), so that a bot's generator stands where it
stood and the game goes on exactly as it would have without the stop.
Every fault of a save is a SaveError naming the file and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.actions import decode_answer
from ..engine.game import MAX_TURNS, Chooser, Game
from ..errors import IllegalAction, Pos, UnoDslError, VariantError
from ..model import Variant
from ..players.bots import AgentSpecError, parse_agent
from ..variant.load import load_variant
from .log import MOST_PLAYERS, TooLarge, read_json

SAVE_VERSION = 1


class SaveError(UnoDslError):
    """A save that cannot be read or does not fit its game."""


@dataclass(frozen=True)
class Save:
    """A parsed save (see the module's docstring)."""

    file: str
    options: tuple[str, ...]            # the switches that are on
    option_values: dict[str, int]       # every number option's value
    players: int
    seed: int
    agents: tuple[str, ...]             # one per seat; "human" for a person
    agent_seed: int
    max_turns: int
    actions: tuple[Any, ...]
    variant: str = ""                   # the variant's name, for messages
    path: Path | None = None

    @property
    def where(self) -> str:
        return f"{self.path}: " if self.path is not None else ""

    def names(self) -> list[str]:
        """The seats as `unodsl run` names them: P1 (greedy), …"""
        agents = self.agents
        return [f"P{p + 1} ({agents[p]})" if p < len(agents) else f"P{p + 1}" for p in range(self.players)]


def save_document(game: Game, agents: Sequence[str], agent_seed: int) -> dict[str, Any]:
    """The save of `game` as it stands, played by `agents` (one name per seat)."""
    v = game.variant
    return {"unodsl_save": SAVE_VERSION, "variant": v.name, "file": v.file,
            "options": [o.name for o in v.options if o.enabled],
            "option_values": {o.name: o.value for o in v.options if o.type != "bool"},
            "players": game.n, "seed": game.seed, "agents": list(agents), "agent_seed": agent_seed,
            "max_turns": game.max_turns, "actions": game.actions}


def write_save(path: str | Path, game: Game, agents: Sequence[str], agent_seed: int) -> None:
    """Write the save of `game` to `path` (one JSON document)."""
    text = json.dumps(save_document(game, agents, agent_seed), separators=(",", ":"))
    Path(path).write_text(text + "\n", encoding="utf-8")


# -- reading a save -----------------------------------------------------------------
def load_save(source: str | Path) -> Save:
    """The save in file `source`; SaveError if it is not one."""
    path = Path(source)
    where = f"{path}: "
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SaveError(f"{where}cannot read the save ({err})") from None
    return parse_save(text, path)


def parse_save(text: str, path: Path | None = None) -> Save:
    """A save from its text (`path` names it in messages); SaveError if it is not one."""
    where = f"{path}: " if path is not None else ""
    try:
        doc = read_json(text)
    except json.JSONDecodeError as err:
        raise SaveError(f"{where}line {err.lineno}, column {err.colno}: not valid JSON ({err.msg}); "
                        "a save is one JSON object") from None
    except TooLarge as err:
        raise SaveError(f"{where}not a save unodsl writes: {err}") from None
    if not isinstance(doc, dict) or "unodsl_save" not in doc:
        raise SaveError(f'{where}not a unodsl save (a JSON object starting {{"unodsl_save": {SAVE_VERSION}, …}})')
    if doc["unodsl_save"] != SAVE_VERSION:
        raise SaveError(f"{where}save format {json.dumps(doc['unodsl_save'])} is not one this unodsl reads "
                        f"({SAVE_VERSION})")

    def field(key: str, kind: type, what: str, default: Any = None) -> Any:
        value = doc.get(key, default)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise SaveError(f"{where}the save's {key!r} should be {what}, not {json.dumps(value)}")
        return value

    file = field("file", str, "the variant's file (a path)")
    if not file:
        raise SaveError(f"{where}the save names no variant file; give one (a moved or edited copy) as VARIANT")
    players = field("players", int, "a number")
    seed = field("seed", int, "a number")
    agent_seed = field("agent_seed", int, "a number", seed)
    max_turns = field("max_turns", int, "a number", MAX_TURNS)
    if max_turns < 1 or players < 1:
        raise SaveError(f"{where}the save's 'players' and 'max_turns' should be at least 1")
    if players > MOST_PLAYERS:
        raise SaveError(f"{where}the save's 'players' is {players:,}; a table has at most {MOST_PLAYERS}")
    agents = field("agents", list, "a list of agent names", [])
    options = field("options", list, "a list of option names", [])
    values = field("option_values", dict, "an object of option names and numbers", {})
    actions = field("actions", list, "a list of answers")
    if not all(isinstance(a, str) for a in [*agents, *options]):
        raise SaveError(f"{where}the save's 'agents' and 'options' should be lists of names")
    if len(agents) > players:
        raise SaveError(f"{where}the save seats {len(agents):,} agents at {players} places")
    for p, agent in enumerate(agents):
        if agent != "human":
            try:
                parse_agent(agent)
            except AgentSpecError as err:
                raise SaveError(f"{where}the save's agent at P{p + 1}: {err}") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
        raise SaveError(f"{where}the save's 'option_values' should map option names to numbers, "
                        f"not {json.dumps(values)}")
    for k, action in enumerate(actions, 1):
        if not (action is None or isinstance(action, bool | int | str)):
            raise SaveError(f"{where}the save's answer {k} ({json.dumps(action)}) is not an answer: "
                            "a card id, a word, a colour, a seat or true/false")
    return Save(file, tuple(options), dict(values), players, seed, tuple(agents), agent_seed, max_turns,
                tuple(actions), str(doc.get("variant", "")), path)


def load_saved_variant(save: Save, override: str | Path | None = None) -> Variant:
    """The variant the save names (its file, with its switches on and its number
    options' values), or `override` with the save's options. VariantError if it
    cannot be loaded."""
    target: str | Path = override if override is not None else _saved_file(save)
    chosen: dict[str, bool | int] = {**dict.fromkeys(save.options, True), **save.option_values}
    variant = load_variant(target, chosen)
    extra = [o.name for o in variant.options if o.enabled and o.name not in save.options]
    if extra:  # on by default now, but off when the game was saved
        variant = load_variant(target, {**chosen, **dict.fromkeys(extra, False)})
    return variant


def _saved_file(save: Save) -> Path:
    path = Path(save.file)
    if not path.is_file() and not path.is_absolute() and save.path is not None:
        beside = save.path.parent / path  # a save and its variant moved together
        path = beside if beside.is_file() else path
    if not path.is_file():
        raise VariantError.at(Pos(str(path), 1, 1), f"the variant file the save {save.path or ''} names "
                              "does not exist", "give the variant (a moved or edited copy) as VARIANT")
    return path


# -- the game again ------------------------------------------------------------------
def restore(save: Save, variant: Variant) -> Game:
    """The saved game, rebuilt from its answers (Game.from_actions). SaveError if the
    variant does not seat the players, or an answer does not fit the game."""
    if not variant.min_players <= save.players <= variant.max_players:
        raise SaveError(f"{save.where}{variant.name} is for {variant.min_players}–{variant.max_players} "
                        f"players, not the save's {save.players}")
    try:
        return Game.from_actions(variant, save.players, save.seed, save.actions, max_turns=save.max_turns)
    except IllegalAction as err:
        k = _misfit(save, variant)
        raise SaveError(f"{save.where}the save's answer {k} does not fit the game: {err}") from None
    except UnoDslError as err:  # the game itself stopped (a runtime error, a runaway round)
        raise SaveError(f"{save.where}the saved game cannot be rebuilt: {err}") from None


def _misfit(save: Save, variant: Variant) -> int:
    """The number (from 1) of the first answer that does not fit the game."""
    game = Game(variant, save.players, save.seed, max_turns=save.max_turns)
    for k, action in enumerate(save.actions, 1):
        d = game.decision
        if d is None:
            return k
        try:
            game.apply(decode_answer(d, action))
        except IllegalAction:
            return k
    return len(save.actions)


def catch_up(save: Save, variant: Variant, agents: Sequence[Chooser | None]) -> None:
    """Ask each agent (None: a seat nobody asks, such as a person) every decision its
    seat made before the save, in order, on a copy of the game as it was then; the
    answers are put aside. A bot's own generator then stands where it stood when the
    game was saved."""
    game = Game(variant, save.players, save.seed, max_turns=save.max_turns)
    for action in save.actions:
        d = game.decision
        if d is None:
            return
        agent = agents[d.player]
        if agent is not None:
            agent.choose(game, d)
        game.apply(decode_answer(d, action))


def position(game: Game, names: Sequence[str]) -> str:
    """Where a restored game stands, in one line: the round and turn, the scores,
    and who is to decide."""
    scores = ", ".join(f"{names[p]} {game.scores[p]}" for p in range(game.n))
    d = game.decision
    if d is None:
        return f"resumed: the saved game is over (round {game.round}); scores: {scores}"
    turn = f"turn {game.turns}" if game.turns else "its setup"
    return (f"resumed at round {game.round}, {turn} ({len(game.actions)} answers given); scores: {scores}; "
            f"{names[d.player]} to choose a {d.kind}")
