"""Where a variant comes from: a path or a shipped name, and the chain of files it `extends:`."""

from __future__ import annotations

import difflib
import errno
import os
import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from ..errors import Pos, VariantError, did_you_mean
from .overlay import extend
from .schema import validate
from .source import Source, load_source, parse_source

MAX_EXTENDS = 16  # bases of bases; a longer chain is almost surely a mistake


def shipped_dir() -> Path:
    """The folder of the variants that ship with unodsl."""
    packaged = Path(str(resources.files("unodsl"))) / "variants"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "variants"


# A shipped name: a file's name without `.yaml`, or `house/seven_zero` for a file in a folder.
_SHIPPED_NAME = re.compile(r"[a-z0-9_]{1,100}(/[a-z0-9_]{1,100}){0,3}")


def shipped_names() -> list[str]:
    """The names of the shipped variants: the main ones, then those in folders (`house/seven_zero`)."""
    root = shipped_dir()
    names = (p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.yaml"))
    return sorted((n for n in names if _SHIPPED_NAME.fullmatch(n)), key=lambda n: (n.count("/"), n))


def shipped_path(name: str) -> Path | None:
    """The file of the shipped variant `name` (`house/seven_zero`), if there is one."""
    if not _SHIPPED_NAME.fullmatch(name):
        return None
    candidate = shipped_dir() / f"{name}.yaml"
    return candidate if candidate.is_file() else None


def resolve(name: str | Path) -> Path:
    """A path as given, or the shipped variant of that name (see `unodsl list`).

    A file or folder that exists is taken as a path; then a shipped name, which may
    name a file in a folder of the shipped variants (`house/seven_zero`); then
    anything ending in .yaml or holding a `/` is a path (that the reader says is missing).
    """
    path = Path(name)
    if path.exists():
        return path
    shipped = shipped_path(str(name))
    if shipped is not None:
        return shipped
    if path.suffix in (".yaml", ".yml") or ("/" in str(name) and not _SHIPPED_NAME.fullmatch(str(name))):
        return path
    hint = did_you_mean(str(name), shipped_names()) or f"shipped variants: {', '.join(shipped_names())}"
    raise VariantError.at(Pos(str(name), 1, 1), f"no variant file or shipped variant named {str(name)!r}",
                          hint)


def _is_path(ref: str) -> bool:
    """A path ends in .yaml, or holds a folder that a shipped name (`house/mercy`) does not."""
    if ref.endswith((".yaml", ".yml")):
        return True
    return ("/" in ref or "\\" in ref) and not _SHIPPED_NAME.fullmatch(ref)


def _short(text: str, limit: int = 80) -> str:
    return repr(text) if len(text) <= limit else repr(text[: limit - 1] + "…")


def _real(path: Path) -> Path:
    """path.resolve(), a loop of symbolic links an OSError (ELOOP) as on Python 3.13 (3.11
    and 3.12 raise RuntimeError)."""
    try:
        return path.resolve()
    except RuntimeError:
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path)) from None


def _inside(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def _base_path(ref: str, child: Path, at: Pos, roots: tuple[Path, ...]) -> Path:
    """Where `extends: ref` in file `child` points: a path next to it, or a shipped variant.

    A path must lead (symbolic links followed) into one of `roots`: the shipped
    variants, the folder of the file that was asked for, and folders allowed by the
    caller. Nothing is read, and nothing said about a file, outside them.
    """
    if _is_path(ref):
        try:
            path = Path(ref) if Path(ref).is_absolute() else Path(os.path.normpath(child.parent / ref))
            if not _inside(_real(path), roots):
                raise VariantError.at(at, f"extends: {_short(ref)} is outside the folders a variant may build on",
                                      "a base is a shipped variant or a file under the folder of the file "
                                      "being checked; allow another folder with --allow DIR")
            if path.is_file():
                return path
            here = path.parent
            nearby = [p.name for p in here.glob("*.y*ml")] if here.is_dir() else []
            what = "is a directory" if path.is_dir() else "does not exist"
        except OSError as exc:  # a name too long for the system, a loop of links…
            raise VariantError.at(at, f"extends: {_short(ref)} can't be used as a path "
                                  f"({exc.strerror or type(exc).__name__})",
                                  "a path is relative to the file that extends it") from None
        close = difflib.get_close_matches(path.name, nearby, n=1, cutoff=0.6)
        if path.stem in shipped_names():
            hint = f"to build on the shipped variant, give its name: `extends: {path.stem}`"
        elif close:
            hint = f"did you mean {str(Path(ref).parent / close[0])!r}?"
        else:
            hint = "a path is relative to the file that extends it"
        looked = f" (looked for {_short(str(path), 400)})" if str(path) != ref else ""
        raise VariantError.at(at, f"extends: {_short(ref)} {what}{looked}", hint)
    shipped = shipped_dir() / f"{ref}.yaml"
    if len(ref) < 200 and shipped.is_file():
        return shipped
    raise VariantError.at(at, f"extends: no shipped variant named {_short(ref)}",
                          did_you_mean(ref, shipped_names())
                          or f"shipped variants: {', '.join(shipped_names())}; a file needs its path, "
                          "ending in .yaml")


def load_tree(name: str | Path, allow: Iterable[str | Path] = ()) -> Source:
    """Read a variant and every variant it `extends:`, merged into one Source.

    Maps merge, lists replace, null removes a key (see overlay.py). Positions
    stay with the file each value was written in. Cycles are refused with the
    chain of files. A base must be a shipped variant or a file under the folder of
    `name` or under a folder in `allow`; a base that is not a valid variant on its
    own is refused without quoting any of it.
    """
    path = resolve(name)
    return _load_chain(path, (), _roots(path, allow))


def load_tree_text(text: str, path: str | Path, allow: Iterable[str | Path] = ()) -> Source:
    """Like load_tree, for the text of a file that may not be saved (an editor's buffer).

    `path` names the file in positions, and `extends:` is relative to it. The
    files it extends are read from disk, each parsed once while it is unchanged
    (see base_source).
    """
    return _load_chain(Path(path), (), _roots(Path(path), allow), src=parse_source(text, str(path)))


def base_path(ref: str, child: str | Path) -> Path | None:
    """The file `extends: ref` written in `child` names, or None if there is none (or it may not be used)."""
    try:
        return _base_path(ref.strip(), Path(child), Pos(str(child), 1, 1), _roots(Path(child), ()))
    except VariantError:
        return None


def _roots(path: Path, allow: Iterable[str | Path]) -> tuple[Path, ...]:
    """The folders a base of `path` may be in: the shipped variants, the folder of `path`, and `allow`."""
    roots = (shipped_dir(), path.parent, *(Path(a) for a in allow))
    try:
        return tuple(dict.fromkeys(_real(r) for r in roots))
    except OSError:
        return (_real(shipped_dir()),)


_BASES: dict[Path, tuple[tuple[int, int], Source]] = {}
MAX_CACHED_BASES = 64


def base_source(path: Path) -> Source:
    """A base file's Source, read again only when its modification time or size changes.

    Safe to share: merging copies a base (see overlay.py) and never changes it.
    """
    try:
        key = _real(path)
        st = key.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        return load_source(path)  # reports why it can't be read
    hit = _BASES.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    src = load_source(path)
    if len(_BASES) >= MAX_CACHED_BASES:
        _BASES.pop(next(iter(_BASES)))
    _BASES[key] = (stamp, src)
    return src


def _load_chain(path: Path, chain: tuple[tuple[Path, str], ...], roots: tuple[Path, ...],
                at: Pos | None = None, src: Source | None = None) -> Source:
    """The file at `path` (or its text, read already as `src`) merged with its bases;
    `at` is the `extends:` that named it, if any."""
    if src is None:
        src = load_source(path) if at is None else _read_base(path, at)
    if isinstance(src.data, dict) and not {"unodsl", "extends"} & set(src.data):
        if at is None:
            raise VariantError.at(Pos(src.file, 1, 1), "this is not a variant file (it has no `unodsl:` key)",
                                  "a variant file starts with `unodsl: 1`; an overlay with `extends:`")
        raise VariantError.at(at, f"extends: {src.file} is not a variant file (it has no `unodsl:` key)",
                              f"check it on its own: unodsl validate {src.file}")
    if not isinstance(src.data, dict) or "extends" not in src.data:
        return src
    ref = src.data["extends"]
    at = src.pos(("extends",))  # from here on, `at` is this file's own `extends:`
    if not isinstance(ref, str) or not ref.strip():
        raise VariantError.at(at, "extends should be a shipped variant's name or a path to a variant file",
                              "for example `extends: ../base.yaml`, or a name from `unodsl list`")
    base = _base_path(ref.strip(), path, at, roots)
    links = (*chain, (_real(path), src.file))
    if any(_real(base) == seen for seen, _ in links):
        names = [shown for _, shown in links] + [str(base)]
        start = next(i for i, (seen, _) in enumerate(links) if seen == _real(base))
        raise VariantError.at(at, "extends goes round in a circle: " + " → ".join(names[start:]),
                              "a variant can't build on itself; remove one of these `extends:`")
    if len(links) + 1 > MAX_EXTENDS:  # the files so far and this base
        raise VariantError.at(at, f"extends chains more than {MAX_EXTENDS} files",
                              "build on the shipped variant or base file directly")
    return extend(_load_base(base, links, roots, at), src)


def _read_base(path: Path, at: Pos) -> Source:
    """Read a base; if it can't be read, say where, never what (the file may not be a variant)."""
    try:
        return base_source(path)
    except VariantError as err:
        first = err.diagnostics[0].pos if err.diagnostics else Pos(str(path), 1, 1)
        raise VariantError.at(at, f"extends: {path} can't be read as a variant (problem at {first})",
                              f"check it on its own: unodsl validate {path}") from None


def _load_base(base: Path, links: tuple[tuple[Path, str], ...], roots: tuple[Path, ...], at: Pos) -> Source:
    """The base an `extends:` names, merged with its own bases, if it is a valid variant on its own.

    Its problems are told at the `extends:` line by position only: a file that is
    not a variant may hold anything, and its text must not reach a log."""
    shown = str(base)
    hint = f"check it on its own: unodsl validate {shown}"
    src = _load_chain(base, links, roots, at)
    if not isinstance(src.data, dict):
        raise VariantError.at(at, f"extends: {shown} is not a variant file (not a mapping)", hint)
    problems = [d for d in validate(src) if d.severity == "error"]
    if problems:
        raise VariantError.at(at, f"extends: {shown} is not a valid variant "
                              f"({len(problems)} problem{'s' if len(problems) > 1 else ''}, first at "
                              f"{problems[0].pos})", hint)
    return src
