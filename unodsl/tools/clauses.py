"""Clauses and sentences for the rulebook: a subject with a verb phrase whose marks agree
with it, clauses about the same subject merged ("The next player draws 2 cards and loses
their turn.")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .wording import capitalise, decapitalise, join


@dataclass(frozen=True, slots=True)
class Clause:
    """A subject and a verb phrase with conjugation marks: {s} {es} {is} {has} {do}
    {their} {they}. A subject of "" is an instruction (imperative); None is a
    finished text that does not merge."""

    subject: str | None
    verb: str
    many: bool = False

    def text(self) -> str:
        said = join([self._say(v) for v in self.verb.split(AND)])
        return f"{self.subject} {said}" if self.subject else said

    def _say(self, verb: str) -> str:
        if self.subject is None:
            return verb
        if not self.subject:
            return verb.format(s="", es="", ies="y", **{"is": "are", "has": "have", "do": "do"},
                                    their="your", they="you")
        many = self.many or self.subject in ("you", "they")
        body = verb.format(
            s="" if many else "s", es="" if many else "es", ies="y" if many else "ies",
            their="your" if self.subject == "you" else "their",
            they="you" if self.subject == "you" else "they",
            **{"is": "are" if many else "is", "has": "have" if many else "has",
               "do": "do" if many else "does"})
        return body


def text(clause: Clause) -> Clause:
    """A clause frozen as text (so a subject of its own does not merge later)."""
    return Clause(None, clause.text())


Part = Clause | str  # a clause, or a finished sentence
AND = "\x1f"  # between the verb phrases of merged clauses


def finish(parts: Iterable[Part]) -> list[str]:
    """Merge clauses with the same subject, then make sentences."""
    merged: list[Part] = []
    for part in parts:
        last = merged[-1] if merged else None
        if (isinstance(part, Clause) and isinstance(last, Clause) and part.subject is not None
                and part.subject == last.subject and part.many == last.many):
            merged[-1] = Clause(part.subject, f"{last.verb}{AND}{part.verb}", part.many)
        else:
            merged.append(part)
    out = []
    for part in merged:
        if isinstance(part, Clause):
            out.append(capitalise(part.text()) + ".")
        else:
            out.append(part)
    return out


def run_on(sentences: list[str]) -> str:
    """Sentences as one clause list: `a; b` without the final stop, for a branch."""
    return "; ".join(decapitalise(s.rstrip(".")) for s in sentences)
