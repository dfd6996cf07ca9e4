"""A merged, schema-valid variant file → the Variant model, its expressions compiled.

Problems are collected as diagnostics (in `Expressions.diags`), never raised, so
that one run reports all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, get_args

from ..engine.actions import DecisionKind
from ..engine.events import EVENTS, rule_env
from ..errors import Diagnostic, did_you_mean
from ..lang.compile import reads_only_faces
from ..model import CardKind, Define, DrawRule, Face, Rule, Scoring, Side, Teams, TurnRules, Variant
from .design import Design
from .expressions import Expressions, parse_once
from .lint import self_applications
from .source import Key
from .table import read_plays, read_zones

DEFAULT_MATCH = "card.wild or card.color == current_color or card.symbol == top.symbol"
CARD_ENV = {"player": "player", "card": "card"}
PLAYER_ENV = {"player": "player"}
DEALER = ("player", "int")  # a dealer expression gives a player (a seat number works too)
MAX_CARDS = 100_000  # in one deck group, and in a deck
MAX_RANK_DIGITS = 18  # a rank with more digits is no rank a card can carry


class VariantBuilder:
    """Builds one Variant from a merged file; `exprs` holds the diagnostics and checked trees."""

    def __init__(self, exprs: Expressions) -> None:
        self.exprs = exprs
        self.data: dict[str, Any] = exprs.src.data

    def build(self) -> Variant:
        d, x = self.data, self.exprs
        sides_raw = d.get("sides") or [{"name": "front", "colors": d.get("colors", []),
                                        "deck": d.get("deck", [])}]
        side_keys: list[Key] = [("sides", i) for i in range(len(sides_raw))] if "sides" in d else [()]
        x.kinds = frozenset(d["cards"])
        x.colors = frozenset(c for s in sides_raw for c in s.get("colors", []))
        x.sides = len(sides_raw)
        zones = read_zones(x, d.get("zones") or {})
        # The faces first (they read only each kind's points and wildness): what the cards can
        # be is then known to every expression, the functions' and the cards' own included.
        shells = {name: CardKind(name, raw["points"], raw.get("wild", False), (), None)
                  for name, raw in d["cards"].items()}
        before = len(x.diags)
        sides = tuple(self.side(raw, key, shells) for raw, key in zip(sides_raw, side_keys, strict=True))
        self.deck_ok = len(x.diags) == before  # totals are only meaningful for a deck without errors
        self.sides_fixed = self.deck_ok and not _options_change_cards(d.get("options"))
        if self.sides_fixed:  # what the cards can be, for tests that never hold (a warning)
            x.domains = card_domains(d["cards"], sides)
            x.kind_fields = kind_fields(sides)
        x.define(d.get("define") or {})
        kinds = {name: self.kind(name) for name in d["cards"]}
        self.side_names = tuple(s.name for s in sides)
        players = d["players"]
        if players["min"] > players["max"]:
            x.error(("players", "min"), f"players: min ({players['min']}) is more than max ({players['max']})",
                    "swap the two numbers")
        rnd = d["round"]
        turn = d.get("turn", {})
        draw = turn.get("draw", {})
        only_plays = "plays" in turn and "match" not in turn  # the declared plays, and no one-card play
        match = None if only_plays else x.condition(("turn", "match"), CARD_ENV, default=DEFAULT_MATCH)
        match_tree = x.trees.get(("turn", "match")) if "match" in turn else parse_once(DEFAULT_MATCH)
        return Variant(
            name=d["name"], file=x.src.file,
            min_players=players["min"], max_players=players["max"],
            sides=sides, pairing=d.get("pairing", "shuffled"), kinds=kinds,
            first_dealer=x.condition(("round", "first_dealer"), PLAYER_ENV, effects=True, want=DEALER)
            if "first_dealer" in rnd else None,
            next_dealer=x.condition(("round", "next_dealer"), PLAYER_ENV, effects=True,
                                    default="left_of(dealer)", want=DEALER),
            setup=x.program(("round", "setup"), PLAYER_ENV),
            turn=TurnRules(
                match=None if only_plays else match or (lambda g, e: False),
                must_play_if_able=turn.get("must_play_if_able", False),
                match_is_pure=only_plays or (match_tree is not None and reads_only_faces(match_tree)),
                plays=read_plays(x, turn.get("plays") or [], zones),
                plays_per_turn=turn.get("plays_per_turn", 1),
                draw=DrawRule(count=self.amount(("turn", "draw", "count"), 1),
                              until_playable=draw.get("until_playable", False),
                              max=self.amount(("turn", "draw", "max"), None),
                              allowed_if=x.condition(("turn", "draw", "allowed_if"), PLAYER_ENV),
                              then=draw.get("then", "may_play")),
            ),
            scoring=self.scoring(d["scoring"]),
            rules=tuple(self.rule(i, r) for i, r in enumerate(d.get("rules", []))),
            options=(),
            teams=self.teams(d.get("teams"), players["min"], players["max"]),
            **self.designed(d.get("design") or {}, players["max"]),
            where=x.where,
            zones=zones,
            functions=tuple(Define(n, tuple(f.get("params") or {}), f["is"], f.get("says"))
                            for n, f in (d.get("define") or {}).items()),
        )

    def design(self, raw: Mapping[str, Any], max_players: int) -> Design:
        """The designer's targets and what may vary (`design:`, variant/design.py)."""
        return Design(self.exprs, self.data, max_players).read(raw)

    def designed(self, raw: Mapping[str, Any], max_players: int) -> dict[str, Any]:
        found = self.design(raw, max_players)
        return {"design": found.ideal, "targets": tuple(found.targets), "vary": tuple(found.vary)}

    def scoring(self, raw: dict[str, Any]) -> Scoring:
        """Round scoring and the end of the game: a target, a `game_over` condition, or both."""
        x = self.exprs
        if "target" not in raw and "game_over" not in raw:
            removed = x.src.removed.get(("scoring", "target"))  # an overlay's `target: null`
            message = ("scoring needs a `target` (the total that wins) or a `game_over` condition (or both), "
                       "or the game never ends")
            hint = "for one round: game_over: \"true\""
            if removed is not None:
                x.diags.append(Diagnostic(removed, message, hint))
            else:
                x.error(("scoring",), message, hint)
        target = self.number(("scoring", "target"), 1, 1_000_000) if "target" in raw else None
        return Scoring(raw.get("round", "winner_scores_others"), target, raw.get("winner", "highest"),
                       x.condition(("scoring", "game_over"), PLAYER_ENV),
                       x.condition(("scoring", "tie_break"), PLAYER_ENV, want=("int",)))

    def amount(self, key: Key, default: int | None) -> Any:
        """A number of cards at `key`: written as a number, or an expression read when it is
        needed (`player`: who draws; effects such as random() are allowed)."""
        raw = self.exprs.get(key)
        if raw is None:
            return default
        if isinstance(raw, str):
            return self.exprs.condition(key, PLAYER_ENV, effects=True, want=("int",))
        return int(raw)

    def teams(self, raw: Any, lo: int, hi: int) -> Teams:
        """The `teams:` declaration, checked against the seats and the player count."""
        x = self.exprs
        if raw is None:
            return None
        if raw == "opposite":
            if lo % 2 or hi % 2 or lo != hi or lo < 4:
                even = max(4, lo + lo % 2)
                x.error(("teams",), f"teams: opposite pairs each seat with the one across the table, so every "
                        f"player count must be even and at least 4 (with 2, both are one team and nobody "
                        f"opposes them); players is {lo}–{hi}", f"set players: {{min: {even}, max: {even}}}")
            return "opposite"
        teams = tuple(tuple(team) for team in raw)
        where: dict[int, int] = {}
        for i, team in enumerate(teams):
            for j, seat in enumerate(team):
                if seat in where:
                    x.error(("teams", i, j), f"seat {seat} is in two teams (team {where[seat]} and team {i})"
                            if where[seat] != i else f"seat {seat} is listed twice in team {i}",
                            "list each seat once")
                where.setdefault(seat, i)
        seats = len(where)
        missing = [s for s in range(seats) if s not in where]
        if len(where) < sum(map(len, teams)):
            pass  # a seat listed twice: the count below would only repeat it
        elif missing:
            x.error(("teams",), f"teams name {seats} seats but not seat {missing[0]}; seats are numbered "
                    f"from 0 to {seats - 1}", f"put seat {missing[0]} in a team")
        elif lo != seats or hi != seats:
            x.error(("teams",), f"teams seat {seats} players, but players is {lo}–{hi}",
                    f"set players: {{min: {seats}, max: {seats}}}")
        return teams

    def number(self, key: Key, lo: int, hi: int) -> int:
        """The whole number at `key`: written there, or read from an option (`{option: NAME}`)."""
        x = self.exprs
        raw = x.get(key)
        if not isinstance(raw, dict):
            return int(raw)
        name = raw["option"]
        where = ".".join(str(k) for k in key)
        value = x.options.get(name)
        if name not in x.options:
            x.error((*key, "option"), f"unknown option {name!r}", did_you_mean(name, x.options)
                    or (f"options: {', '.join(x.options)}" if x.options else "declare it under `options:`"))
        elif not isinstance(value, int) or isinstance(value, bool):
            x.error((*key, "option"), f"{where} is a number, but option {name!r} is switched on or off",
                    "give the option type: int, a default and a range")
        elif not lo <= value <= hi:
            x.error((*key, "option"), f"{where} must be from {lo} to {hi:,}, but option {name!r} is {value}",
                    "narrow the option's min and max")
        else:
            return value
        return lo

    def kind(self, name: str) -> CardKind:
        x = self.exprs
        raw = self.data["cards"][name]
        key: Key = ("cards", name)
        # A kind that scores its rank has one on every card: its `card.rank` is never none.
        known = frozenset({"card.rank"}) if raw["points"] == "rank" else frozenset()
        on_play = x.program((*key, "on_play"), CARD_ENV, known)
        tree = x.trees.get((*key, "on_play"))
        again = next(self_applications(tree), None) if tree is not None else None
        if again is not None:
            x.diags.append(Diagnostic(
                x.at((*key, "on_play"), *again.at), "apply(card) runs this on_play again, which runs "
                "apply(card) again, without end", "apply another card, or only under a condition"))
        return CardKind(
            name=name, points=raw["points"], wild=raw.get("wild", False),
            on_play=on_play,
            legal_if=x.condition((*key, "legal_if"), CARD_ENV, known=known),
            description=raw.get("description", ""),
        )

    def side(self, raw: dict[str, Any], key: Key, kinds: Mapping[str, CardKind]) -> Side:
        colors = tuple(raw.get("colors", []))
        faces: list[Face] = []
        for i, entry in enumerate(raw.get("deck", [])):
            faces += self.entry(entry, (*key, "deck", i), colors, kinds)
            if len(faces) > MAX_CARDS:
                self.exprs.error((*key, "deck"), f"the deck has more than {MAX_CARDS:,} cards",
                                 "check the counts and the ranks ranges")
                break
        return Side(raw.get("name", "front"), colors, tuple(faces))

    def entry(self, entry: dict[str, Any], key: Key, colors: tuple[str, ...],
              kinds: Mapping[str, CardKind]) -> Iterable[Face]:
        """The faces one deck group makes."""
        x = self.exprs
        names = entry["kind"] if isinstance(entry["kind"], list) else [entry["kind"]]
        ranks = self.ranks(entry.get("ranks"), (*key, "ranks"))
        if ranks is None:
            return []
        use = tuple(entry.get("colors", colors))
        known = set(colors)
        for c in use:
            if c not in known:
                x.error((*key, "colors"), f"colour {c!r} is not one of this deck's colours",
                        did_you_mean(c, colors) or f"colours: {', '.join(colors) or 'none'}")
                return []
        per_color = "per_color" in entry
        if per_color and not use:
            x.error(key, "per_color needs colours, but this deck has none", "use count instead")
            return []
        copies = entry.get("per_color", entry.get("count", 1))
        total = copies * len(names) * max(1, _count(ranks)) * (len(use) if per_color else 1)
        if total > MAX_CARDS:
            x.error(key, f"this group makes {total:,} cards; a deck may have at most {MAX_CARDS:,}",
                    "check the counts and the ranks range")
            return []
        faces = []
        for n, kname in enumerate(names):
            kind = kinds.get(kname)
            if kind is None:
                k = (*key, "kind", n) if isinstance(entry["kind"], list) else (*key, "kind")
                x.error(k, f"unknown card kind {kname!r}", did_you_mean(kname, kinds) or "define it under `cards:`")
                continue
            if kind.points == "rank" and not ranks:
                x.error(key, f"{kname!r} scores its rank (points: rank) but this group gives no ranks",
                        "add ranks: 1-9 (for example)")
                continue
            for rank in ranks or (None,):
                points = rank if kind.points == "rank" else kind.points
                for color in use if per_color else [None]:
                    face = Face(kname, color, rank, int(points or 0), kind.wild)
                    faces += [face] * copies
        return faces

    def ranks(self, raw: Any, key: Key) -> Sequence[int] | None:
        """The ranks of a deck group (None after reporting a mistake)."""
        if raw is None:
            return []
        if isinstance(raw, int):
            return [raw]
        if isinstance(raw, list):
            return list(raw)
        parts = re.split("-", raw)
        if max(len(x) for x in parts) > MAX_RANK_DIGITS:
            self.exprs.error(key, f"ranks: a number of {max(len(x) for x in parts):,} digits is too large",
                             f"ranks have at most {MAX_RANK_DIGITS} digits")
            return None
        lo, hi = (int(x) for x in parts)
        if lo > hi:
            self.exprs.error(key, f"ranks {raw!r} run backwards", f"write {hi}-{lo}")
            return None
        return range(lo, hi + 1)  # its length is checked before any card is made

    def rule(self, i: int, raw: dict[str, Any]) -> Rule:
        x = self.exprs
        key: Key = ("rules", i)
        event = raw["on"]
        name = raw.get("name", f"rule {i + 1}")
        if event not in EVENTS or EVENTS[event].for_tools:
            rules_see = [e for e, d in EVENTS.items() if not d.for_tools]
            x.error((*key, "on"), f"unknown event {event!r}" if event not in EVENTS
                    else f"{event!r} is told to tools only; a rule cannot wait for it",
                    did_you_mean(event, rules_see) or f"events: {', '.join(rules_see)}")
            # Its `if` and `do` read the event's fields, so checking them now would only
            # report consequences of the wrong name.
            return Rule(name, event, None, ())
        env = rule_env(event)
        fields = self.field_domains(event)
        return Rule(name, event, x.condition((*key, "if"), env, fields=fields),
                    x.program((*key, "do"), env, fields=fields))

    def field_domains(self, event: str) -> dict[str, tuple[str, tuple[Any, ...]]]:
        """The values some fields of `event` can take (see Context.domains)."""
        out: dict[str, tuple[str, tuple[Any, ...]]] = {}
        fields = EVENTS[event].fields
        if event == "choice" and "kind" in fields:
            out["kind"] = ("`kind` of a choice", DECISIONS)
        if "side" in fields and self.sides_fixed:
            out["side"] = (f"`side` of a {event} event (a side's name)", self.side_names)
        return out


DECISIONS: tuple[str, ...] = get_args(DecisionKind)
CARD_CHANGES = frozenset({"cards", "deck", "sides", "colors"})  # an option patching these changes the faces


def card_domains(kinds: Iterable[str], sides: Sequence[Side]) -> dict[str, tuple[str, tuple[Any, ...]]]:
    """The kinds, colours and ranks the cards of a deck have (none included when some card has none)."""
    faces = [f for s in sides for f in s.faces]
    on_faces = {f.kind for f in faces}
    on_colors = {f.color for f in faces}
    colors = [*dict.fromkeys(c for s in sides for c in s.colors if c in on_colors), *[None] * (None in on_colors)]
    ranks = dict.fromkeys(f.rank for f in faces)
    return {"card.kind": ("`kind` of a card in this deck", tuple(k for k in kinds if k in on_faces)),
            "card.color": ("`color` of a card in this deck", tuple(colors)),
            "card.rank": ("`rank` of a card in this deck", tuple(ranks))}


def kind_fields(sides: Sequence[Side]) -> dict[str, frozenset[str]]:
    """For each kind, the attributes every card of it has (a rank, a colour): see lang/narrow.py."""
    faces = [f for s in sides for f in s.faces]
    return {k: frozenset(a for a in ("rank", "color") if all(getattr(f, a) is not None for f in faces if f.kind == k))
            for k in dict.fromkeys(f.kind for f in faces)}


def _options_change_cards(options: Any) -> bool:
    """Does some option's patch change the cards (so the deck of one choice is not every deck)?"""
    if not isinstance(options, dict):
        return False
    return any(isinstance(o, dict) and isinstance(o.get("set"), dict) and CARD_CHANGES & set(o["set"])
               for o in options.values())


def _count(ranks: Sequence[int]) -> int:
    """How many ranks, without len() (a range of 10**30 ranks overflows it)."""
    return ranks.stop - ranks.start if isinstance(ranks, range) else len(ranks)
