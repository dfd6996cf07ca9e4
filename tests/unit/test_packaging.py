"""What a wheel ships: the variants, and the schema files their `$schema=` headers name."""

from __future__ import annotations

import posixpath
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = re.compile(r"# yaml-language-server: \$schema=(\S+)")


def test_every_installed_variant_header_names_a_schema_inside_the_wheel(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("unodsl-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        variants = sorted(n for n in names if n.startswith("unodsl/variants/") and n.endswith(".yaml"))
        shipped = sorted((ROOT / "variants").rglob("*.yaml"))
        assert len(variants) == len(shipped) > 0, variants
        for name in variants:
            first = z.read(name).decode("utf-8").splitlines()[0]
            match = HEADER.fullmatch(first)
            assert match, f"{name} has no yaml-language-server header"
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), match.group(1)))
            assert target in names, f"{name}: its header names {target}, which the wheel does not hold"
            assert z.read(target) == (ROOT / "unodsl" / "variant" / "schemas" / posixpath.basename(target)).read_bytes()


def test_the_wheel_ships_the_web_tables_page(tmp_path: Path) -> None:
    """The page of `unodsl serve` is package data: static/ is in the wheel, byte for byte."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("unodsl-*.whl")
    static = ROOT / "unodsl" / "web" / "static"
    files = sorted(p.name for p in static.iterdir())
    assert {"table.html", "table.js", "table.css", "host.html", "host.js"} <= set(files)
    with zipfile.ZipFile(wheel) as z:
        for name in files:
            assert z.read(f"unodsl/web/static/{name}") == (static / name).read_bytes()

