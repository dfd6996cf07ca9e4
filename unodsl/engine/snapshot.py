"""Pickling a game: its state as data, with what belongs to the variant by reference.

A game's state refers to the variant's programs, steps and compiled expressions
(the frames of its continuation, the rules queued, a stored lambda) and to its
cards. None of those are copied into a pickle: each is written as a reference —
the variant's objects by their place in a walk of the variant, which is the same
in every process that loads the same file with the same options, and cards by
side and id. The variant itself pickles as a reference to its file and options
(the variant layer registers how), so a saved game is small, and loading it loads
the variant once.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
from collections.abc import Mapping
from typing import Any

from ..errors import UnoDslError
from ..model import Face, Variant
from .actions import Play
from .backends import backend_of
from .cards import Card
from .state import DERIVED, FIELDS, LAYOUT, RESET, read_state


def variant_objects(variant: Variant) -> tuple[list[Any], dict[int, int]]:
    """The variant's tuples and functions in a fixed walk order, and each one's place
    (by id), and then those of the module its backend generated. Kept in the backend's
    cache: the walk is made once."""
    backend = backend_of(variant)
    cached = backend.cache.get("objects")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    order: list[Any] = []
    place: dict[int, int] = {}
    seen: set[int] = set()
    todo: list[Any] = [*(getattr(variant, f.name) for f in dataclasses.fields(variant) if f.name != "where"),
                       backend.generated][::-1]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None), Face)):
            continue
        seen.add(id(obj))
        inner: list[Any] = []
        if isinstance(obj, (tuple, list)):
            inner = list(obj)
        elif isinstance(obj, Mapping):
            inner = list(obj.values())
        elif callable(obj) and hasattr(obj, "__code__"):
            inner = [c.cell_contents for c in obj.__closure__ or () if _filled(c)]
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            inner = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
        else:
            continue
        if isinstance(obj, tuple) or callable(obj):
            place[id(obj)] = len(order)
            order.append(obj)
        todo.extend(reversed(inner))
    backend.cache["objects"] = (order, place)
    return order, place


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises)
    except ValueError:
        return False
    return True


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, game: Any) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.variant = game.variant
        self.place = variant_objects(game.variant)[1]

    def persistent_id(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is Card:
            return ("card", obj.side, obj.id)
        if kind is Play:
            return ("play", obj.card.side, obj.card.id)
        if obj is self.variant:
            return ("variant",)
        if kind is tuple or callable(obj):
            n = self.place.get(id(obj))
            if n is not None:
                return ("v", n)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, game: Any, variant: Variant) -> None:
        super().__init__(file)
        self.game = game
        self.variant = variant
        self.order = variant_objects(variant)[0]

    def persistent_load(self, pid: Any) -> Any:
        match pid:
            case ("card", side, n):
                return self.game._decks[side][n]
            case ("play", side, n):
                return self.game._decks[side][n].play
            case ("variant",):
                return self.variant
            case ("v", n) if n < len(self.order):
                return self.order[n]
        raise pickle.UnpicklingError(f"a saved game refers to {pid!r}, which its variant does not have")


Check = tuple[str, int, str]  # the variant (its name and file, its objects' count), the state's layout


def dump_state(game: Any) -> tuple[Check, bytes]:
    """A game's state as bytes (what Game.__reduce__ pickles beside the variant and the
    cards' pairing), and a check that the variant loaded again is the same, and the
    engine loading it lays out a game's state as this one does."""
    state = {k: v for k, v in zip(FIELDS, read_state(game), strict=True) if k not in DERIVED}
    state.update((name, fresh()) for name, fresh in RESET.items())
    buffer = io.BytesIO()
    _Pickler(buffer, game).dump(state)
    return _check(game.variant), buffer.getvalue()


def _check(variant: Variant) -> Check:
    return f"{variant.name} ({variant.file})", len(variant_objects(variant)[0]), LAYOUT


def load_state(game: Any, check: tuple[Any, ...], payload: bytes) -> dict[str, Any]:
    """The state dumped by dump_state, for `game` (its variant and decks already set)."""
    if len(check) < 3 or check[2] != LAYOUT:  # (a pickle of an older engine checked the variant only)
        raise UnoDslError("the saved game was pickled by another version of unodsl, which lays out a "
                          "game's state otherwise: play it again from its log (its seed and answers)")
    if check != _check(game.variant):
        raise UnoDslError(f"the saved game was made with another version of {check[0]}: "
                          "its variant file has changed since")
    state: dict[str, Any] = _Unpickler(io.BytesIO(payload), game, game.variant).load()
    return state
