"""Variant file → checked, compiled Variant: load, merge options, schema, build.

Every problem found along the way becomes a positioned Diagnostic; they are all
collected and raised together as one VariantError.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .engine.events import EVENTS
from .engine.ops import REGISTRY
from .errors import Diagnostic, Pos, VariantError
from .lang import ast
from .lang.check import CheckError, Context, check, did_you_mean
from .lang.compile import Fn, Program, compile_expr, compile_program
from .lang.parse import LangSyntaxError, parse
from .model import CardKind, DrawRule, Face, Option, Rule, Scoring, Side, TurnRules, Variant
from .overlay import overlay
from .schema import validate
from .source import Key, Source, load_source

DEFAULT_MATCH = "card.wild or card.color == current_color or card.symbol == top.symbol"
CARD_ENV = {"player": "player", "card": "card"}
PLAYER_ENV = {"player": "player"}


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


@dataclass
class _Builder:
    """Builds one Variant, collecting diagnostics instead of stopping at the first."""

    src: Source
    diags: list[Diagnostic] = field(default_factory=list)

    def error(self, key: Key, message: str, hint: str | None = None, *, on_key: bool = False) -> None:
        pos = self.src.key_pos(key) if on_key else self.src.pos(key)
        self.diags.append(Diagnostic(pos, message, hint))

    def warn(self, key: Key, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(self.src.key_pos(key), message, hint, "warning"))

    # -- expressions --------------------------------------------------------
    def _parse(self, key: Key, text: str) -> ast.Node | None:
        span = self.src.spans.get(key)
        try:
            return parse(text)
        except LangSyntaxError as err:
            pos = span.locate(err.line, err.col) if span else self.src.pos(key)
            self.diags.append(Diagnostic(pos, f"syntax error: {err.message}", err.hint))
            return None

    def _check(self, key: Key, node: ast.Node, ctx: Context, program: bool) -> bool:
        try:
            check(node, ctx, program=program)
            return True
        except CheckError as err:
            span = self.src.spans.get(key)
            pos = span.locate(*err.at) if span else self.src.pos(key)
            self.diags.append(Diagnostic(pos, err.message, err.hint))
            return False

    def _ctx(self, env: Mapping[str, str], effects: bool) -> Context:
        return Context(REGISTRY, env, self.kinds, self.colors, effects)

    def program(self, key: Key, env: Mapping[str, str]) -> Program:
        text = self._get(key)
        if not isinstance(text, str):
            return ()
        node = self._parse(key, text)
        ctx = self._ctx(env, effects=True)
        if node is None or not self._check(key, node, ctx, program=True):
            return ()
        return compile_program(node, ctx)

    def condition(self, key: Key, env: Mapping[str, str], *, effects: bool = False,
                  default: str | None = None) -> Fn | None:
        text = self._get(key)
        if not isinstance(text, str):
            if default is None:
                return None
            text, key = default, ()
        node = self._parse(key, text) if key else parse(text)
        ctx = self._ctx(env, effects=effects)
        if node is None or not self._check(key, node, ctx, program=False):
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
        if len(self.diags) == before:  # totals are only meaningful for a deck without errors
            self.deck_checks(d, sides, side_keys)
            self.unused_kinds(d, sides)
        players = d["players"]
        if players["min"] > players["max"]:
            self.error(("players",), f"players: min ({players['min']}) is more than max ({players['max']})")
        rnd = d["round"]
        draw = d.get("turn", {}).get("draw", {})
        variant = Variant(
            name=d["name"], file=self.src.file,
            min_players=players["min"], max_players=players["max"],
            sides=sides, pairing=d.get("pairing", "shuffled"), kinds=kinds,
            first_dealer=self.condition(("round", "first_dealer"), PLAYER_ENV, effects=True)
            if "first_dealer" in rnd else None,
            next_dealer=self.condition(("round", "next_dealer"), PLAYER_ENV, effects=True,
                                       default="left_of(dealer)"),
            setup=self.program(("round", "setup"), PLAYER_ENV),
            turn=TurnRules(
                match=self.condition(("turn", "match"), CARD_ENV, default=DEFAULT_MATCH)
                or (lambda g, e: False),
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
        return variant

    def kind(self, name: str) -> CardKind:
        raw = self.src.data["cards"][name]
        key: Key = ("cards", name)
        return CardKind(
            name=name, points=raw["points"], wild=raw.get("wild", False),
            on_play=self.program((*key, "on_play"), CARD_ENV),
            legal_if=self.condition((*key, "legal_if"), CARD_ENV),
            description=raw.get("description", ""),
        )

    def side(self, raw: dict[str, Any], key: Key, kinds: Mapping[str, CardKind]) -> Side:
        colors = tuple(raw.get("colors", []))
        faces: list[Face] = []
        for i, entry in enumerate(raw.get("deck", [])):
            faces += self.entry(entry, (*key, "deck", i), colors, kinds)
        return Side(raw.get("name", "front"), colors, tuple(faces))

    def entry(self, entry: dict[str, Any], key: Key, colors: tuple[str, ...],
              kinds: Mapping[str, CardKind]) -> Iterable[Face]:
        names = entry["kind"] if isinstance(entry["kind"], list) else [entry["kind"]]
        ranks = self.ranks(entry.get("ranks"), (*key, "ranks"))
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
        if total > 100_000:
            self.error(key, f"this group makes {total:,} cards; a deck may have at most 100,000")
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

    def ranks(self, raw: Any, key: Key) -> list[int]:
        if raw is None:
            return []
        if isinstance(raw, int):
            return [raw]
        if isinstance(raw, list):
            return list(raw)
        lo, hi = (int(x) for x in re.split("-", raw))
        if lo > hi:
            self.error(key, f"ranks {raw!r} run backwards", f"write {hi}-{lo}")
            return []
        return list(range(lo, hi + 1))

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
            fields = {}
        return Rule(raw.get("name", f"rule {i + 1}"), event,
                    self.condition((*key, "if"), fields), self.program((*key, "do"), fields))


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


def check_source(src: Source, options: Mapping[str, bool] | None = None
                 ) -> tuple[Variant | None, list[Diagnostic]]:
    """Schema and semantic checks; the Variant is None if any error was found."""
    problems = validate(src)
    if problems:
        return None, problems
    merged, opts = apply_options(src, options or {})
    if merged is not src:
        problems = validate(merged)
        if problems:
            return None, problems
    builder = _Builder(merged)
    variant = builder.build()
    diags = sorted(builder.diags, key=lambda d: (d.pos.file, d.pos.line, d.pos.col))
    if any(d.severity == "error" for d in diags):
        return None, diags
    variant = Variant(**{**variant.__dict__, "options": opts})
    return variant, diags


def load_variant(name: str | Path, options: Mapping[str, bool] | None = None) -> Variant:
    """Load, check and compile a variant (a path, or a shipped variant's name)."""
    src = load_source(resolve(name))
    variant, diags = check_source(src, options)
    errors = [d for d in diags if d.severity == "error"]
    if variant is None or errors:
        raise VariantError(errors or diags)
    return variant


def validate_file(name: str | Path) -> list[Diagnostic]:
    """Every diagnostic for a file, with each option switched on in turn."""
    try:
        src = load_source(resolve(name))
    except VariantError as err:
        return err.diagnostics
    try:
        _, diags = check_source(src)
        if any(d.severity == "error" for d in diags):
            return diags
        for opt in (src.data.get("options") or {}):
            _, more = check_source(src, {opt: True})
            diags += [d for d in more if d not in diags]
    except VariantError as err:
        return err.diagnostics
    return diags
