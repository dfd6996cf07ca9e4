"""The pictures in docs/serve.md, taken the way a person plays: `unodsl serve` started
as the docs say, P1's printed link opened in Chromium, the game started and played by
clicking, and its log replayed.

    python -m tests.web.screenshots [--dir docs/images]

Writes the pictures of SHOTS and docs/images/serve-shots.json: the hash of the page's
files they were taken with and each picture's hash. tests/web/test_screenshots.py
checks that every picture docs/serve.md shows is listed there, unchanged, and was
taken with the page as it is now (so a change to the page fails until they are
taken again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

UNODSL = [sys.executable, "-c", "from unodsl.cli import main; main()"]
ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "unodsl" / "web" / "static"
PAGE = ("table.html", "table.css", "cards.js", "results.js", "table.js")  # what the table page loads
MANIFEST = "serve-shots.json"
SHOTS = {  # each picture: what it shows (its alt text in docs/serve.md says the same)
    "serve-turn.png": "a turn at a Classic table",
    "serve-uno.png": "the UNO button lit: P1 has one card left",
    "serve-scores.png": "the scores between two rounds",
    "serve-results.png": "the results screen and play again",
    "serve-spectator.png": "a spectator's page",
    "serve-phone.png": "a turn on a phone",
    "serve-flip.png": "a Flip table on its dark side",
    "serve-dos.png": "a DOS table: the Center Row and the double matches offered",
}
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def page_hash(static: Path = STATIC) -> str:
    """The hash of the table page's files, as the pictures were taken with them."""
    digest = hashlib.sha256()
    for name in PAGE:
        digest.update(name.encode() + b"\0" + (static / name).read_bytes() + b"\0")
    return digest.hexdigest()


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(out: Path) -> None:
    images = {name: file_hash(out / name) for name in SHOTS}
    (out / MANIFEST).write_text(json.dumps({"page": page_hash(), "images": images}, indent=2) + "\n",
                                encoding="utf-8")


# -- the server, as a person starts it ----------------------------------------------------
@contextmanager
def serve(args: list[str], cwd: Path) -> Iterator[str]:
    """`unodsl serve ARGS` in its own process while the block runs; gives what it printed."""
    proc = subprocess.Popen([*UNODSL, "serve", *args], cwd=cwd, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    printed = ""
    for line in proc.stdout:
        printed += line
        if "Ctrl-C stops the server" in line:
            break
    try:
        yield printed
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


def link(printed: str, who: str = "P1") -> str:
    found = re.search(rf"{who}: (http://\S+)", printed)
    assert found, printed
    return found.group(1)


def settle(page: Any) -> None:
    """Let the animations end (a picture shows the table at rest)."""
    page.wait_for_timeout(700)


def uno_lit(player: Any) -> bool:
    return bool(player.page.evaluate("() => !document.getElementById('uno').disabled"))


# -- the pictures --------------------------------------------------------------------------
def classic(browser: Any, out: Path, tmp: Path) -> None:
    """The command of the docs, with a target of 200: a person against two greedy bots,
    to the end; a spectator watching; its log replayed."""
    from .browser import Player, play_to_the_end

    args = ["classic", "--seats", "3", "--bots", "greedy", "--port", "0", "--seed", "7", "--bot-delay", "0",
            "-o", "target=200", "--turn-seconds", "90", "--games", "games"]
    with serve(args, tmp) as printed:
        context = browser.new_context(viewport=DESKTOP)
        player = Player(context, link(printed))
        player.page.fill("#name", "Ann")
        player.page.click("#rename")
        player.page.wait_for_selector("#h-start:not([disabled])")
        player.page.click("#h-start")
        player.page.wait_for_selector("#options button")
        for _ in range(6):  # a few turns in, so that the narration has something to tell
            player.move()
            player.page.wait_for_timeout(250)
        player.page.wait_for_selector("#options button")
        settle(player.page)
        player.page.screenshot(path=str(out / "serve-turn.png"))
        watcher = context.new_page()
        watcher.goto(printed.split("spectators: ")[1].split()[0])
        watcher.wait_for_selector("#seats .fan .card")
        settle(watcher)
        watcher.screenshot(path=str(out / "serve-spectator.png"))
        watcher.close()
        taken: set[str] = set()
        deadline = time.monotonic() + 600
        while player.read()["status"] == "playing" and time.monotonic() < deadline:  # type: ignore[index]
            if "uno" not in taken and uno_lit(player):
                settle(player.page)
                player.page.screenshot(path=str(out / "serve-uno.png"))
                taken.add("uno")
            if "scores" not in taken and player.page.is_visible("#scoreboard"):
                player.page.wait_for_timeout(500)
                player.page.screenshot(path=str(out / "serve-scores.png"))
                taken.add("scores")
                player.page.click("#scoreboard button")
            player.move()
            player.page.wait_for_timeout(20)
        moves = play_to_the_end([player], timeout=60)
        player.page.wait_for_selector("#results:not([hidden])")
        settle(player.page)
        player.page.screenshot(path=str(out / "serve-results.png"))
        print(f"classic: P1 made {player.moves + moves} moves:", player.page.text_content("#status"),
              "; pictures of", sorted(taken))
        assert taken == {"uno", "scores"}, f"this game never showed {sorted({'uno', 'scores'} - taken)}"
        context.close()
    (log,) = (tmp / "games").glob("*.jsonl")
    replayed = subprocess.run([*UNODSL, "replay", str(log)], capture_output=True, text=True)
    print("unodsl replay:", replayed.stdout.strip().splitlines()[-1])


def phone(browser: Any, out: Path, tmp: Path) -> None:
    from .browser import Player

    args = ["classic", "--seats", "4", "--bots", "greedy", "--port", "0", "--seed", "11", "--bot-delay", "0",
            "--games", "games-phone"]
    with serve(args, tmp) as printed:
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        player = Player(context, link(printed))
        player.page.wait_for_selector("#h-start:not([disabled])")
        player.page.click("#h-start")
        player.page.wait_for_selector("#options button")
        for _ in range(3):
            player.move()
            player.page.wait_for_timeout(250)
        player.page.wait_for_selector("#options button")
        player.page.evaluate("() => window.scrollTo(0, 0)")
        settle(player.page)
        player.page.screenshot(path=str(out / "serve-phone.png"))
        context.close()


def flip(browser: Any, out: Path, tmp: Path) -> None:
    from .browser import Player

    args = ["flip", "--seats", "4", "--bots", "greedy", "--port", "0", "--seed", "3", "--bot-delay", "0",
            "--games", "games-flip"]
    with serve(args, tmp) as printed:
        context = browser.new_context(viewport=DESKTOP)
        player = Player(context, link(printed))
        player.page.wait_for_selector("#h-start:not([disabled])")
        player.page.click("#h-start")
        while "dark" not in (player.page.text_content("#facts") or ""):  # until the table has flipped
            player.move()
            player.page.wait_for_timeout(50)
            if player.read()["status"] != "playing":  # type: ignore[index]
                break
        for _ in range(3):
            player.move()
            player.page.wait_for_timeout(300)
        player.page.wait_for_selector("#options button")
        settle(player.page)
        player.page.screenshot(path=str(out / "serve-flip.png"))
        context.close()


def dos(browser: Any, out: Path, tmp: Path) -> None:
    """A table with declared zones and plays: DOS's Center Row, and the matches offered as buttons."""
    from .browser import Player

    args = ["dos", "--seats", "3", "--bots", "random", "--port", "0", "--seed", "5", "--bot-delay", "0",
            "--games", "games-dos"]
    with serve(args, tmp) as printed:
        context = browser.new_context(viewport=DESKTOP)
        player = Player(context, link(printed))
        player.page.wait_for_selector("#h-start:not([disabled])")
        player.page.click("#h-start")
        doubles = "#options button[data-what='lay']:has-text('double match')"
        for _ in range(40):  # a few turns in, to a turn that offers a double match
            player.page.wait_for_selector("#options button")
            if player.page.locator(doubles).count():
                break
            player.move()
            player.page.wait_for_timeout(250)
        player.page.wait_for_selector(doubles)
        settle(player.page)
        player.page.screenshot(path=str(out / "serve-dos.png"))
        context.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    from .browser import CHROMIUM, FLAGS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    with sync_playwright() as p, TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        classic(browser, args.dir, Path(tmp))
        phone(browser, args.dir, Path(tmp))
        flip(browser, args.dir, Path(tmp))
        dos(browser, args.dir, Path(tmp))
        browser.close()
    write_manifest(args.dir)
    print("written:", *(args.dir / name for name in SHOTS), args.dir / MANIFEST)


if __name__ == "__main__":
    main()
