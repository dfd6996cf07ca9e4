"""Pages in a real browser for the web tests: Playwright for Python driving the
system's Chromium (`executable_path`; no browser is downloaded), and a player that
answers every decision of a page by clicking a legal card, pressing an option's
number key or pressing Enter on the focused option."""

from __future__ import annotations

import os
import shutil
import time
from typing import Any

import pytest

REQUIRED = bool(os.environ.get("UNODSL_REQUIRE_BROWSER"))  # set by .ci/run: CI runs these tests, never skips them
try:
    import playwright.sync_api as sync_api  # noqa: F401  (conftest.py launches the browser with it)
except ImportError:
    if REQUIRED:
        raise
    pytest.skip("the browser tests need playwright: pip install '.[webtest]'", allow_module_level=True)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    if REQUIRED:
        raise RuntimeError("UNODSL_REQUIRE_BROWSER is set and there is no chromium")
    pytest.skip("the browser tests need Chromium (apt-get install -y chromium)", allow_module_level=True)

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         # pages side by side all run at full speed (none is a throttled background tab)
         "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
         "--disable-backgrounding-occluded-windows"]

# What the page shows, read from its own state (the last frame it was sent).
READ = """() => {
  if (typeof state === "undefined" || state === null) return null;
  const d = state.you ? state.you.decision : null;
  return {status: state.status, id: d ? d.id : null, options: d ? d.options.length : 0,
          hand: state.you ? state.you.hand.map((c) => c.label) : null, bot: !!state.bot_plays};
}"""


class Player:
    """A browser page at one seat, recording every WebSocket frame it receives."""

    def __init__(self, context: Any, url: str) -> None:
        self.url = url
        self.page = context.new_page()
        self.sockets: list[list[str]] = []  # the frames of each WebSocket the page opened
        self.errors: list[str] = []
        self.answered: set[str] = set()
        self.moves = 0
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.goto(url)

    def _socket(self, ws: Any) -> None:
        frames: list[str] = []
        self.sockets.append(frames)
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str) else ""))

    def read(self) -> dict[str, Any] | None:
        result: dict[str, Any] | None = self.page.evaluate(READ)
        return result

    def move(self) -> bool:
        """Answer the page's decision if it has a new one; False if it has none."""
        seen = self.read()
        if seen is None or seen["id"] is None or seen["id"] in self.answered:
            return False
        self.answered.add(seen["id"])
        way = self.moves % 3
        self.moves += 1
        legal = self.page.locator("#hand button.legal")
        if way == 0 and legal.count():
            # a real mouse click on the card; force: without Playwright's wait for the element to
            # stand still over two animation frames, which a page re-rendered by each frame rarely gives
            legal.first.click(timeout=5000, force=True)
        elif way == 1:
            self.page.keyboard.press("1")
        else:
            self.page.wait_for_function("() => document.activeElement && document.activeElement.closest('#options')",
                                        timeout=5000, polling=10)
            self.page.keyboard.press("Enter")
        return True


def play_to_the_end(players: list[Player], timeout: float = 60, on_move: Any = None) -> int:
    """Answer every decision of every page until the game is over; the moves made."""
    deadline = time.monotonic() + timeout
    moves = 0
    while True:
        statuses = []
        for player in list(players):
            if player.page.is_closed():
                continue
            if player.move():
                moves += 1
                if on_move is not None:
                    on_move(moves)
            if player.page.is_closed():
                continue
            seen = player.read()
            statuses.append(seen["status"] if seen else None)
        if statuses and all(s in ("over", "failed") for s in statuses):
            return moves
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end in {timeout} s ({moves} moves; {statuses})")
        time.sleep(0.005)


def seat_links(base: str, table: Any, host_key: str) -> list[str]:
    """Each seat's link (P1's with the host's key), as `unodsl serve` prints them."""
    return [f"{base}/t/{table.id}/#seat={p}&token={s.token}" + (f"&host={host_key}" if p == 0 else "")
            for p, s in enumerate(table.seats)]


def start_game(host: Player) -> None:
    """The host presses Start; back when the page shows the game on."""
    host.page.wait_for_selector("#h-start:not([disabled])")
    host.page.click("#h-start")
    host.page.wait_for_function("() => state && state.status === 'playing'")
