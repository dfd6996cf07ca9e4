"""Overlays: merge a patch into a variant (maps merge, lists replace, null removes).

Two top-level lists merge instead of replacing, so that an overlay can add to them:
`rules:` merge by `name:` (the same name replaces the inherited rule in place, a
new name is appended, `{name: X, remove: true}` removes rule X), and `deck:` or
`sides:` may be written `{add: [...]}` (appended to the inherited groups) or
`{replace: [...]}`. A function of `define:` given again replaces the inherited one whole
(its parameters too). A plain list there still replaces the inherited one, with a
warning: that is how an overlay silently loses what it meant to keep.

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
from .source import Key, Source, Span


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
        if not at and name == "rules" and isinstance(value, dict):
            out.notes.append(Diagnostic(
                src.pos(child), "rules: an overlay's rules are a list of named rules, merged by name",
                "to remove an inherited rule write `- {name: NAME, remove: true}`"))
            continue
        if not at and name == "rules" and isinstance(value, list):
            base[name] = _merge_rules(out, base.get(name), value, src, child, here)
        elif at == ("define",) and name in base:  # a function is replaced whole, by its name
            _forget(out, base.pop(name), here)
            base[name] = _merge(out, None, value, src, child, here)
        elif not at and name in ENTRY_LISTS:
            merged = _merge_entries(out, base.get(name), value, src, child, here)
            if merged is None:  # a mistake already told, and nothing inherited to keep
                continue
            base[name] = merged
        else:
            base[name] = _merge(out, base.get(name), value, src, child, here)
        if child in src.key_spans:
            out.key_spans[here] = src.key_spans[child]
    return base


ENTRY_LISTS = ("deck", "sides")  # replaced with a warning, or written {add: [...]} / {replace: [...]}


def _merge_entries(out: Source, base: Any, patch: Any, src: Source, pkey: Key, at: Key) -> Any:
    """`deck:` or `sides:` of a patch: a list replaces (with a warning), `{add: [...]}` appends,
    `{replace: [...]}` replaces."""
    name = str(at[-1])
    if isinstance(patch, list):
        if isinstance(base, list) and base:
            many = f"{len(base)} {'group' if name == 'deck' else 'side'}{'s' if len(base) > 1 else ''}"
            out.notes.append(Diagnostic(
                src.key_pos(pkey), f"{name}: this list replaces the whole inherited {name} ({many})",
                f"to keep them and add yours write `{name}: {{add: [...]}}`; to replace them on purpose, "
                f"`{name}: {{replace: [...]}}`", "warning"))
        return _merge(out, base, patch, src, pkey, at)
    if not isinstance(patch, dict):
        return _merge(out, base, patch, src, pkey, at)  # the schema says what it should be
    how = list(patch)
    if len(how) != 1 or how[0] not in ("add", "replace") or not isinstance(patch[how[0]], list):
        out.notes.append(Diagnostic(
            src.pos(pkey), f"{name}: an overlay gives a list (it replaces the inherited {name}), "
            f"{{add: [...]}} or {{replace: [...]}}",
            f"for example `{name}: {{add: [{{kind: …, count: 1}}]}}`" if name == "deck"
            else f"for example `{name}: {{replace: [...]}}`"))
        return base
    items: list[Any] = patch[how[0]]
    if how[0] == "replace" or not isinstance(base, list):
        return _merge(out, base, items, src, (*pkey, how[0]), at)
    moves = [(out, (*at, i)) for i in range(len(base))]
    moves += [(src, (*pkey, "add", j)) for j in range(len(items))]
    return _rebuild(out, base, [*base, *items], moves, src.spans.get(pkey), at)


def _merge_rules(out: Source, base: Any, patch: list[Any], src: Source, pkey: Key, at: Key) -> list[Any]:
    """A patch's `rules:` merged by `name:` into the inherited rules (see the module's docstring)."""
    inherited = base if isinstance(base, list) else []
    result: list[Any] = list(inherited)
    origin: list[tuple[Source, Key]] = [(out, (*at, i)) for i in range(len(inherited))]
    named: dict[str, list[int]] = {}
    for i, rule in enumerate(inherited):
        if isinstance(rule, dict) and isinstance(rule.get("name"), str):
            named.setdefault(rule["name"], []).append(i)
    seen: dict[str, Key] = {}
    for j, rule in enumerate(patch):
        here = (*pkey, j)
        rname = rule.get("name") if isinstance(rule, dict) else None
        if not isinstance(rname, str):
            if isinstance(rule, dict) and "name" not in rule:
                out.notes.append(Diagnostic(
                    src.pos(here), "rules: a rule an overlay gives needs a name: rules merge with the "
                    "inherited ones by name",
                    "add `name: …` (a new name adds the rule; an inherited rule's name replaces that rule)"))
                continue
            result.append(rule)  # not a mapping, or a name that is not text: the schema says so
            origin.append((src, here))
            continue
        if rname in seen:
            out.notes.append(Diagnostic(
                src.pos((*here, "name")), f"rules: {rname!r} is named twice in this overlay",
                f"it is already named at line {src.pos((*seen[rname], 'name')).line}; merge them or rename one"))
            continue
        seen[rname] = here
        where = named.get(rname, [])
        if len(where) > 1:
            out.notes.append(Diagnostic(
                src.pos((*here, "name")), f"rules: {len(where)} inherited rules are named {rname!r}, so this "
                "one can't tell which it replaces", "give the inherited rules different names"))
            continue
        if "remove" in rule:
            if rule["remove"] is not True or set(rule) != {"name", "remove"}:
                out.notes.append(Diagnostic(
                    src.pos((*here, "remove")), "rules: a rule that removes is written "
                    "`{name: NAME, remove: true}`, with nothing else",
                    "to replace the inherited rule instead, give its name with `on:` and `do:`"))
            elif where:
                result[where[0]] = None
            else:
                out.notes.append(Diagnostic(
                    src.pos((*here, "name")), f"rules: remove: true removes nothing here (there is no "
                    f"inherited rule named {rname!r})",
                    did_you_mean(rname, list(named)) or "remove this rule", "warning"))
            continue
        if where:
            result[where[0]], origin[where[0]] = rule, (src, here)
        else:
            result.append(rule)
            origin.append((src, here))
    kept = [i for i, r in enumerate(result) if r is not None]
    return _rebuild(out, base, [result[i] for i in kept], [origin[i] for i in kept],
                    src.spans.get(pkey), at)


def _rebuild(out: Source, old: Any, items: list[Any], moves: list[tuple[Source, Key]],
             list_span: Span | None, at: Key) -> list[Any]:
    """The list `items` at `at`, where the patch's list (at `list_span`) was written; item i
    comes from moves[i] (a Source and its key there) and takes its positions along.
    `old` is what was at `at`."""
    taken = []
    for i, (where, key) in enumerate(moves):
        n = len(key)
        for k in _walk(items[i], key):
            here = (*at, i, *k[n:])
            taken.append((here, where.spans.get(k), where.key_spans.get(k) if k != key else None))
    list_span = list_span or out.spans.get(at)
    _forget(out, old, at)
    for here, span, key_span in taken:
        if span is not None:
            out.spans[here] = span
        if key_span is not None:
            out.key_spans[here] = key_span
    if list_span is not None:
        out.spans[at] = list_span
    return [_copy(item) for item in items]


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
