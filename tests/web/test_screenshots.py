"""Every picture of the web table in docs/serve.md comes from the page as it is now:
`python -m tests.web.screenshots` takes them and writes docs/images/serve-shots.json
with the hash of the page's files and of each picture; a change to the page (its
HTML, CSS or scripts) fails here until the pictures are taken again."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from .screenshots import MANIFEST, PAGE, ROOT, SHOTS, STATIC, file_hash, page_hash

DOCS = ROOT / "docs"
IMAGES = DOCS / "images"
AGAIN = "take them again: python -m tests.web.screenshots"


def shown_in_the_docs() -> set[str]:
    text = (DOCS / "serve.md").read_text(encoding="utf-8")
    return set(re.findall(r"\]\(images/(serve-[\w-]+\.png)\)", text))


def test_every_picture_of_the_table_in_the_docs_is_one_the_script_takes() -> None:
    shown = shown_in_the_docs()
    assert shown == set(SHOTS), f"docs/serve.md shows {sorted(shown)}; the script takes {sorted(SHOTS)}"


def test_the_pictures_were_taken_with_the_page_as_it_is_now() -> None:
    manifest = json.loads((IMAGES / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["page"] == page_hash(), f"the table page changed since its pictures were taken: {AGAIN}"
    for name in sorted(shown_in_the_docs()):
        assert name in manifest["images"], f"{name} was not taken by the script: {AGAIN}"
        assert file_hash(IMAGES / name) == manifest["images"][name], f"{name} is not the picture taken: {AGAIN}"


def test_a_change_to_any_file_of_the_page_changes_its_hash(tmp_path: Path) -> None:
    for name in PAGE:
        shutil.copy(STATIC / name, tmp_path / name)
    assert page_hash(tmp_path) == page_hash()
    for name in PAGE:
        original = (tmp_path / name).read_bytes()
        (tmp_path / name).write_bytes(original + b" ")
        assert page_hash(tmp_path) != page_hash(), name
        (tmp_path / name).write_bytes(original)
