"""The pictures in docs/serve.md, taken the way a person plays: `unodsl serve` started
as the docs say, P1's printed link opened in Chromium, the game started, played to the
end by clicking, and its log replayed.

    python -m tests.web.screenshots [--dir docs/images]

Writes serve-turn.png (a turn at a Classic table), serve-flip.png (a Flip table, the
others' backs showing) and prints what it did.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from playwright.sync_api import sync_playwright

from .browser import CHROMIUM, FLAGS, Player, play_to_the_end

UNODSL = [sys.executable, "-c", "from unodsl.cli import main; main()"]
ROOT = Path(__file__).resolve().parents[2]


def start(args: list[str], cwd: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([*UNODSL, "serve", *args], cwd=cwd, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    printed = ""
    for line in proc.stdout:
        printed += line
        if "Ctrl-C stops the server" in line:
            break
    return proc, printed


def p1_link(printed: str) -> str:
    found = re.search(r"P1: (http://\S+)", printed)
    assert found, printed
    return found.group(1)


def classic(browser: Any, out: Path, tmp: Path) -> None:
    """The command of the docs: a person against two greedy bots, to the end; its log replayed."""
    proc, printed = start(["classic", "--seats", "3", "--bots", "greedy", "--port", "0", "--seed", "7",
                           "--bot-delay", "0", "--games", "games"], tmp)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        player = Player(context, p1_link(printed))
        player.page.wait_for_selector("#h-start:not([disabled])")
        player.page.click("#h-start")
        player.page.wait_for_selector("#options button")
        for _ in range(9):  # a few turns in, so that the narration has something to tell
            player.move()
            time.sleep(0.3)
        player.page.wait_for_selector("#options button")
        time.sleep(0.3)
        player.page.screenshot(path=str(out / "serve-turn.png"))
        started = time.monotonic()
        moves = play_to_the_end([player], timeout=600)
        print(f"classic: P1 made {moves + 9} moves; the game ended in {time.monotonic() - started:.0f} s:",
              player.page.text_content("#status"))
        context.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    (log,) = (tmp / "games").glob("*.jsonl")
    replayed = subprocess.run([*UNODSL, "replay", str(log)], capture_output=True, text=True)
    print("unodsl replay:", replayed.stdout.strip().splitlines()[-1])


def flip(browser: Any, out: Path, tmp: Path) -> None:
    proc, printed = start(["flip", "--seats", "4", "--bots", "greedy", "--port", "0", "--seed", "3",
                           "--bot-delay", "0", "--games", "games-flip"], tmp)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        player = Player(context, p1_link(printed))
        player.page.wait_for_selector("#h-start:not([disabled])")
        player.page.click("#h-start")
        while "dark" not in (player.page.text_content("#facts") or ""):  # until the table has flipped
            player.move()
            time.sleep(0.05)
            if player.read()["status"] != "playing":  # type: ignore[index]
                break
        for _ in range(3):
            player.move()
            time.sleep(0.3)
        player.page.wait_for_selector("#options button")
        time.sleep(0.3)
        player.page.screenshot(path=str(out / "serve-flip.png"))
        context.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    with sync_playwright() as p, TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        classic(browser, args.dir, Path(tmp))
        flip(browser, args.dir, Path(tmp))
        browser.close()
    print("written:", args.dir / "serve-turn.png", args.dir / "serve-flip.png")


if __name__ == "__main__":
    main()
