"""A variant's rulebook, generated from the variant file: Markdown, or one printable HTML page.

The document is assembled once as a list of blocks (headings, paragraphs, lists,
tables) from the checked Variant and the merged variant text; the conditions and
effects are put into English by english.py. `python -m unodsl.tools.rulebook
--regenerate` rewrites the golden rulebooks of the shipped variants in docs/rulebooks/.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..lang import ast
from ..lang.parse import parse
from ..model import Face, Option, Variant
from ..variant.load import load_variant
from ..variant.options import Chosen, apply_patches, choose, declare
from ..variant.resolve import load_tree, shipped_dir
from .english import EVENT_PLAYERS, English, event_phrase, field_phrases
from .inline import code, html_inline, lit, markdown_inline, one_line, unmarked
from .phrases import amount
from .table_words import turn_lines, zone_lines
from .wording import humanise

# -- the document --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class Para:
    text: str


@dataclass(frozen=True, slots=True)
class Items:
    items: tuple[str, ...]
    ordered: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    colour_column: int | None = None  # a column of comma-separated colour names (swatches in HTML)


Block = Heading | Para | Items | Table


def build(name: str | Path, options: Chosen | None = None) -> list[Block]:
    """The rulebook of a variant (a path or a shipped name) with `options` switched on or off.

    Raises VariantError for an invalid variant, as load_variant does."""
    return blocks_of(load_variant(name, options))


def blocks_of(variant: Variant) -> list[Block]:
    """The rulebook of a loaded variant (its file is read again for the expressions' text)."""
    src = load_tree(variant.file)
    declared, _ = declare(src)
    merged = apply_patches(src, choose(src, declared, {o.name: o.value for o in variant.options}))
    return _Book(variant, merged.data).blocks()


def _setting(o: Option) -> str:
    """An option's state in this book: on/off, or its value with the values it takes."""
    if o.type == "bool":
        return "on" if o.enabled else "off"
    return f"{o.value} here; default {o.default}; {o.type_text}"


@dataclass
class _Book:
    v: Variant
    d: dict[str, Any]

    @property
    def eliminates(self) -> bool:
        """Whether a player can be put out (options not switched on do not count)."""
        return "eliminate(" in str({k: v for k, v in self.d.items() if k != "options"})

    def english(self, player: str = "you", card: str = "this card", fields: Mapping[str, str] | None = None
                ) -> English:
        return English(frozenset(self.v.kinds), player=player, card=card, fields=dict(fields or {}),
                       functions={f.name: f for f in self.v.functions},
                       zones={z.name: z for z in self.v.zones if not z.builtin})

    def blocks(self) -> list[Block]:
        out: list[Block] = [Heading(1, lit(self.v.name))]
        if self.d.get("description"):
            out.append(Para(lit(str(self.d["description"]))))
        on = [lit(humanise(o.name)) for o in self.v.options if o.enabled]
        made = f"Generated from {code(Path(self.v.file).name)} by `unodsl rulebook`"
        made += f", with the options {', '.join(on)} switched on." if on else "."
        if self.d.get("source"):
            made += f" Source: {lit(str(self.d['source']))}."
        out.append(Para(f"*{made}*"))
        for section in (self.players, self.deck, self.table, self.setup, self.turn, self.functions, self.cards,
                        self.rules, self.scoring, self.options):
            out += section()
        return out

    # -- sections ------------------------------------------------------------
    def players(self) -> list[Block]:
        lo, hi = self.v.min_players, self.v.max_players
        out: list[Block] = [Heading(2, "Players"), Para(f"{lo} players." if lo == hi else f"{lo}–{hi} players.")]
        teams = self.v.teams
        if teams is not None:
            seats = ("Partners sit opposite each other (seats 1 and 3, 2 and 4, …)." if teams == "opposite" else
                     "The teams, by seat (numbered from 1 clockwise): "
                     + "; ".join(join_words([str(p + 1) for p in t]) for t in teams) + ".")
            out.append(Para(f"{seats} Partners share one score, and a team wins the round when one of its "
                            "players goes out; a player's opponents are the players of the other teams."))
        return out

    def deck(self) -> list[Block]:
        out: list[Block] = [Heading(2, "What you need")]
        sides = self.v.sides
        if len(sides) > 1:
            names = join_words([f"a {lit(s.name)} face" for s in sides])
            paired = ("which faces share a card is shuffled anew each game" if self.v.pairing == "shuffled"
                      else "the faces are paired in the order listed")
            out.append(Para(f"A deck of {self.v.deck_size} two-sided cards: each card has {names}; {paired}. "
                            f"Play starts on the {lit(sides[0].name)} side."))
        else:
            out.append(Para(f"A deck of {self.v.deck_size} cards."))
        for side in sides:
            if len(sides) > 1:
                out.append(Heading(3, f"The {lit(side.name)} side"))
            colours = lit(", ".join(side.colors))
            out.append(Para(f"Colours: {colours}." if colours else "The cards have no colours."))
            out.append(self.deck_table(side.faces, side.colors))
        return out

    def deck_table(self, faces: Iterable[Face], colors: tuple[str, ...]) -> Table:
        kinds: dict[str, list[Face]] = {}
        for f in faces:
            kinds.setdefault(f.kind, []).append(f)
        rows = []
        for kind, group in kinds.items():
            colours = [c for c in colors if any(f.color == c for f in group)]
            ranks = sorted({f.rank for f in group if f.rank is not None})
            points = self.v.kinds[kind].points
            rows.append((lit(humanise(kind)), lit(", ".join(colours)) or "—", ranges(ranks) or "—", str(len(group)),
                         "face value" if points == "rank" else str(points),
                         "yes" if self.v.kinds[kind].wild else ""))
        return Table(("Card", "Colours", "Ranks", "Count", "Points", "Wild"), tuple(rows), colour_column=1)

    def table(self) -> list[Block]:
        """The zones the variant declares, beside the draw pile, the discard pile and the hands."""
        lines = zone_lines(self.v.zones, self.v.turn.plays)
        if not lines:
            return []
        return [Heading(2, "The table"),
                Para("Besides the draw pile, the discard pile and the hands, the cards lie in these places "
                     "(each is empty when a round begins):"), Items(tuple(lines))]

    def setup(self) -> list[Block]:
        out: list[Block] = [Heading(2, "Set-up")]
        e = self.english(player="the dealer")
        rnd = self.d.get("round", {})
        first = rnd.get("first_dealer")
        who = [f"The first dealer is {e.value_of(first)}." if first else "The first seat deals the first round."]
        later = rnd.get("next_dealer", "left_of(dealer)")
        who.append(f"In each later round the dealer is {e.value_of(later)}.")
        out.append(Para(" ".join(who)))
        if rnd.get("setup"):
            out.append(Para("Each round:"))
            out.append(Items(tuple(e.steps(rnd["setup"])), ordered=True))
        out.append(Para("Then the player after the dealer plays first, unless the steps above say otherwise."))
        return out

    def turn(self) -> list[Block]:
        t = self.v.turn
        turn = self.d.get("turn", {})
        match = str(turn.get("match", "")) or None
        e = self.english(card="it")
        if t.match is None:
            play = ""
        elif match is None:
            play = ("You may play a card that is wild, of the current colour, "
                    "or of the same number or symbol as the top card.")
        elif match.strip() == "true":
            play = "You may play any card from your hand."
        else:
            play = f"You may play a card from your hand if {e.condition(match)}."
        lines = [play + " Some cards have a further condition (see The cards)."] if play else []
        if t.plays:
            lines += turn_lines(t.plays, turn.get("plays", []), {z.name: z for z in self.v.zones},
                                lambda fields: self.english(fields=fields), t.match is not None, t.plays_per_turn)
        if t.must_play_if_able:
            lines.append("You must play if you can.")
        elif not turn.get("draw", {}).get("allowed_if"):
            lines.append("You may draw instead, even when you could play.")
        d, raw = t.draw, turn.get("draw", {})
        if d.until_playable:
            cap = ("" if d.max is None else f", at most {cards(d.max)}" if isinstance(d.max, int)
                   else f"; you draw at most {e.value_of(raw['max'])} (counted as you begin)")
            draw = f"draw one card at a time until you draw a card you can play or the draw pile runs out{cap}"
        else:
            draw = f"draw {cards(d.count)}" if isinstance(d.count, int) else \
                f"draw {amount(e, parse(str(raw['count'])))}"
        lines.append(f"If you do not play, {draw}.")
        if d.allowed_if is not None and turn.get("draw", {}).get("allowed_if"):
            lines.append(f"You may draw only if {e.condition(turn['draw']['allowed_if'])}; "
                         "otherwise you must play.")
        if t.match is None and d.then != "keep":  # only the declared plays: one that uses the card drawn
            lines.append("If a play above can be made with the card drawn, you may make one that uses it at once; "
                         "otherwise your turn ends.")
            return [Heading(2, "A turn"), Items(tuple(lines))]
        lines.append({"may_play": "If the card drawn can be played, you may play it at once; "
                                  "otherwise your turn ends.",
                      "must_play": "If the card drawn can be played, you must play it at once; "
                                   "otherwise your turn ends.",
                      "keep": "You keep what you draw, and your turn ends."}[d.then])
        return [Heading(2, "A turn"), Items(tuple(lines))]

    def cards(self) -> list[Block]:
        out: list[Block] = [Heading(2, "The cards")]
        raw = self.d.get("cards", {})
        sides = {k: [s.name for s in self.v.sides if any(f.kind == k for f in s.faces)] for k in self.v.kinds}
        for name, kind in self.v.kinds.items():
            spec = raw.get(name, {})
            e = self.english()
            facts = ["face value" if kind.points == "rank" else f"{kind.points} points"]
            if kind.wild:
                facts.append("wild")
            if len(self.v.sides) > 1:
                facts.append(f"on the {lit(join_words(sides[name]))} side" + ("s" if len(sides[name]) > 1 else ""))
            out.append(Heading(3, f"{lit(humanise(name))} ({', '.join(facts)})"))
            lines = []
            if spec.get("legal_if"):
                lines.append(f"You may play it only if {e.condition(spec['legal_if'])}.")
            effect = " ".join(e.program(spec["on_play"])) if spec.get("on_play") else "It has no effect."
            lines.append(effect)
            out.append(Para(" ".join(lines)))
            if kind.description:
                out.append(Para(f"*The variant says:* {lit(kind.description)}"))
        return out

    def functions(self) -> list[Block]:
        """The variant's own functions (`define:`), each defined in a sentence."""
        if not self.v.functions:
            return []
        e = self.english(player="the player", card="the card")
        return [Heading(2, "Functions"), Para("The rules use these, each written once here:"),
                Items(tuple(e.definition(f) for f in self.v.functions))]

    def rules(self) -> list[Block]:
        raw = self.d.get("rules") or []
        if not raw:
            return []
        out: list[Block] = [Heading(2, "Rules")]
        for i, rule in enumerate(raw):
            e = self.english(player=EVENT_PLAYERS.get(rule["on"], "the player"), card="the card",
                             fields=field_phrases(rule["on"]))
            when = f"When {event_phrase(rule['on'])}"
            if rule.get("if"):
                when += f", if {e.condition(rule['if'])}"
            body = " ".join(e.program(rule["do"])) if rule.get("do") else "nothing happens."
            body = body[:1].lower() + body[1:] if body[:2] != body[:2].upper() else body
            out += [Heading(3, lit(str(rule.get("name", f"Rule {i + 1}")))), Para(f"{when}: {body}")]
        return out

    def scoring(self) -> list[Block]:
        s = self.v.scoring
        lines = ["A round ends when a player has no cards left (their last card's effect still applies)."]
        if self.v.teams is not None:
            lines.append("The team of the player who went out scores the points of every card left in the other "
                         "teams' hands." if s.round == "winner_scores_others" else
                         "Every other team scores the points of the cards left in its players' hands; the team "
                         "that went out scores 0.")
        else:
            lines.append("The player who went out scores the points of every card left in the other players' hands."
                         if s.round == "winner_scores_others" else
                         "Every player scores the points of the cards left in their own hand; the player who went "
                         "out scores 0.")
        if self.eliminates:
            lines.insert(1, f"A round also ends when one {'team' if self.v.teams is not None else 'player'} is "
                         "left in it (the others are out): they win the round.")
        lines.append("Card points are in the table under What you need.")
        best = "highest" if s.winner == "highest" else "lowest"
        who = "team" if self.v.teams is not None else "player"
        raw = self.d.get("scoring", {})
        over, tie = raw.get("game_over"), raw.get("tie_break")
        if isinstance(over, str) and over.strip() == "true":
            end = "The game is one round"
        else:
            when = f"a round when {self.english(player='its winner').condition(over)}" if isinstance(over, str) \
                else None
            reach = None if s.target is None else f"the round in which a {who} reaches {s.target} points"
            end = "The game ends after " + ", or after ".join(x for x in (reach, when) if x)
        lines.append(f"{end}; the {who} with the {best} total wins.")
        if isinstance(tie, str):
            node, most = parse(tie), "highest"
            if isinstance(node, ast.Unary) and node.op == "-":  # -count(hand): the fewest cards
                node, most = node.operand, "lowest"
            value = self.english(player="they").value(node).removeprefix("the ")
            lines.append(f"On a tie, the tied {who} with the {most} {value} wins; if that ties too, they share "
                         "the win.")
        else:
            lines.append(f"{who.capitalize()}s tied on the best total share the win.")
        if self.eliminates:  # options not switched on do not count
            lines.append(f"A {who} out of the last round never wins the game.")
        return [Heading(2, "Scoring and the end of the game"), Items(tuple(lines))]

    def options(self) -> list[Block]:
        out: list[Block] = [Heading(2, "Options")]
        if not self.v.options:
            return [*out, Para("This variant has no options.")]
        out.append(Para("Switch an option on with `-o NAME`, or give a number option its value with "
                        "`-o NAME=VALUE` (`unodsl run`, `play`, `simulate`, `rulebook`)."))
        out.append(Items(tuple(
            f"**{lit(humanise(o.name))}** ({code(o.name)}, {lit(_setting(o))}): {lit(o.description)}"
            for o in self.v.options)))
        return out


def ranges(ranks: list[int]) -> str:
    """[0, 1, 2, 3, 7] → "0–3, 7"."""
    out: list[str] = []
    for r in ranks:
        if out and out[-1].split("–")[-1] == str(r - 1):
            out[-1] = f"{out[-1].split('–')[0]}–{r}"
        else:
            out.append(str(r))
    return ", ".join(out)


def cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


# -- Markdown ------------------------------------------------------------------


def markdown(blocks: Iterable[Block]) -> str:
    """The rulebook as Markdown: text from the variant stays text (tools/inline.py), each block on its lines."""
    out: list[str] = []

    def cell(text: str) -> str:
        return markdown_inline(text).replace("|", "\\|")

    for b in blocks:
        match b:
            case Heading(level=level, text=text):
                out += ["#" * level + " " + markdown_inline(text), ""]
            case Para(text=text):
                out += [markdown_inline(text, line_start=True), ""]
            case Items(items=items, ordered=ordered):
                out += [(f"{i}. " if ordered else "- ") + markdown_inline(t, line_start=True)
                        for i, t in enumerate(items, 1)] + [""]
            case Table(header=header, rows=rows):
                out += ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
                out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
                out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# -- HTML ----------------------------------------------------------------------

CSS = """
body { font: 11pt/1.45 Georgia, "DejaVu Serif", serif; color: #222; max-width: 46em; margin: 2em auto;
       padding: 0 1.2em; }
h1 { font-size: 2em; margin-bottom: .2em; border-bottom: 3px solid #c0392b; }
h2 { font-size: 1.35em; margin-top: 1.6em; border-bottom: 1px solid #bbb; color: #7b1f15; }
h3 { font-size: 1.08em; margin: 1.1em 0 .2em; }
h1, h2, h3 { font-family: "Helvetica Neue", Arial, "DejaVu Sans", sans-serif; }
p { margin: .35em 0; }
code { font-size: .92em; background: #f3f0ea; padding: 0 .2em; border-radius: 3px; }
table { border-collapse: collapse; margin: .6em 0; width: 100%; }
th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: #f3f0ea; font-family: Arial, "DejaVu Sans", sans-serif; font-size: .9em; }
.swatch { display: inline-block; width: .9em; height: .9em; border: 1px solid #555; border-radius: 2px;
          margin-right: .25em; vertical-align: -0.1em; }
.colour { white-space: nowrap; margin-right: .5em; }
#errors:empty { display: none; }
#errors { color: #a00; border: 1px solid #a00; padding: .5em; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  h2 { break-after: avoid; }
  h3 { break-after: avoid; }
  table, tr, li { break-inside: avoid; }
  .swatch { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""

# Script errors are written into the page itself, so a browser run can see them in its DOM.
ERRORS_JS = ("window.onerror = function (m) { var e = document.getElementById('errors'); "
             "if (e) { e.textContent += 'error: ' + m + '\\n'; } };")

_SAFE_COLOUR = re.compile(r"[a-z]+")


inline = html_inline


def _colours(cell: str) -> str:
    parts = []
    for name in filter(None, (c.strip() for c in cell.split(",") if c.strip() != "—")):
        style = f' style="background: {name}"' if _SAFE_COLOUR.fullmatch(name) else ""
        parts.append(f'<span class="colour"><span class="swatch"{style}></span>{html.escape(name)}</span>')
    return " ".join(parts) or html.escape(cell)


def html_page(blocks: list[Block]) -> str:
    title = next((b.text for b in blocks if isinstance(b, Heading)), "Rulebook")
    title = unmarked(title)
    body: list[str] = []
    for b in blocks:
        match b:
            case Heading(level=level, text=text):
                body.append(f"<h{level}>{inline(text)}</h{level}>")
            case Para(text=text):
                body.append(f"<p>{inline(text)}</p>")
            case Items(items=items, ordered=ordered):
                tag = "ol" if ordered else "ul"
                body.append(f"<{tag}>" + "".join(f"<li>{inline(t)}</li>" for t in items) + f"</{tag}>")
            case Table(header=header, rows=rows, colour_column=col):
                head = "".join(f"<th>{inline(h)}</th>" for h in header)
                trs = "".join("<tr>" + "".join(
                    f"<td>{_colours(cell) if i == col else inline(cell)}</td>" for i, cell in enumerate(row))
                    + "</tr>" for row in rows)
                body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{trs}</tbody></table>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(one_line(title))}</title>\n<script>{ERRORS_JS}</script>\n"
            f"<style>{CSS}</style>\n</head>\n<body>\n<pre id=\"errors\"></pre>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def render(name: str | Path, fmt: str = "md", options: Chosen | None = None) -> str:
    blocks = build(name, options)
    return html_page(blocks) if fmt == "html" else markdown(blocks)


def render_variant(variant: Variant, fmt: str = "md") -> str:
    blocks = blocks_of(variant)
    return html_page(blocks) if fmt == "html" else markdown(blocks)


# -- the golden rulebooks --------------------------------------------------------


def shipped_files() -> list[Path]:
    """Every shipped variant and house overlay."""
    root = shipped_dir()
    return sorted(root.glob("*.yaml")) + sorted((root / "house").glob("*.yaml"))


def golden_name(path: Path) -> str:
    """`variants/house/seven_zero.yaml` → "house-seven_zero.md"."""
    return ("house-" if path.parent.name == "house" else "") + path.stem + ".md"


def regenerate(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in shipped_files():
        target = out_dir / golden_name(path)
        target.write_text(render(path), encoding="utf-8")
        written.append(target)
    return written


CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars")


def screenshots(out_dir: Path, chromium: str) -> list[Path]:
    """A PNG of the first page of each shipped variant's HTML rulebook (1000×1400)."""
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in shipped_files():
            page = Path(tmp) / (golden_name(path)[:-3] + ".html")
            page.write_text(render(path, "html"), encoding="utf-8")
            target = out_dir / (page.stem + ".png")
            subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp}/profile", "--window-size=1000,1400",
                            f"--screenshot={target}", page.as_uri()], capture_output=True, check=True, timeout=60)
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unodsl.tools.rulebook", description=__doc__)
    parser.add_argument("--regenerate", action="store_true",
                        help="rewrite the golden Markdown rulebooks of every shipped variant")
    parser.add_argument("--screenshots", action="store_true",
                        help="also take a PNG of each HTML rulebook with headless chromium")
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parents[2] / "docs" / "rulebooks")
    args = parser.parse_args(argv)
    if not args.regenerate:
        parser.print_help()
        return 2
    written = regenerate(args.dir)
    if args.screenshots:
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            print("chromium is not installed: no screenshots", file=sys.stderr)
            return 1
        written += screenshots(args.dir, chromium)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
