"""The search space and the files it makes: what may change (`design: vary:` or
`--vary`), and a candidate as an overlay that `extends:` the variant and states only
what changed — option defaults, and the deck when a card kind's count changed.

A candidate is evaluated from the very file that would be written as the winner.
"""

from __future__ import annotations

import copy
import hashlib
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ...errors import UnoDslError, VariantError
from ...model import Tunable, Variant
from ...variant.load import load_variant
from ...variant.resolve import load_tree, resolve, shipped_dir

Values = dict[str, int]  # a candidate: each tunable's value (a switch: 0 off, 1 on)


class TuneError(UnoDslError):
    """A tuning run that cannot start: no targets, nothing to vary, an output it cannot write."""


@dataclass(frozen=True)
class Base:
    """The variant being tuned: its file, how an overlay names it, its merged data."""

    path: Path            # its file, resolved
    shipped: str | None   # its shipped name, if it is a shipped variant
    data: dict[str, Any]  # the merged file (what it extends included), options off
    variant: Variant      # loaded with the fixed options (and --vary's declarations)

    def reference(self, where: Path) -> str:
        """How an overlay written in folder `where` names this variant in `extends:`."""
        if self.shipped is not None:
            return self.shipped
        return Path(os.path.relpath(self.path, where)).as_posix()


def base(name: str | Path, variant: Variant) -> Base:
    """The Base of a variant file (a path or a shipped name) loaded as `variant`."""
    path = resolve(name).resolve()
    root = shipped_dir().resolve()
    shipped = path.relative_to(root).with_suffix("").as_posix() if path.is_relative_to(root) else None
    data = load_tree(path).data
    return Base(path, shipped, data, variant)


def parse_vary(texts: Sequence[str]) -> dict[str, Any]:
    """`--vary NAME=LO..HI` or `--vary NAME` (its whole range) as a `design: vary:` table."""
    out: dict[str, Any] = {}
    for text in texts:
        name, _, given = text.partition("=")
        name = name.strip()
        if not name:
            raise TuneError(f"--vary {text!r}: give NAME=LO..HI, or NAME for its whole range")
        if not given:
            out[name] = True
            continue
        lo, sep, hi = given.partition("..")
        try:
            out[name] = [int(lo), int(hi)] if sep else None
        except ValueError:
            out[name] = None
        if out[name] is None:
            raise TuneError(f"--vary {text!r}: the range is LO..HI, whole numbers (for example {name}=5..9)")
    return out


def with_vary(name: str | Path, options: Mapping[str, bool | int | str], vary: Mapping[str, Any],
              folder: Path) -> Variant:
    """The variant loaded with `vary` as its `design: vary:` (the command line's declarations),
    checked by the same rules as the file's; a mistake is a VariantError naming --vary."""
    path = resolve(name).resolve()
    overlay = folder / "vary.yaml"
    root = shipped_dir().resolve()
    ref = path.relative_to(root).with_suffix("").as_posix() if path.is_relative_to(root) else str(path)
    overlay.write_text(yaml.safe_dump({"extends": ref, "design": {"vary": dict(vary)}}, sort_keys=False),
                       encoding="utf-8")
    try:
        loaded = load_variant(overlay, options, allow=(str(path.parent),))
    except VariantError as err:
        mine = [d for d in err.diagnostics if Path(d.pos.file).resolve() == overlay.resolve()]
        if not mine:
            raise
        raise TuneError("; ".join(f"--vary: {d.message}" + (f" ({d.hint})" if d.hint else "") for d in mine)) from None
    return loaded


def size(space: Sequence[Tunable]) -> int:
    """How many candidates the space holds."""
    return math.prod(t.hi - t.lo + 1 for t in space)


def overlay(b: Base, space: Sequence[Tunable], values: Mapping[str, int], fixed: Mapping[str, bool | int],
            where: Path, header: Sequence[str] = ()) -> str:
    """The text of the overlay that makes candidate `values` of `b`, written in folder `where`.

    Only what differs from the variant is written. Options become defaults (`options:
    {hand_size: {default: 6}}`), the options fixed on the command line too (the tuned
    numbers hold with them); a card kind's count rewrites the deck (`deck: {replace:
    [...]}`) and `deck_size` if the variant declares one. A count
    of 0 removes the kind from the deck, and the inherited `design: vary:` with it (its
    `count.KIND` would name a kind in no deck group)."""
    doc: dict[str, Any] = {"extends": b.reference(where)}
    declared = {o.name: o.default for o in b.variant.options}
    options: dict[str, Any] = {name: {"default": value} for name, value in sorted(fixed.items())
                               if value != declared.get(name)}
    counts: dict[str, int] = {}
    for t in space:
        v = values[t.name]
        if t.kind == "count":
            if v != copies(b, t.target):
                counts[t.target] = int(v)
        elif (bool(v) if t.kind == "switch" else int(v)) != declared.get(t.target):
            options[t.target] = {"default": bool(v) if t.kind == "switch" else int(v)}
    if options:
        doc["options"] = options
    if counts:
        deck, total = recount(b, counts)
        if "deck_size" in b.data:
            doc["deck_size"] = total
        doc["deck"] = {"replace": deck}
        if 0 in counts.values() and "vary" in (b.data.get("design") or {}):
            doc["design"] = {"vary": None}  # its count.KIND names a kind no longer in the deck
    lines = [f"# {line}" for line in header]
    return "\n".join([*lines, yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)])


def copies(b: Base, kind: str) -> int:
    """The copies of `kind` its deck group gives now (per colour, or its count)."""
    group = next(g for g in b.data.get("deck") or []
                 if g.get("kind") == kind or (isinstance(g.get("kind"), list) and kind in g["kind"]))
    return int(group.get("per_color", group.get("count", 1)))


def recount(b: Base, counts: Mapping[str, int]) -> tuple[list[Any], int]:
    """The base's deck groups with each kind in `counts` given that many copies (a kind in
    a group of several kinds is split out into a group of its own), and the deck's new size."""
    deck = copy.deepcopy(b.data.get("deck") or [])
    faces = b.variant.sides[0].faces
    total = len(faces)
    for kind, copies in counts.items():
        i = next(i for i, g in enumerate(deck)
                 if g.get("kind") == kind or (isinstance(g.get("kind"), list) and kind in g["kind"]))
        group = deck[i]
        how = "per_color" if "per_color" in group else "count"
        old = int(group.get(how, 1))
        have = sum(1 for f in faces if f.kind == kind)
        per_copy = have // old if old else 0
        total += (copies - old) * per_copy
        mine = {**{k: v for k, v in group.items() if k not in ("kind", "per_color", "count")}, "kind": kind,
                how: copies}
        if isinstance(group["kind"], list) and len(group["kind"]) > 1:
            group["kind"] = [k for k in group["kind"] if k != kind]
            deck[i + 1:i + 1] = [mine] if copies else []
        else:
            deck[i:i + 1] = [mine] if copies else []
    return deck, total


def candidate_file(text: str, folder: Path) -> Path:
    """The overlay `text` as a file in `folder`, named by its content (a worker's cache of
    loaded variants is keyed by path: one path, one text)."""
    path = folder / f"candidate-{hashlib.sha256(text.encode()).hexdigest()[:16]}.yaml"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path
