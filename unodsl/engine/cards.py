"""Physical cards: one object per card, showing the face of the side in play."""

from __future__ import annotations

from typing import Any

from ..lang.program import Fn, Program
from ..variant.model import Face, Variant

# What a face shows, in the order Card.show assigns it.
FaceInfo = tuple[int, str, str | None, int | None, int, bool, str, str, Program, Fn | None]


def face_table(variant: Variant) -> dict[Face, FaceInfo]:
    """Every distinct face of the variant with a small id and its derived fields."""
    table: dict[Face, FaceInfo] = variant.cache.get("faces", {})
    if not table:
        for side in variant.sides:
            for face in side.faces:
                if face not in table:
                    kind = variant.kinds[face.kind]
                    table[face] = (len(table), face.kind, face.color, face.rank, face.points, face.wild,
                                   face.symbol, face.label, kind.on_play, kind.legal_if)
        variant.cache["faces"] = table
    return table


class Card:
    """A card in a game. Its visible fields follow the side in play (see show)."""

    __slots__ = (
        "back",
        "color",
        "face_id",
        "faces",
        "id",
        "kind",
        "label",
        "legal_if",
        "on_play",
        "points",
        "rank",
        "symbol",
        "wild",
    )

    def __init__(self, id_: int, faces: tuple[Face, ...], table: dict[Face, Any]) -> None:
        self.id = id_
        self.faces = faces
        self.show(0, table)

    # mypy does not see dynamic slots; declare the visible fields.
    face_id: int
    kind: str
    color: str | None
    rank: int | None
    points: int
    wild: bool
    symbol: str
    on_play: Program
    legal_if: Fn | None
    back: Face | None
    label: str

    def show(self, side: int, table: dict[Face, Any]) -> None:
        """Turn the card so that face `side` is up."""
        (self.face_id, self.kind, self.color, self.rank, self.points, self.wild, self.symbol,
         self.label, self.on_play, self.legal_if) = table[self.faces[side]]
        self.back = self.faces[1 - side] if len(self.faces) == 2 else None

    def __repr__(self) -> str:
        return f"<{self.label} #{self.id}>"
