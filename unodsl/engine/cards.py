"""Physical cards: one immutable object per card and side in play.

A card shows the face of the side in play. Turning the deck over (FLIP-8) puts
the other side's objects in every zone: the objects never change, so games and
their clones share them, and a card's `id` names it whatever side it shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..lang.program import Fn, Program
from ..model import Face, Variant

if TYPE_CHECKING:  # (the backends run games: they import the engine's modules)
    from .backends.base import Backend

# What a face shows, in the order Card.__init__ assigns it.
FaceInfo = tuple[int, str, int, str | None, int | None, int, bool, str, str, Program, Fn | None, Any]


def face_table(variant: Variant, backend: Backend) -> dict[Face, FaceInfo]:
    """Every distinct face of the variant with a small id and its derived fields (its
    kind's id is the kind's place in `variant.kinds`; its on_play as `backend` runs it,
    kept in its cache)."""
    table: dict[Face, FaceInfo] = backend.cache.get("faces", {})
    if not table:
        kind_ids = {name: k for k, name in enumerate(variant.kinds)}
        for side in variant.sides:
            for face in side.faces:
                if face not in table:
                    kind = variant.kinds[face.kind]
                    table[face] = (len(table), face.kind, kind_ids[face.kind], face.color, face.rank,
                                   face.points, face.wild, face.symbol, face.label, kind.on_play, kind.legal_if,
                                   backend.runs.get(id(kind.on_play)))
        backend.cache["faces"] = table
    return table


class Card:
    """A card in a game, showing face `side` of its `faces` (never changed once made)."""

    __slots__ = (
        "back",
        "color",
        "face_id",
        "faces",
        "id",
        "kind",
        "kind_id",
        "label",
        "legal_if",
        "on_play",
        "play",
        "points",
        "rank",
        "run",
        "side",
        "symbol",
        "wild",
    )

    def __init__(self, id_: int, faces: tuple[Face, ...], side: int, table: dict[Face, Any],
                 play: Callable[[Card], Any]) -> None:
        self.id = id_
        self.faces = faces
        self.side = side
        (self.face_id, self.kind, self.kind_id, self.color, self.rank, self.points, self.wild, self.symbol,
         self.label, self.on_play, self.legal_if, self.run) = table[faces[side]]
        self.back = faces[1 - side] if len(faces) == 2 else None
        self.play = play(self)  # the action of playing it (actions.Play), made once with it

    # mypy does not see dynamic slots; declare the visible fields.
    face_id: int
    kind: str
    kind_id: int
    color: str | None
    rank: int | None
    points: int
    wild: bool
    symbol: str
    on_play: Program
    legal_if: Fn | None
    run: Any  # the compiled backend's runner of on_play (engine/codegen.py), or None
    back: Face | None
    label: str
    play: Any  # its actions.Play (cards know no actions: the deck's maker gives the type)

    def __repr__(self) -> str:
        return f"<{self.label} #{self.id}>"


def make_deck(variant: Variant, backend: Backend, pairing: list[tuple[Face, ...]],
              play: Callable[[Card], Any]) -> tuple[list[Card], ...]:
    """The cards of every side: `pairing[i]` holds the faces of card i, one per side. A card
    never changes, so one made for a place and its faces is kept (in the backend's cache, up
    to CARDS_KEPT) for the next deck that pairs them so: a shuffled pairing makes a deck each
    game (FLIP-1)."""
    table = face_table(variant, backend)
    if len(variant.sides) != 2:  # one side: the deck is made once, for the variant
        return tuple([Card(i, faces, s, table, play) for i, faces in enumerate(pairing)]
                     for s in range(len(variant.sides)))
    kept: dict[tuple[int, int, int], tuple[Card, Card]] = backend.cache.setdefault("cards", {})
    if len(kept) > CARDS_KEPT:
        kept.clear()
    light: list[Card] = []
    dark: list[Card] = []
    for i, faces in enumerate(pairing):
        key = (i, id(faces[0]), id(faces[1]))  # (the variant's faces live as long as its backend's cache)
        pair = kept.get(key)
        if pair is None:
            pair = kept[key] = (Card(i, faces, 0, table, play), Card(i, faces, 1, table, play))
        light.append(pair[0])
        dark.append(pair[1])
    return light, dark


CARDS_KEPT = 50_000  # pairs of sides kept for later decks, per backend (a deck of 112 cards: at most 112²)
