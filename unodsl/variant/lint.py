"""Checks that look at a whole variant file once its expressions are checked: the deck
adds up, the deal fits, a cut can choose, flags are set somewhere, options patch
only what they may, no card kind is left unused, no number is chosen from an empty range.

Each check adds diagnostics to the file's `Expressions`; none changes the model.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from ..errors import Diagnostic, Pos, did_you_mean
from ..lang import ast
from ..lang.parse import LangSyntaxError
from ..lang.show import show
from ..lang.signature import TYPE_WORDS
from ..lang.static import option_read, static_int
from ..lang.walk import calls, nodes
from ..model import Face, Side, Variant
from .expressions import Expressions, parse_once, too_deep
from .source import Key

DEALS = frozenset({"deal", "draw", "draw_until", "move", "move_all", "give"})  # what can fill a hand


def lint(x: Expressions, variant: Variant, deck_ok: bool) -> None:
    """Every whole-file check; the deck's totals only when the deck itself had no errors."""
    d = x.src.data
    if deck_ok:
        deck_sizes(x, d, variant.sides)
        unused_kinds(x, d, variant.sides)
        if variant.min_players <= variant.max_players:
            deal_fits(x, variant.max_players, variant.sides[0].faces)
    option_patches(x, d.get("options") or {})
    flags(x)
    number_ranges(x)


def deck_sizes(x: Expressions, d: dict[str, Any], sides: tuple[Side, ...]) -> None:
    """Every side has as many cards as the others, and as `deck_size` says."""
    sizes = [len(s.faces) for s in sides]
    if len(set(sizes)) > 1:
        x.error(("sides",), "the sides have different numbers of cards: "
                + ", ".join(f"{s.name} {len(s.faces)}" for s in sides),
                "every card has one face on each side")
    declared = d.get("deck_size")
    if declared is not None and declared != sizes[0]:
        inherited = x.src.pos(("deck_size",)).file != x.src.file and x.src.pos(("deck",)).file == x.src.file
        x.error(("deck_size",), f"deck_size says {declared} cards, but the deck lists {sizes[0]}",
                f"the overlay changed the deck: set `deck_size: {sizes[0]}` in {x.src.file}" if inherited
                else "fix the counts or the declared size")


def unused_kinds(x: Expressions, d: dict[str, Any], sides: tuple[Side, ...]) -> None:
    """A card kind defined but never in the deck (a warning)."""
    used = {f.kind for s in sides for f in s.faces}
    for name in d["cards"]:
        if name not in used:
            x.warn(("cards", name), f"card kind {name!r} is defined but never in the deck")


def deal_fits(x: Expressions, max_players: int, faces: tuple[Face, ...]) -> None:
    """The cards the setup surely deals and turns up, at the largest table, must exist,
    and a cut for the dealer must be able to break ties."""
    deck = len(faces)
    for key in (("round", "first_dealer"), ("round", "next_dealer")):
        tree = x.trees.get(key)
        for cut in (c for c in calls(tree) if c.func == "cut") if tree is not None else ():
            if deck < max_players:
                x.error(("players", "max"), f"the deck has {deck} cards, but cut() draws one for each of "
                        f"{max_players} players", f"lower players.max to {deck}, or add cards to the deck"
                        if deck >= 1 else "add cards to the deck")
                return
            fn = cut.args[0] if cut.args else dict(cut.kwargs).get("value")
            given = x.types[key].get(id(fn.body)) if isinstance(fn, ast.Lambda) else None
            if given is not None and given not in ("int", "bool", "any", "none"):
                assert isinstance(fn, ast.Lambda)
                x.diags.append(Diagnostic(
                    x.at(key, *cut.at), f"{show(cut)} needs a number for each card, but "
                    f"{show(fn.body)} is {TYPE_WORDS.get(given, given)}", "for example cut(c -> c.rank)"))
                continue
            same = _one_cut_value(cut, faces)
            if same is not None and max_players > 1:
                x.diags.append(Diagnostic(
                    x.at(key, *cut.at), f"{show(cut)} can never choose: every card in the deck gives "
                    f"{same!r}, so every cut is a tie", "cut by something that differs between cards"))
    setup = x.trees.get(("round", "setup"))
    if setup is None:
        return
    if not any(c.func in DEALS for c in calls(setup)):
        x.error(("round", "setup"), "round.setup gives the players no cards (it never deals, draws or "
                "moves cards), so every round would be over before its first turn",
                "for example: shuffle(draw_pile); deal(7); turn_up()")
        return
    each, turned = _sure_deal(setup, x.options)
    needed = each * max_players + turned
    if needed <= deck:
        return
    table = f"{max_players} players" if max_players != 1 else "1 player"
    up = f" and turning up {turned}" if turned else ""
    fit = (deck - turned) // each if each else 0
    hint = (f"lower players.max to {fit}, deal fewer cards, or add cards to the deck"
            if fit >= 1 else "deal fewer cards, or add cards to the deck")
    read = [n for n in dict.fromkeys(map(option_read, nodes(setup))) if n is not None and n in x.options]
    chosen = f" (with {', '.join(f'option.{n} = {x.options[n]}' for n in read)})" if read else ""
    x.error(("players", "max"), f"the deck has {deck} cards, but dealing {each} to each of "
            f"{table}{up} takes {needed}{chosen}", hint + ("; or lower the option's max" if read else ""))


def flags(x: Expressions) -> None:
    """A flag that is tested (flagged) or cleared (unflag) but never set is a typo."""
    used: list[tuple[Key, ast.Call, ast.Literal]] = []
    for key, tree in x.trees.items():
        used += [(key, call, lit) for call, lit in _flag_calls(tree)]
    set_here = {str(lit.value) for _, call, lit in used if call.func == "flag"}
    set_here |= _flags_set_by_options(x.src.data.get("options"))
    unset: dict[str, list[Pos]] = {}
    for key, call, lit in used:
        if call.func in ("flagged", "unflag") and str(lit.value) not in set_here:
            unset.setdefault(str(lit.value), []).append(x.at(key, *lit.at))
    for name, places in unset.items():  # one warning per flag, at its first use
        first = min(places, key=lambda p: (p.file, p.line, p.col))
        more = f"; it is used {len(places)} times" if len(places) > 1 else ""
        x.diags.append(Diagnostic(
            first, f"flag {name!r} is never set (no flag(…, {name!r}) anywhere){more}",
            did_you_mean(name, set_here) or 'set it with flag(player, "name")', "warning"))


def number_ranges(x: Expressions) -> None:
    """A `choose_number` whose range is written backwards (`choose_number(9, 1)`, numbers or
    options) has no number to offer."""
    for key, tree in x.trees.items():
        for call in calls(tree):
            given = dict(zip(("lo", "hi"), call.args, strict=False)) | dict(call.kwargs)
            if call.func != "choose_number" or "lo" not in given or "hi" not in given:
                continue
            lo, hi = static_int(given["lo"], x.options), static_int(given["hi"], x.options)
            if lo is not None and hi is not None and hi < lo:
                x.diags.append(Diagnostic(x.at(key, *call.at), f"choose_number() from {lo} to {hi} has no number "
                                          f"to choose: {hi} is below {lo}",
                                          f"write the lowest number first: choose_number({hi}, {lo})"))


def option_patches(x: Expressions, options: dict[str, Any]) -> None:
    """An option's patch changes this file's sections; it cannot extend or declare."""
    for name, raw in options.items():
        patch = raw.get("set") if isinstance(raw, dict) else None
        if not isinstance(patch, dict):
            continue
        if "extends" in patch:
            x.error(("options", name, "set", "extends"), "an option cannot extend a variant: "
                    "`extends` is resolved for the whole file before any option applies",
                    "put `extends:` at the top of the file, or make the house rule a file of its own",
                    on_key=True)
        if "options" in patch:
            x.error(("options", name, "set", "options"), "an option cannot declare options",
                    "declare every option under the top-level `options:`", on_key=True)


def self_applications(node: ast.Node) -> Iterator[ast.Call]:
    """`apply(card)` calls that a card's on_play surely reaches (not under an if or a loop)."""
    match node:
        case ast.Seq(body=body):
            for stmt in body:
                yield from self_applications(stmt)
        case ast.Repeat(count=count, body=body) if (_int(count) or 0) > 0:
            yield from self_applications(body)
        case ast.Call(func="apply", args=args, kwargs=kwargs):
            target = args[0] if args else dict(kwargs).get("card")
            if isinstance(target, ast.Name) and target.id == "card":
                yield node


def _flags_set_by_options(options: Any) -> set[str]:
    """Flags an option's patch sets, so that a flag an option sets is not reported unset.

    The patches are parsed here (once: parse_once remembers) because an option's
    expressions are checked only when the file is checked with it switched on."""
    found: set[str] = set()
    for text in (v for v in _leaves(options) if isinstance(v, str)):
        found |= _flags_set(text)
    return found


@lru_cache(maxsize=4096)
def _flags_set(text: str) -> frozenset[str]:
    """The flags an expression's text sets; none for a text that is not an expression (an
    option's description), remembered too: the file is checked once per option."""
    try:
        tree = parse_once(text) if too_deep(text) is None else None
    except (LangSyntaxError, RecursionError):
        tree = None
    if tree is None:
        return frozenset()
    return frozenset(str(lit.value) for call, lit in _flag_calls(tree) if call.func == "flag")


def _flag_calls(root: ast.Node) -> Iterator[tuple[ast.Call, ast.Literal]]:
    """Calls that name a flag with a string literal as their second argument."""
    for call in calls(root):
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


def _int(node: ast.Node | None, options: Mapping[str, bool | int] | None = None) -> int | None:
    """The whole number an expression surely gives (see static_int)."""
    return None if node is None else static_int(node, options or {})


def _sure_deal(node: ast.Node, options: Mapping[str, bool | int]) -> tuple[int, int]:
    """(cards dealt to each player, cards turned up) that a setup program surely deals.

    Counts `deal(<number>)` and `turn_up()` in the straight line of the program and
    in `repeat <number>` (a number written, or an option's value); a branch counts only
    what both sides deal; loops over players and `while` loops are left out (their
    counts are not known statically).
    """
    match node:
        case ast.Seq(body=body):
            parts = [_sure_deal(s, options) for s in body]
            return sum(p[0] for p in parts), sum(p[1] for p in parts)
        case ast.Call(func="deal", args=args, kwargs=kwargs):
            count = _int(args[0] if args else dict(kwargs).get("count"), options)
            return (count or 0, 0)
        case ast.Call(func="turn_up"):
            return (0, 1)
        case ast.Repeat(count=count, body=body):
            n, (each, up) = _int(count, options) or 0, _sure_deal(body, options)
            return each * max(n, 0), up * max(n, 0)
        case ast.If(then=then, orelse=orelse) if orelse is not None:
            a, b = _sure_deal(then, options), _sure_deal(orelse, options)
            return min(a[0], b[0]), min(a[1], b[1])
    return 0, 0
