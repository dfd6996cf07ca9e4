"""Physical cards: one object per card, showing the face of the side in play."""

from __future__ import annotations

from collections.abc import Mapping

from ..lang.compile import Fn, Program
from ..model import CardKind, Face


class Card:
    """A card in a game. Its visible fields follow the side in play (see show)."""

    __slots__ = (
        "back",
        "color",
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

    def __init__(self, id_: int, faces: tuple[Face, ...], kinds: Mapping[str, CardKind]) -> None:
        self.id = id_
        self.faces = faces
        self.show(0, kinds)

    # mypy does not see dynamic slots; declare the visible fields.
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

    def show(self, side: int, kinds: Mapping[str, CardKind]) -> None:
        """Turn the card so that face `side` is up."""
        face = self.faces[side]
        kind = kinds[face.kind]
        self.kind = face.kind
        self.color = face.color
        self.rank = face.rank
        self.points = face.points
        self.wild = face.wild
        self.symbol = face.symbol
        self.label = face.label
        self.on_play = kind.on_play
        self.legal_if = kind.legal_if
        self.back = self.faces[1 - side] if len(self.faces) == 2 else None

    def __repr__(self) -> str:
        return f"<{self.label} #{self.id}>"
