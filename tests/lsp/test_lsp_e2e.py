"""`unodsl lsp` driven by a real client (pytest-lsp): the server runs as a subprocess.

Skipped when the `lsp` extra is not installed (pip install '.[lsp]'; CI installs it).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the lsp extra is not installed: pip install '.[lsp]'")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed: pip install '.[lsp]'")

from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from tests.helpers import VARIANTS  # noqa: E402
from unodsl.engine.primitives import REGISTRY  # noqa: E402
from unodsl.lang.signature import CARD_ATTRS  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")
SERVER = [sys.executable, "-c", "from unodsl.cli import main; main(['lsp'])"]  # `unodsl lsp`, this Python


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER),
                    scope="module")
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def open_file(client: LanguageClient, path: Path, text: str | None = None) -> list[lsp.Diagnostic]:
    """Open `path` (with `text`, unsaved, if given) and wait for its diagnostics."""
    uri = path.resolve().as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri, "yaml", 1, path.read_text() if text is None else text)))
    while uri not in client.diagnostics:
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


def where(text: str, needle: str) -> lsp.Position:
    """The position of the first `needle` in `text`."""
    for n, line in enumerate(text.splitlines()):
        if needle in line:
            return lsp.Position(n, line.index(needle))
    raise AssertionError(f"{needle!r} not in the text")


def at(pos: lsp.Position, shift: int) -> lsp.Position:
    return lsp.Position(pos.line, pos.character + shift)


@pytest.mark.parametrize("name", ["classic", "duo", "flip", "all_wild", "pocket_pizza"])
async def test_a_shipped_variant_has_no_diagnostics(client: LanguageClient, name: str) -> None:
    assert await open_file(client, VARIANTS / f"{name}.yaml") == []


async def test_a_typo_in_an_expression_is_marked_on_the_word(client: LanguageClient, tmp_path: Path) -> None:
    text = (VARIANTS / "duo.yaml").read_text().replace("draw(next, penalty + 2)", "draw(nxt, penalty + 2)", 1)
    diags = await open_file(client, tmp_path / "broken.yaml", text)
    pos = where(text, "nxt, penalty")
    assert len(diags) == 1
    d = diags[0]
    assert d.severity == lsp.DiagnosticSeverity.Error
    assert "nxt" in d.message and "hint: did you mean 'next'?" in d.message
    assert (d.range.start, d.range.end) == (pos, at(pos, 3))


async def test_diagnostics_follow_edits(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "edited.yaml"
    text = (VARIANTS / "classic.yaml").read_text()
    path.write_text(text)
    uri = path.resolve().as_uri()
    assert await open_file(client, path) == []
    pos = where(text, "points: 20")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri),
        [lsp.TextDocumentContentChangePartial(lsp.Range(at(pos, 8), at(pos, 10)), "lots")]))
    del client.diagnostics[uri]
    while uri not in client.diagnostics:
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    diags = list(client.diagnostics[uri])
    assert [d.range.start for d in diags] == [at(pos, 8)]
    assert "lots" in diags[0].message


async def test_a_problem_in_the_base_is_shown_at_extends(client: LanguageClient, tmp_path: Path) -> None:
    base = (VARIANTS / "classic.yaml").read_text().replace("skip()", "skip(nxt)", 1)
    (tmp_path / "base.yaml").write_text(base)
    text = "unodsl: 1\nname: mine\nextends: base.yaml\n"
    diags = await open_file(client, tmp_path / "mine.yaml", text)
    assert diags, "the base's problem is reported"
    d = diags[0]
    line = where(base, "skip(nxt)").line + 1
    assert d.range.start.line == 2
    assert f"base.yaml:{line}:" in d.message
    assert d.related_information and d.related_information[0].location.uri.endswith("base.yaml")


async def test_hover(client: LanguageClient) -> None:
    path = VARIANTS / "duo.yaml"
    text = path.read_text()
    await open_file(client, path)
    uri = path.resolve().as_uri()

    async def hover(pos: lsp.Position) -> str:
        result = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos))
        assert result is not None
        assert isinstance(result.contents, lsp.MarkupContent)
        return result.contents.value

    assert REGISTRY.primitives["draw"].doc in await hover(at(where(text, "draw(next, penalty + 2)"), 1))
    kind = await hover(at(where(text, "  draw_two:"), 3))
    assert "card kind `draw_two`" in kind and "8 in the deck" in kind and "points: 10" in kind
    event = await hover(at(where(text, "on: hand_changed"), 6))
    assert "event `hand_changed`" in event
    assert (await hover(at(where(text, "c -> c.color"), 0))).startswith("`c`: card")


async def test_completion(client: LanguageClient) -> None:
    path = VARIANTS / "duo.yaml"
    text = path.read_text()
    await open_file(client, path)
    uri = path.resolve().as_uri()

    async def labels(pos: lsp.Position) -> set[str]:
        result = await client.text_document_completion_async(
            lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), pos))
        assert isinstance(result, lsp.CompletionList)
        return {i.label for i in result.items}

    after_dot = await labels(at(where(text, "c -> c.color"), 7))
    assert set(CARD_ATTRS) <= after_dot
    assert "draw" not in after_dot
    in_effect = await labels(at(where(text, "draw(next, penalty + 2)"), 0))
    assert {"draw", "skip", "next", "card", "player", "draw_two", "red"} <= in_effect
    top = await labels(lsp.Position(where(text, "unodsl: 1").line, 0))
    assert {"unodsl", "cards", "deck", "rules", "extends"} <= top


async def test_definition(client: LanguageClient) -> None:
    path = VARIANTS / "duo.yaml"
    text = path.read_text()
    await open_file(client, path)
    uri = path.resolve().as_uri()
    result = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), at(where(text, "kind: [skip"), 8)))
    assert isinstance(result, lsp.Location)
    assert result.uri == uri and result.range.start == at(where(text, "  skip:"), 2)

    house = VARIANTS / "house" / "quick_stacking.yaml"
    htext = house.read_text()
    await open_file(client, house)
    result = await client.text_document_definition_async(lsp.DefinitionParams(
        lsp.TextDocumentIdentifier(house.resolve().as_uri()), at(where(htext, "extends: draw"), 10)))
    assert isinstance(result, lsp.Location)
    assert result.uri == (VARIANTS / "house" / "draw_two_stacking.yaml").resolve().as_uri()


async def test_outline(client: LanguageClient) -> None:
    path = VARIANTS / "duo.yaml"
    await open_file(client, path)
    result = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(path.resolve().as_uri())))
    assert result is not None
    sections = {s.name: s for s in result if isinstance(s, lsp.DocumentSymbol)}
    assert {"cards", "rules"} <= set(sections)
    assert "draw_two" in {c.name for c in sections["cards"].children or []}


# -- hostile text and large files (issue 31, 8) ---------------------------------------

BIG = "".join(["unodsl: 1\n", (VARIANTS / "classic.yaml").read_text().split("unodsl: 1\n", 1)[1]]).replace(
    "on_play: skip()                            # CL-9",
    "on_play: " + "; ".join(["skip()"] * 17_000), 1)  # (within the 80,000 words of expressions a file may hold)


async def published(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    """The next diagnostics of `uri`; a server that never publishes them fails (no answer within
    two minutes: a hang, not a speed figure)."""
    while uri not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 120)
    return list(client.diagnostics[uri])


async def test_a_file_starting_with_a_bom_is_checked(client: LanguageClient, tmp_path: Path) -> None:
    body = (VARIANTS / "classic.yaml").read_text().split("unodsl: 1\n", 1)[1]
    text = "\ufeffunodsl: 1\n" + body.replace("skip()", "skp()", 1)  # `unodsl:` only after the BOM
    path = tmp_path / "bom.yaml"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(path.resolve().as_uri(), "yaml", 1, text)))
    diags = await published(client, path.resolve().as_uri())
    assert any("unknown function 'skp'" in d.message for d in diags), diags


async def test_a_lone_surrogate_gets_a_diagnostic_and_the_server_stays_up(client: LanguageClient,
                                                                           tmp_path: Path) -> None:
    text = (VARIANTS / "classic.yaml").read_text().replace("name: UNO Classic", "name: UNO \ud800 Classic", 1)
    path = tmp_path / "surrogate.yaml"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(path.resolve().as_uri(), "yaml", 1, text)))
    diags = await published(client, path.resolve().as_uri())
    pos = where(text, "\ud800")
    assert [d.range.start for d in diags if "lone surrogate (U+D800)" in d.message] == [pos]
    uri = (tmp_path / "surrogate.yaml").resolve().as_uri()
    result = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri),
                                                                     at(where(text, "skip()"), 1)))
    assert result is not None and "skip" in str(result.contents)


async def test_a_document_uri_with_a_nul(client: LanguageClient, tmp_path: Path) -> None:
    uri = (tmp_path / "a.yaml").resolve().as_uri().replace("a.yaml", "a%00b.yaml")
    text = (VARIANTS / "classic.yaml").read_text().replace("skip()", "skp()", 1)
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", 1, text)))
    diags = await published(client, uri)
    assert any("unknown function 'skp'" in d.message for d in diags), diags
    assert await open_file(client, VARIANTS / "duo.yaml") == []  # still up


async def test_requests_are_answered_while_a_large_file_is_checked(client: LanguageClient, tmp_path: Path) -> None:
    """The check runs off the event loop: a hover asked just after a 140 KB file of 17,000
    statements is opened is answered before that file's diagnostics are published."""
    duo = VARIANTS / "duo.yaml"
    await open_file(client, duo)
    big = (tmp_path / "big.yaml").resolve().as_uri()
    assert len(BIG) > 130_000
    client.diagnostics.pop(big, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(big, "yaml", 1, BIG)))
    text = duo.read_text()
    result = await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(duo.resolve().as_uri()), at(where(text, "draw(next, penalty + 2)"), 1)))
    assert result is not None
    assert big not in client.diagnostics, "the hover waited for the check"
    assert await published(client, big) == []


async def test_a_stale_check_is_dropped(client: LanguageClient, tmp_path: Path) -> None:
    """An edit while a file is checked: only the diagnostics of the text as it is now are published."""
    uri = (tmp_path / "edited_big.yaml").resolve().as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", 1, BIG)))
    small = (VARIANTS / "classic.yaml").read_text().replace("skip()", "skp()", 1)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(small)]))
    diags = await published(client, uri)
    assert any("unknown function 'skp'" in d.message for d in diags), diags
