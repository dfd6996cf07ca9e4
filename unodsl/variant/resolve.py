"""Where a variant comes from: a path or a shipped name, and the chain of files it `extends:`."""

from __future__ import annotations

import difflib
import os
from importlib import resources
from pathlib import Path

from ..errors import Pos, VariantError, did_you_mean
from .overlay import extend
from .source import Source, load_source, parse_source

MAX_EXTENDS = 16  # bases of bases; a longer chain is almost surely a mistake


def shipped_dir() -> Path:
    """The folder of the variants that ship with unodsl."""
    packaged = Path(str(resources.files("unodsl"))) / "variants"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "variants"


def shipped_names() -> list[str]:
    return sorted(p.stem for p in shipped_dir().glob("*.yaml"))


def resolve(name: str | Path) -> Path:
    """A path as given, or the shipped variant of that name (see `unodsl list`)."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") or path.exists() or "/" in str(name):
        return path
    candidate = shipped_dir() / f"{name}.yaml"
    if candidate.exists():
        return candidate
    hint = did_you_mean(str(name), shipped_names()) or f"shipped variants: {', '.join(shipped_names())}"
    raise VariantError.at(Pos(str(name), 1, 1), f"no variant file or shipped variant named {str(name)!r}",
                          hint)


def _is_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def _base_path(ref: str, child: Path, at: Pos) -> Path:
    """Where `extends: ref` in file `child` points: a path next to it, or a shipped variant."""
    if _is_path(ref):
        path = Path(ref) if Path(ref).is_absolute() else Path(os.path.normpath(child.parent / ref))
        if path.is_file():
            return path
        here = path.parent
        nearby = [p.name for p in here.glob("*.y*ml")] if here.is_dir() else []
        close = difflib.get_close_matches(path.name, nearby, n=1, cutoff=0.6)
        what = "is a directory" if path.is_dir() else "does not exist"
        if path.stem in shipped_names():
            hint = f"to build on the shipped variant, give its name: `extends: {path.stem}`"
        elif close:
            hint = f"did you mean {str(Path(ref).parent / close[0])!r}?"
        else:
            hint = "a path is relative to the file that extends it"
        looked = f" (looked for {str(path)!r})" if str(path) != ref else ""
        raise VariantError.at(at, f"extends: {ref!r} {what}{looked}", hint)
    shipped = shipped_dir() / f"{ref}.yaml"
    if shipped.is_file():
        return shipped
    raise VariantError.at(at, f"extends: no shipped variant named {ref!r}",
                          did_you_mean(ref, shipped_names())
                          or f"shipped variants: {', '.join(shipped_names())}; a file needs its path, "
                          "ending in .yaml")


def base_path(ref: str, child: str | Path) -> Path | None:
    """The file `extends: ref` written in `child` names, or None if there is none."""
    try:
        return _base_path(ref.strip(), Path(child), Pos(str(child), 1, 1))
    except VariantError:
        return None


def load_tree(name: str | Path) -> Source:
    """Read a variant and every variant it `extends:`, merged into one Source.

    Maps merge, lists replace, null removes a key (see overlay.py). Positions
    stay with the file each value was written in. Cycles are refused with the
    chain of files.
    """
    return _load_chain(resolve(name), ())


def load_tree_text(text: str, path: str | Path) -> Source:
    """Like load_tree, for the text of a file that may not be saved (an editor's buffer).

    `path` names the file in positions, and `extends:` is relative to it. The
    files it extends are read from disk, each parsed once while it is unchanged
    (see base_source).
    """
    return _load_chain(Path(path), (), parse_source(text, str(path)))


_BASES: dict[Path, tuple[tuple[int, int], Source]] = {}
MAX_CACHED_BASES = 64


def base_source(path: Path) -> Source:
    """A base file's Source, read again only when its modification time or size changes.

    Safe to share: merging copies a base (see overlay.py) and never changes it.
    """
    key = path.resolve()
    try:
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


def _load_chain(path: Path, chain: tuple[tuple[Path, str], ...], src: Source | None = None) -> Source:
    if src is None:
        src = base_source(path) if chain else load_source(path)
    if not isinstance(src.data, dict) or "extends" not in src.data:
        return src
    ref = src.data["extends"]
    at = src.pos(("extends",))
    if not isinstance(ref, str) or not ref.strip():
        raise VariantError.at(at, "extends should be a shipped variant's name or a path to a variant file",
                              "for example `extends: ../base.yaml`, or a name from `unodsl list`")
    base = _base_path(ref.strip(), path, at)
    links = (*chain, (path.resolve(), src.file))
    if any(base.resolve() == seen for seen, _ in links):
        names = [shown for _, shown in links] + [str(base)]
        start = next(i for i, (seen, _) in enumerate(links) if seen == base.resolve())
        raise VariantError.at(at, "extends goes round in a circle: " + " → ".join(names[start:]),
                              "a variant can't build on itself; remove one of these `extends:`")
    if len(links) > MAX_EXTENDS:
        raise VariantError.at(at, f"extends chains more than {MAX_EXTENDS} files",
                              "build on the shipped variant or base file directly")
    return extend(_load_chain(base, links), src)
