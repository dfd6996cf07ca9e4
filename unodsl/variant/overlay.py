"""Overlays: merge a patch into a variant (maps merge, lists replace, null removes).

The same merge serves `extends:` (a whole file over its base) and `options:` (a
named patch over the file that declares it). Positions travel with the data, so
an error in merged data still points at the file and line the offending value
came from: a value inherited from the base points into the base, a value the
patch gave points into the patch. The merge also remembers what a `null`
removed and which keys the patch added, so that later checks can explain
themselves, and warns about a `null` that removes nothing (usually a typo).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Diagnostic, did_you_mean
from .source import Key, Source


def overlay(base: Source, patch: Any, patch_src: Source, patch_key: Key, at: Key = ()) -> Source:
    """A new Source: `patch` (found at `patch_key` in `patch_src`) merged at `at`."""
    out = Source(_copy(base.data), base.file, dict(base.spans), dict(base.key_spans),
                 dict(base.removed), dict(base.added), list(base.notes))
    out.data = _merge(out, out.data, patch, patch_src, patch_key, at)
    return out


def extend(base: Source, child: Source) -> Source:
    """`child` (a file with `extends:`) merged over its `base`; the result is `child`'s."""
    patch = {k: v for k, v in child.data.items() if k != "extends"}
    out = overlay(base, patch, child, ())
    out.file = child.file
    out.spans[()] = child.spans[()]  # a key missing from the whole is added to the overlay
    out.notes += child.notes
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _where(key: Key) -> str:
    return ".".join(str(k) for k in key) or "the file"


def _merge(out: Source, base: Any, patch: Any, src: Source, pkey: Key, at: Key) -> Any:
    """Merge `patch` into `base` (which is out's value at `at`); returns the new value."""
    if not isinstance(patch, dict):
        _graft(out, src, base, patch, pkey, at)
        return _copy(patch)
    if not isinstance(base, dict):
        _graft(out, src, base, patch, pkey, at)
        base = {}
    siblings = tuple(base)
    for name, value in patch.items():
        child, here = (*pkey, name), (*at, name)
        if value is None:
            if name in base:
                _forget(out, base.pop(name), here)
                out.removed[here] = src.pos(child)
            elif here not in out.removed:  # removed already (by a base) is fine; never there is a typo
                hint = did_you_mean(name, siblings) or "remove this line"
                out.notes.append(Diagnostic(
                    src.pos(child), f"{_where(here)}: null removes nothing here (there is no {name!r} to remove)",
                    hint, "warning"))
            continue
        if name not in base and siblings:
            out.added[here] = siblings
        out.removed.pop(here, None)
        base[name] = _merge(out, base.get(name), value, src, child, here)
        if child in src.key_spans:
            out.key_spans[here] = src.key_spans[child]
    return base


def _walk(value: Any, key: Key) -> Iterator[Key]:
    """`key` and the key of everything below it in `value`."""
    yield key
    if isinstance(value, dict):
        for name, v in value.items():
            yield from _walk(v, (*key, name))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, (*key, i))


def _forget(out: Source, old: Any, at: Key) -> None:
    """Drop the positions of `old`, the value that was at `at`."""
    for key in _walk(old, at):
        out.spans.pop(key, None)
        out.key_spans.pop(key, None)


def _graft(out: Source, src: Source, old: Any, new: Any, pkey: Key, at: Key) -> None:
    """Replace the positions of `old` at `at` by those of `new` at `pkey` in src.

    Walks only the two values (not the whole table), so a merge costs time in
    proportion to the size of what it touches.
    """
    key_span = out.key_spans.get(at)
    _forget(out, old, at)
    if key_span is not None:
        out.key_spans[at] = key_span  # the caller sets the key's position if the patch names it
    n = len(pkey)
    for key in _walk(new, pkey):
        here = (*at, *key[n:])
        if key in src.spans:
            out.spans[here] = src.spans[key]
        if key != pkey and key in src.key_spans:
            out.key_spans[here] = src.key_spans[key]
