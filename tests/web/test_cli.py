"""`unodsl serve` as a person uses it: the command prints the links, a page plays a
game to the end through them, the log it wrote replays, a save goes on in a new
server, Ctrl-C stops it; and each mistake on the command line is a clear message."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.cli import main

from .clients import play, websockets, ws_url

UNODSL = [sys.executable, "-c", "from unodsl.cli import main; main()"]
LINK = re.compile(r"P(\d+): (http://\S+)")


@contextmanager
def serve(*args: str, cwd: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`unodsl serve ARGS` running, and what it printed up to the host's page."""
    proc = subprocess.Popen([*UNODSL, "serve", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    printed = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            printed.append(line)
            if "Ctrl-C stops the server" in line:
                break
        yield proc, "".join(printed)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


def _fragment(link: str) -> tuple[str, str, dict[str, str]]:
    base, rest = link.split("/t/", 1)
    table, fragment = rest.split("/#", 1)
    return base, table, dict(part.split("=", 1) for part in fragment.split("&"))


def test_a_game_through_the_printed_link_to_the_end_its_log_replays_and_a_save_resumes(tmp_path: Path) -> None:
    args = ["classic", "--seats", "3", "--bots", "greedy", "--port", "0", "--bot-delay", "0", "-o", "target=100",
            "--seed", "4", "--games", "games"]
    with serve(*args, cwd=tmp_path) as (proc, printed):
        links = dict(LINK.findall(printed))
        assert sorted(links) == ["1", "2", "3"] and "spectators: http://127.0.0.1:" in printed
        assert "host's page" in printed and "/host#key=" in printed
        base, table, fragment = _fragment(links["1"])
        assert "host" in fragment and "host" not in _fragment(links["2"])[2]
        page = asyncio.run(play(base, table, 0, fragment["token"], host=fragment["host"], persons=1))
        assert page.last["status"] == "over" and page.answers > 5

        async def save() -> str:
            async with websockets.connect(ws_url(base, table)) as ws:
                await ws.send(json.dumps({"type": "hello", "seat": 0, "token": fragment["token"],
                                          "host": fragment["host"]}))
                await ws.send(json.dumps({"type": "host", "action": "save"}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "info":
                        return str(msg["message"])

        saved = asyncio.run(save())
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == 0 and "server stopped" in out and "Traceback" not in err
    (log,) = (tmp_path / "games").glob("*.jsonl")
    replayed = subprocess.run([*UNODSL, "replay", str(log)], capture_output=True, text=True, cwd=tmp_path)
    assert replayed.returncode == 0 and "identical" in replayed.stdout, replayed.stdout + replayed.stderr
    (save_file,) = (tmp_path / "games").glob("*save*.json")
    assert str(save_file.name) in saved
    with serve("--resume", str(save_file), "--port", "0", cwd=tmp_path) as (_, printed):
        assert "UNO Classic" in printed and len(LINK.findall(printed)) == 3


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["serve", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("args", "code", "says"), [
    ((), 2, "give a VARIANT"),
    (("classic", "--seats", "11"), 2, "for 2–10 players, not 11"),
    (("classic", "--bots", "grredy"), 2, "unknown agent 'grredy'"),
    (("classic", "-o", "nonsense"), 1, "nonsense"),
    (("no_such_variant",), 1, "no_such_variant"),
    (("classic", "--port", "70000"), 2, "70000"),
])
def test_command_line_mistakes_are_clear_messages(args: tuple[str, ...], code: int, says: str) -> None:
    exit_code, output = _run(*args)
    assert exit_code == code and says in output, output


def test_a_port_in_use_is_a_clear_message(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        exit_code, output = _run("classic", "--port", str(port), "--games", str(tmp_path))
    assert exit_code == 1 and f"cannot listen on 127.0.0.1 port {port}" in output


def test_a_host_that_is_not_a_name_is_a_clear_message_with_its_text_escaped(tmp_path: Path) -> None:
    exit_code, output = _run("classic", "--host", "evil\u202e\x1b[31m", "--port", "0", "--games", str(tmp_path))
    assert exit_code == 1 and "cannot listen on evil\\u202e\\x1b[31m: not a host name" in output, output
    assert "\x1b" not in output and "\u202e" not in output


def test_without_the_web_extra_the_command_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import unodsl.web

    for name in [m for m in sys.modules if m == "starlette" or m.startswith("starlette.")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "unodsl.web.server", raising=False)
    monkeypatch.delattr(unodsl.web, "server", raising=False)
    exit_code, output = _run("classic")
    assert exit_code == 1 and "needs the [web] extra" in output and "pip install '.[web]'" in output


def test_several_variants_open_several_tables(tmp_path: Path) -> None:
    with serve("classic", "flip", "--seats", "2", "--port", "0", "--games", "games", cwd=tmp_path) as (_, printed):
        assert "UNO Classic — 2 seats" in printed and "UNO Flip — 2 seats" in printed
        tables = set(re.findall(r"/t/([^/]+)/", printed))
        assert len(tables) == 2 and printed.count("spectators:") == 2
