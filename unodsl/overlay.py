"""Overlays: merge a patch into a variant (maps merge, lists replace, null removes).

Positions travel with the data, so an error in merged data still points at the
file and line the offending value came from.
"""

from __future__ import annotations

from typing import Any

from .source import Key, Source


def overlay(base: Source, patch: Any, patch_src: Source, patch_key: Key, at: Key = ()) -> Source:
    """A new Source: `patch` (found at `patch_key` in `patch_src`) merged at `at`."""
    out = Source(_copy(base.data), base.file, dict(base.spans), dict(base.key_spans))
    out.data = _merge(out, out.data, patch, patch_src, patch_key, at)
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _merge(out: Source, base: Any, patch: Any, src: Source, pkey: Key, at: Key) -> Any:
    if isinstance(base, dict) and isinstance(patch, dict):
        for name, value in patch.items():
            if value is None:
                base.pop(name, None)
                continue
            base[name] = _merge(out, base.get(name), value, src, (*pkey, name), (*at, name))
            if (*pkey, name) in src.key_spans:
                out.key_spans[(*at, name)] = src.key_spans[(*pkey, name)]
        return base
    _graft(out, src, pkey, at)
    return _copy(patch)


def _graft(out: Source, src: Source, pkey: Key, at: Key) -> None:
    """Copy the positions of everything under `pkey` in src to `at` in out."""
    n = len(pkey)
    for table, source in ((out.spans, src.spans), (out.key_spans, src.key_spans)):
        for key in [k for k in table if k[: len(at)] == at]:
            del table[key]
        for key, span in source.items():
            if key[:n] == pkey:
                table[(*at, *key[n:])] = span
