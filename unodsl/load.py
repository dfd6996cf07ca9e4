"""Variant file → checked, compiled Variant: load, extend, merge options, schema, build.

Every problem found along the way becomes a positioned Diagnostic; they are all
collected and raised together as one VariantError. `validate_file` is the
checker's entry point (every diagnostic, warnings included); `load_variant`
gives a Variant or raises.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from importlib import resources
from pathlib import Path
from typing import Any

from .engine.events import EVENTS
from .engine.ops import REGISTRY
from .errors import Diagnostic, Pos, VariantError
from .lang import ast
from .lang.check import TYPE_WORDS, CheckError, Context, check, did_you_mean, show
from .lang.compile import Fn, Program, compile_expr, compile_program, reads_only_faces
from .lang.parse import LangSyntaxError, parse
from .lang.signature import fits
from .model import CardKind, DrawRule, Face, Option, Rule, Scoring, Side, TurnRules, Variant
from .overlay import extend, overlay
from .schema import validate
from .source import Key, Source, load_source

DEFAULT_MATCH = "card.wild or card.color == current_color or card.symbol == top.symbol"
CARD_ENV = {"player": "player", "card": "card"}
PLAYER_ENV = {"player": "player"}
MAX_EXTENDS = 16  # bases of bases; a longer chain is almost surely a mistake
MAX_CARDS = 100_000  # in one deck group, and in a deck
MAX_NESTING = 48  # brackets in an expression, and depth of its syntax tree


def shipped_dir() -> Path:
    """The folder of the variants that ship with unodsl."""
    packaged = Path(str(resources.files("unodsl"))) / "variants"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[1] / "variants"


def shipped_names() -> list[str]:
    return sorted(p.stem for p in shipped_dir().glob("*.yaml"))


def resolve(name: str | Path) -> Path:
    """A path as given, or the shipped variant of that name (see `unodsl list`)."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") or path.exists() or "/" in str(name):
        return path
    candidate = shipped_dir() / f"{name}.yaml"
    if candidate.exists():
        return candidate
    hint = did_you_mean(str(name), shipped_names()) or f"shipped variants: {', '.join(shipped_names())}"
    raise VariantError.at(Pos(str(name), 1, 1), f"no variant file or shipped variant named {str(name)!r}",
                          hint)


def _is_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def _base_path(ref: str, child: Path, at: Pos) -> Path:
    """Where `extends: ref` in file `child` points: a path next to it, or a shipped variant."""
    if _is_path(ref):
        path = Path(ref) if Path(ref).is_absolute() else Path(os.path.normpath(child.parent / ref))
        if path.is_file():
            return path
        here = path.parent
        nearby = [p.name for p in here.glob("*.y*ml")] if here.is_dir() else []
        close = difflib.get_close_matches(path.name, nearby, n=1, cutoff=0.6)
        what = "is a directory" if path.is_dir() else "does not exist"
        if path.stem in shipped_names():
            hint = f"to build on the shipped variant, give its name: `extends: {path.stem}`"
        elif close:
            hint = f"did you mean {str(Path(ref).parent / close[0])!r}?"
        else:
            hint = "a path is relative to the file that extends it"
        looked = f" (looked for {str(path)!r})" if str(path) != ref else ""
        raise VariantError.at(at, f"extends: {ref!r} {what}{looked}", hint)
    shipped = shipped_dir() / f"{ref}.yaml"
    if shipped.is_file():
        return shipped
    raise VariantError.at(at, f"extends: no shipped variant named {ref!r}",
                          did_you_mean(ref, shipped_names())
                          or f"shipped variants: {', '.join(shipped_names())}; a file needs its path, "
                          "ending in .yaml")


def load_tree(name: str | Path) -> Source:
    """Read a variant and every variant it `extends:`, merged into one Source.

    Maps merge, lists replace, null removes a key (see overlay.py). Positions
    stay with the file each value was written in. Cycles are refused with the
    chain of files.
    """
    return _load_chain(resolve(name), ())


def _load_chain(path: Path, chain: tuple[tuple[Path, str], ...]) -> Source:
    src = load_source(path)
    if not isinstance(src.data, dict) or "extends" not in src.data:
        return src
    ref = src.data["extends"]
    at = src.pos(("extends",))
    if not isinstance(ref, str) or not ref.strip():
        raise VariantError.at(at, "extends should be a shipped variant's name or a path to a variant file",
                              "for example `extends: ../base.yaml`, or a name from `unodsl list`")
    base = _base_path(ref.strip(), path, at)
    links = (*chain, (path.resolve(), src.file))
    if any(base.resolve() == seen for seen, _ in links):
        names = [shown for _, shown in links] + [str(base)]
        start = next(i for i, (seen, _) in enumerate(links) if seen == base.resolve())
        raise VariantError.at(at, "extends goes round in a circle: " + " → ".join(names[start:]),
                              "a variant can't build on itself; remove one of these `extends:`")
    if len(links) > MAX_EXTENDS:
        raise VariantError.at(at, f"extends chains more than {MAX_EXTENDS} files",
                              "build on the shipped variant or base file directly")
    return extend(_load_chain(base, links), src)


@dataclass
class _Builder:
    """Builds one Variant, collecting diagnostics instead of stopping at the first."""

    src: Source
    diags: list[Diagnostic] = field(default_factory=list)
    trees: dict[Key, ast.Node] = field(default_factory=dict)  # each checked expression
    types: dict[Key, dict[int, str]] = field(default_factory=dict)  # … and its nodes' static types

    def error(self, key: Key, message: str, hint: str | None = None, *, on_key: bool = False) -> None:
        pos = self.src.key_pos(key) if on_key else self.src.pos(key)
        self.diags.append(Diagnostic(pos, message, hint))

    def warn(self, key: Key, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(self.src.key_pos(key), message, hint, "warning"))

    # -- expressions --------------------------------------------------------
    def _at(self, key: Key, line: int, col: int) -> Pos:
        span = self.src.spans.get(key)
        return span.locate(line, col) if span else self.src.pos(key)

    def _parse(self, key: Key, text: str) -> ast.Node | None:
        deep = _too_deep(text)
        if deep is not None:
            self.diags.append(Diagnostic(self._at(key, *deep), f"brackets are nested more than {MAX_NESTING} "
                                         "levels deep", "split the expression using variables (x = …; …)"))
            return None
        try:
            node = parse(text)
        except LangSyntaxError as err:
            self.diags.append(Diagnostic(self._at(key, err.line, err.col), f"syntax error: {err.message}",
                                         err.hint))
            return None
        except RecursionError:
            node = None
        if node is None or _depth(node) > MAX_NESTING:
            self.diags.append(Diagnostic(self._at(key, 1, 1), f"the expression nests more than {MAX_NESTING} "
                                         "levels deep", "split it using variables (x = …; …)"))
            return None
        return node

    def _check(self, key: Key, node: ast.Node, ctx: Context, program: bool) -> str | None:
        """The static type of a checked expression, or None after reporting its error."""
        try:
            t = check(node, ctx, program=program)
        except CheckError as err:
            self.diags.append(Diagnostic(self._at(key, *err.at), err.message, err.hint))
            return None
        self.trees[key] = node
        self.types[key] = ctx.types
        return t

    def _ctx(self, env: Mapping[str, str], effects: bool) -> Context:
        return Context(REGISTRY, env, self.kinds, self.colors, effects)

    def program(self, key: Key, env: Mapping[str, str]) -> Program:
        text = self._get(key)
        if not isinstance(text, str):
            return ()
        node = self._parse(key, text)
        ctx = self._ctx(env, effects=True)
        if node is None or self._check(key, node, ctx, program=True) is None:
            return ()
        return compile_program(node, ctx)

    def condition(self, key: Key, env: Mapping[str, str], *, effects: bool = False,
                  default: str | None = None, want: tuple[str, ...] = ("bool",)) -> Fn | None:
        """Compile the expression at `key` (or `default` if absent); its type must fit one of `want`."""
        text = self._get(key)
        if not isinstance(text, str):
            if default is None:
                return None
            text, key = default, ()
        node = self._parse(key, text) if key else parse(text)
        ctx = self._ctx(env, effects=effects)
        t = None if node is None else self._check(key, node, ctx, program=False)
        if node is None or t is None:
            return None
        if not any(fits(t, w) for w in want):
            where = ".".join(str(k) for k in key)
            if want == ("bool",):
                what, hint = f"{where} is a condition", "compare it, e.g. count(hand) > 0 or card.rank == 7"
            else:
                what, hint = f"{where} should give {TYPE_WORDS[want[0]]}", "for example left_of(dealer)"
            self.error(key, f"{what}, but {show(node)} is {TYPE_WORDS.get(t, t)}", hint)
            return None
        return compile_expr(node, ctx)

    def _get(self, key: Key) -> Any:
        value: Any = self.src.data
        for part in key:
            if isinstance(value, dict) and isinstance(part, str):
                value = value.get(part)
            elif isinstance(value, list) and isinstance(part, int) and part < len(value):
                value = value[part]
            else:
                return None
        return value

    # -- the parts -----------------------------------------------------------
    def build(self) -> Variant:
        d = self.src.data
        sides_raw = d.get("sides") or [{"name": "front", "colors": d.get("colors", []),
                                        "deck": d.get("deck", [])}]
        side_keys: list[Key] = [("sides", i) for i in range(len(sides_raw))] if "sides" in d else [()]
        self.kinds = frozenset(d["cards"])
        self.colors = frozenset(c for s in sides_raw for c in s.get("colors", []))
        kinds = {name: self.kind(name) for name in d["cards"]}
        before = len(self.diags)
        sides = tuple(self.side(raw, key, kinds) for raw, key in zip(sides_raw, side_keys, strict=True))
        deck_ok = len(self.diags) == before  # totals are only meaningful for a deck without errors
        if deck_ok:
            self.deck_checks(d, sides, side_keys)
            self.unused_kinds(d, sides)
        self.option_patches(d.get("options") or {})
        players = d["players"]
        if players["min"] > players["max"]:
            self.error(("players", "min"), f"players: min ({players['min']}) is more than max ({players['max']})",
                       "swap the two numbers")
        rnd = d["round"]
        draw = d.get("turn", {}).get("draw", {})
        variant = Variant(
            name=d["name"], file=self.src.file,
            min_players=players["min"], max_players=players["max"],
            sides=sides, pairing=d.get("pairing", "shuffled"), kinds=kinds,
            first_dealer=self.condition(("round", "first_dealer"), PLAYER_ENV, effects=True, want=DEALER)
            if "first_dealer" in rnd else None,
            next_dealer=self.condition(("round", "next_dealer"), PLAYER_ENV, effects=True,
                                       default="left_of(dealer)", want=DEALER),
            setup=self.program(("round", "setup"), PLAYER_ENV),
            turn=TurnRules(
                match=self.condition(("turn", "match"), CARD_ENV, default=DEFAULT_MATCH)
                or (lambda g, e: False),
                must_play_if_able=d.get("turn", {}).get("must_play_if_able", False),
                match_is_pure=_match_is_pure(d.get("turn", {}).get("match", DEFAULT_MATCH)),
                draw=DrawRule(count=draw.get("count", 1), until_playable=draw.get("until_playable", False),
                              max=draw.get("max", 10),
                              allowed_if=self.condition(("turn", "draw", "allowed_if"), PLAYER_ENV),
                              then=draw.get("then", "may_play")),
            ),
            scoring=Scoring(d["scoring"].get("round", "winner_scores_others"),
                            d["scoring"]["target"], d["scoring"].get("winner", "highest")),
            rules=tuple(self.rule(i, r) for i, r in enumerate(d.get("rules", []))),
            options=(),
        )
        if deck_ok and players["min"] <= players["max"]:
            self.deal_fits(players["max"], sides[0].faces)
        self.flags()
        return variant

    def deal_fits(self, max_players: int, faces: tuple[Face, ...]) -> None:
        """The cards the setup surely deals and turns up, at the largest table, must exist,
        and a cut for the dealer must be able to break ties."""
        deck = len(faces)
        for key in (("round", "first_dealer"), ("round", "next_dealer")):
            tree = self.trees.get(key)
            for cut in (c for c in _calls(tree) if c.func == "cut") if tree is not None else ():
                if deck < max_players:
                    self.error(("players", "max"), f"the deck has {deck} cards, but cut() draws one for each of "
                               f"{max_players} players", f"lower players.max to {deck}, or add cards to the deck"
                               if deck >= 1 else "add cards to the deck")
                    return
                fn = cut.args[0] if cut.args else dict(cut.kwargs).get("value")
                given = self.types[key].get(id(fn.body)) if isinstance(fn, ast.Lambda) else None
                if given is not None and given not in ("int", "bool", "any", "none"):
                    assert isinstance(fn, ast.Lambda)
                    self.diags.append(Diagnostic(
                        self._at(key, *cut.at), f"{show(cut)} needs a number for each card, but "
                        f"{show(fn.body)} is {TYPE_WORDS.get(given, given)}", "for example cut(c -> c.rank)"))
                    continue
                same = _one_cut_value(cut, faces)
                if same is not None and max_players > 1:
                    self.diags.append(Diagnostic(
                        self._at(key, *cut.at), f"{show(cut)} can never choose: every card in the deck gives "
                        f"{same!r}, so every cut is a tie", "cut by something that differs between cards"))
        setup = self.trees.get(("round", "setup"))
        if setup is None:
            return
        if not any(c.func in DEALS for c in _calls(setup)):
            self.error(("round", "setup"), "round.setup gives the players no cards (it never deals, draws or "
                       "moves cards), so every round would be over before its first turn",
                       "for example: shuffle(draw_pile); deal(7); turn_up()")
            return
        each, turned = _sure_deal(setup)
        needed = each * max_players + turned
        if needed <= deck:
            return
        table = f"{max_players} players" if max_players != 1 else "1 player"
        up = f" and turning up {turned}" if turned else ""
        fit = (deck - turned) // each if each else 0
        hint = (f"lower players.max to {fit}, deal fewer cards, or add cards to the deck"
                if fit >= 1 else "deal fewer cards, or add cards to the deck")
        self.error(("players", "max"), f"the deck has {deck} cards, but dealing {each} to each of "
                   f"{table}{up} takes {needed}", hint)

    def flags(self) -> None:
        """A flag that is tested (flagged) or cleared (unflag) but never set is a typo."""
        used: list[tuple[Key, ast.Call, ast.Literal]] = []
        for key, tree in self.trees.items():
            used += [(key, call, lit) for call, lit in _flag_calls(tree)]
        set_here = {str(lit.value) for _, call, lit in used if call.func == "flag"}
        set_here |= self._flags_set_by_options()
        unset: dict[str, list[Pos]] = {}
        for key, call, lit in used:
            if call.func in ("flagged", "unflag") and str(lit.value) not in set_here:
                unset.setdefault(str(lit.value), []).append(self._at(key, *lit.at))
        for name, places in unset.items():  # one warning per flag, at its first use
            first = min(places, key=lambda p: (p.file, p.line, p.col))
            more = f"; it is used {len(places)} times" if len(places) > 1 else ""
            self.diags.append(Diagnostic(
                first, f"flag {name!r} is never set (no flag(…, {name!r}) anywhere){more}",
                did_you_mean(name, set_here) or 'set it with flag(player, "name")', "warning"))

    def option_patches(self, options: dict[str, Any]) -> None:
        """An option's patch changes this file's sections; it cannot extend or declare."""
        for name, raw in options.items():
            patch = raw.get("set") if isinstance(raw, dict) else None
            if not isinstance(patch, dict):
                continue
            if "extends" in patch:
                self.error(("options", name, "set", "extends"), "an option cannot extend a variant: "
                           "`extends` is resolved for the whole file before any option applies",
                           "put `extends:` at the top of the file, or make the house rule a file of its own",
                           on_key=True)
            if "options" in patch:
                self.error(("options", name, "set", "options"), "an option cannot declare options",
                           "declare every option under the top-level `options:`", on_key=True)

    def _flags_set_by_options(self) -> set[str]:
        """Flags an option's patch sets, so that a flag an option sets is not reported unset."""
        found: set[str] = set()
        texts = [v for v in _leaves(self.src.data.get("options")) if isinstance(v, str)]
        for text in texts:
            try:
                tree = parse(text) if _too_deep(text) is None else None
            except (LangSyntaxError, RecursionError):
                tree = None
            if tree is not None:
                found |= {str(lit.value) for call, lit in _flag_calls(tree) if call.func == "flag"}
        return found

    def kind(self, name: str) -> CardKind:
        raw = self.src.data["cards"][name]
        key: Key = ("cards", name)
        on_play = self.program((*key, "on_play"), CARD_ENV)
        tree = self.trees.get((*key, "on_play"))
        again = next(_self_applications(tree), None) if tree is not None else None
        if again is not None:
            self.diags.append(Diagnostic(
                self._at((*key, "on_play"), *again.at), "apply(card) runs this on_play again, which runs "
                "apply(card) again, without end", "apply another card, or only under a condition"))
        return CardKind(
            name=name, points=raw["points"], wild=raw.get("wild", False),
            on_play=on_play,
            legal_if=self.condition((*key, "legal_if"), CARD_ENV),
            description=raw.get("description", ""),
        )

    def side(self, raw: dict[str, Any], key: Key, kinds: Mapping[str, CardKind]) -> Side:
        colors = tuple(raw.get("colors", []))
        faces: list[Face] = []
        for i, entry in enumerate(raw.get("deck", [])):
            faces += self.entry(entry, (*key, "deck", i), colors, kinds)
            if len(faces) > MAX_CARDS:
                self.error((*key, "deck"), f"the deck has more than {MAX_CARDS:,} cards",
                           "check the counts and the ranks ranges")
                break
        return Side(raw.get("name", "front"), colors, tuple(faces))

    def entry(self, entry: dict[str, Any], key: Key, colors: tuple[str, ...],
              kinds: Mapping[str, CardKind]) -> Iterable[Face]:
        names = entry["kind"] if isinstance(entry["kind"], list) else [entry["kind"]]
        ranks = self.ranks(entry.get("ranks"), (*key, "ranks"))
        if ranks is None:
            return []
        use = tuple(entry.get("colors", colors))
        for c in use:
            if c not in colors:
                self.error((*key, "colors"), f"colour {c!r} is not one of this deck's colours",
                           did_you_mean(c, colors) or f"colours: {', '.join(colors) or 'none'}")
                return []
        per_color = "per_color" in entry
        if per_color and not use:
            self.error(key, "per_color needs colours, but this deck has none", "use count instead")
            return []
        copies = entry.get("per_color", entry.get("count", 1))
        total = copies * len(names) * max(1, len(ranks)) * (len(use) if per_color else 1)
        if total > MAX_CARDS:
            self.error(key, f"this group makes {total:,} cards; a deck may have at most {MAX_CARDS:,}",
                       "check the counts and the ranks range")
            return []
        faces = []
        for n, kname in enumerate(names):
            kind = kinds.get(kname)
            if kind is None:
                k = (*key, "kind", n) if isinstance(entry["kind"], list) else (*key, "kind")
                self.error(k, f"unknown card kind {kname!r}",
                           did_you_mean(kname, kinds) or "define it under `cards:`")
                continue
            if kind.points == "rank" and not ranks:
                self.error(key, f"{kname!r} scores its rank (points: rank) but this group gives no ranks",
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
        lo, hi = (int(x) for x in re.split("-", raw))
        if lo > hi:
            self.error(key, f"ranks {raw!r} run backwards", f"write {hi}-{lo}")
            return None
        return range(lo, hi + 1)  # its length is checked before any card is made

    def deck_checks(self, d: dict[str, Any], sides: tuple[Side, ...], keys: list[Key]) -> None:
        sizes = [len(s.faces) for s in sides]
        if len(set(sizes)) > 1:
            self.error(("sides",), "the sides have different numbers of cards: "
                       + ", ".join(f"{s.name} {len(s.faces)}" for s in sides),
                       "every card has one face on each side")
        declared = d.get("deck_size")
        if declared is not None and declared != sizes[0]:
            self.error(("deck_size",), f"deck_size says {declared} cards, but the deck lists {sizes[0]}",
                       "fix the counts or the declared size")

    def unused_kinds(self, d: dict[str, Any], sides: tuple[Side, ...]) -> None:
        used = {f.kind for s in sides for f in s.faces}
        for name in d["cards"]:
            if name not in used:
                self.warn(("cards", name), f"card kind {name!r} is defined but never in the deck")

    def rule(self, i: int, raw: dict[str, Any]) -> Rule:
        key: Key = ("rules", i)
        event = raw["on"]
        fields = EVENTS.get(event)
        if fields is None:
            self.error((*key, "on"), f"unknown event {event!r}",
                       did_you_mean(event, EVENTS) or f"events: {', '.join(EVENTS)}")
            # Its `if` and `do` read the event's fields, so checking them now would only
            # report consequences of the wrong name.
            return Rule(raw.get("name", f"rule {i + 1}"), event, None, ())
        return Rule(raw.get("name", f"rule {i + 1}"), event,
                    self.condition((*key, "if"), fields), self.program((*key, "do"), fields))


DEALER = ("player", "int")  # a dealer expression gives a player (a seat number works too)
DEALS = frozenset({"deal", "draw", "draw_until", "move", "move_all", "give"})  # what can fill a hand


def _too_deep(text: str) -> tuple[int, int] | None:
    """(line, col) of the first bracket nested deeper than MAX_NESTING, outside strings."""
    depth, line, col, quote = 0, 1, 0, ""
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
            if depth > MAX_NESTING:
                return line, col
        elif ch in ")]":
            depth -= 1
    return None


def _children(node: ast.Node) -> Iterator[ast.Node]:
    for f in dataclass_fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, tuple):  # a keyword argument: (name, node)
                item = item[1]
            if isinstance(item, ast.Node):
                yield item


def _depth(root: ast.Node) -> int:
    """Depth of a syntax tree, measured without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        stack += [(child, d + 1) for child in _children(node)]
    return deepest


def _calls(root: ast.Node) -> Iterator[ast.Call]:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            yield node
        stack += _children(node)


def _flag_calls(root: ast.Node) -> Iterator[tuple[ast.Call, ast.Literal]]:
    """Calls that name a flag with a string literal as their second argument."""
    for call in _calls(root):
        if call.func in ("flag", "flagged", "unflag"):
            name = call.args[1] if len(call.args) >= 2 else dict(call.kwargs).get("flag")
            if isinstance(name, ast.Literal) and isinstance(name.value, str):
                yield call, name


def _leaves(value: Any) -> Iterator[Any]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack += v.values()
        elif isinstance(v, list):
            stack += v
        else:
            yield v


def _self_applications(node: ast.Node) -> Iterator[ast.Call]:
    """`apply(card)` calls that a card's on_play surely reaches (not under an if or a loop)."""
    match node:
        case ast.Seq(body=body):
            for stmt in body:
                yield from _self_applications(stmt)
        case ast.Repeat(count=count, body=body) if (_int(count) or 0) > 0:
            yield from _self_applications(body)
        case ast.Call(func="apply", args=args, kwargs=kwargs):
            target = args[0] if args else dict(kwargs).get("card")
            if isinstance(target, ast.Name) and target.id == "card":
                yield node


def _one_cut_value(cut: ast.Call, faces: tuple[Face, ...]) -> Any:
    """The value every card gives to `cut(c -> …)` when it is the same for all (a tie that
    never breaks), for a constant or a plain face attribute; otherwise None."""
    fn = cut.args[0] if cut.args else dict(cut.kwargs).get("value")
    if not isinstance(fn, ast.Lambda):
        return None
    body = fn.body
    if isinstance(body, ast.Literal):
        return body.value or 0
    if (isinstance(body, ast.Attr) and isinstance(body.obj, ast.Name) and body.obj.id == fn.param
            and body.name in ("rank", "points", "color", "kind", "wild", "symbol")):
        values = {getattr(f, body.name) or 0 for f in faces}
        return values.pop() if len(values) == 1 else None
    return None


def _int(node: ast.Node | None) -> int | None:
    if isinstance(node, ast.Literal) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def _sure_deal(node: ast.Node) -> tuple[int, int]:
    """(cards dealt to each player, cards turned up) that a setup program surely deals.

    Counts `deal(<number>)` and `turn_up()` in the straight line of the program and
    in `repeat <number>`; a branch counts only what both sides deal; loops over
    players and `while` loops are left out (their counts are not known statically).
    """
    match node:
        case ast.Seq(body=body):
            parts = [_sure_deal(s) for s in body]
            return sum(p[0] for p in parts), sum(p[1] for p in parts)
        case ast.Call(func="deal", args=args, kwargs=kwargs):
            count = _int(args[0] if args else dict(kwargs).get("count"))
            return (count or 0, 0)
        case ast.Call(func="turn_up"):
            return (0, 1)
        case ast.Repeat(count=count, body=body):
            n, (each, up) = _int(count) or 0, _sure_deal(body)
            return each * max(n, 0), up * max(n, 0)
        case ast.If(then=then, orelse=orelse) if orelse is not None:
            a, b = _sure_deal(then), _sure_deal(orelse)
            return min(a[0], b[0]), min(a[1], b[1])
    return 0, 0


def _match_is_pure(text: Any) -> bool:
    """Whether turn.match may be memoised by the engine (see reads_only_faces)."""
    try:
        return isinstance(text, str) and reads_only_faces(parse(text))
    except (LangSyntaxError, RecursionError):  # reported by the checker; the variant is refused
        return False


def apply_options(src: Source, chosen: Mapping[str, bool]) -> tuple[Source, tuple[Option, ...]]:
    """Merge the patches of the options that are on; unknown names are errors."""
    declared = src.data.get("options", {}) if isinstance(src.data, dict) else {}
    declared = declared if isinstance(declared, dict) else {}
    for name in chosen:
        if name not in declared:
            hint = did_you_mean(name, declared) or (
                f"options: {', '.join(declared)}" if declared else "this variant has no options")
            raise VariantError.at(src.pos(("options",)), f"unknown option {name!r}", hint)
    options = []
    for name, raw in declared.items():
        if not isinstance(raw, dict):
            continue
        on = chosen.get(name, bool(raw.get("default", False)))
        options.append(Option(name, str(raw.get("description", "")), on))
        if on and isinstance(raw.get("set"), dict):
            src = overlay(src, raw["set"], src, ("options", name, "set"))
    return src, tuple(options)


def _ordered(diags: Iterable[Diagnostic], file: str) -> list[Diagnostic]:
    """Each diagnostic once, the asked-for file first, then by position."""
    unique = list(dict.fromkeys(diags))
    return sorted(unique, key=lambda d: (d.pos.file != file, d.pos.file, d.pos.line, d.pos.col))


def check_source(src: Source, options: Mapping[str, bool] | None = None
                 ) -> tuple[Variant | None, list[Diagnostic]]:
    """Schema and semantic checks; the Variant is None if any error was found."""
    problems = validate(src)
    if problems:
        return None, _ordered([*problems, *src.notes], src.file)
    merged, opts = apply_options(src, options or {})
    if merged is not src:
        problems = validate(merged)
        if problems:
            return None, _ordered([*problems, *merged.notes], src.file)
    builder = _Builder(merged)
    variant = builder.build()
    diags = _ordered([*builder.diags, *merged.notes], src.file)
    if any(d.severity == "error" for d in diags):
        return None, diags
    variant = Variant(**{**variant.__dict__, "options": opts})
    return variant, diags


def load_variant(name: str | Path, options: Mapping[str, bool] | None = None) -> Variant:
    """Load, check and compile a variant (a path, or a shipped variant's name)."""
    src = load_tree(name)
    variant, diags = check_source(src, options)
    errors = [d for d in diags if d.severity == "error"]
    if variant is None or errors:
        raise VariantError(errors or diags)
    return variant


def validate_file(name: str | Path) -> list[Diagnostic]:
    """Every diagnostic for a file (and what it extends), with each option switched on in turn.

    Never raises for a problem in the file: every problem is a Diagnostic.
    """
    try:
        src = load_tree(name)
        _, diags = check_source(src)
        if any(d.severity == "error" for d in diags):
            return diags
        for opt in (src.data.get("options") or {}):
            _, more = check_source(src, {opt: True})
            diags += more
    except VariantError as err:
        return err.diagnostics
    return _ordered(diags, src.file)
