"""The events the engine emits, with the fields a rule can read in each.

Every event has `player`: the player it is about (for rules, also the player
whose `next`, `hand` and `opponents` are meant).
"""

from __future__ import annotations

EVENTS: dict[str, dict[str, str]] = {
    "round_start": {"player": "player", "round": "int"},
    "cut": {"player": "player", "card": "card"},
    "shuffled": {"player": "player", "zone": "str"},
    "reshuffled": {"player": "player", "count": "int"},
    "dealt": {"player": "player", "count": "int"},
    "card_turned": {"player": "player", "card": "card"},
    "turn_start": {"player": "player"},
    "card_played": {"player": "player", "card": "card"},
    "card_drawn": {"player": "player", "card": "card"},
    "draw_short": {"player": "player", "missing": "int"},
    "hand_changed": {"player": "player", "size": "int"},
    "color_named": {"player": "player", "color": "color"},
    "direction_changed": {"player": "player", "direction": "int"},
    "skipped": {"player": "player"},
    "penalty_added": {"player": "player", "total": "int"},
    "penalty_taken": {"player": "player", "count": "int"},
    "hands_swapped": {"player": "player", "other": "player"},
    "card_given": {"player": "player", "other": "player", "card": "card"},
    "cards_moved": {"player": "player", "source": "str", "target": "str", "count": "int"},
    "flipped": {"player": "player", "side": "str"},
    "flagged": {"player": "player", "flag": "str"},
    "choice": {"player": "player", "kind": "str", "value": "any"},
    "turn_end": {"player": "player"},
    "round_end": {"player": "player", "points": "any"},
    "game_end": {"player": "player", "scores": "any"},
}
