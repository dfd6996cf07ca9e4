"""The protocol side of the language server: pygls wiring around features.py.

Diagnostics are published when a file opens and, debounced, while it is edited;
hover, completion, definition and the outline answer from the latest check.
Only files that look like variants (`unodsl:` or `extends:` at the top level)
are checked, so other YAML in the workspace is left alone.

A check runs in a worker thread, never on the event loop, so every request is
answered while a large file is checked. One check of a file runs at a time; an
edit while it runs makes its result stale: it is dropped and the file checked
again. Text that cannot be checked as it is (a lone surrogate, a document name
with a NUL) gets a diagnostic, and the server stays up whatever a check raises.
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import features as f

DEBOUNCE = 0.3  # seconds of quiet typing before a file is checked again
_VARIANT = re.compile(r"^\ufeff?(unodsl|extends)\s*:", re.MULTILINE)  # a file may start with a BOM
_SURROGATE = re.compile("[\ud800-\udfff]")
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
_ITEM_KIND = {"function": lsp.CompletionItemKind.Function, "variable": lsp.CompletionItemKind.Variable,
              "field": lsp.CompletionItemKind.Field, "constant": lsp.CompletionItemKind.Constant,
              "keyword": lsp.CompletionItemKind.Keyword, "event": lsp.CompletionItemKind.Event,
              "property": lsp.CompletionItemKind.Property, "class": lsp.CompletionItemKind.Class}
_SYMBOL_KIND = {"namespace": lsp.SymbolKind.Namespace, "class": lsp.SymbolKind.Class,
                "event": lsp.SymbolKind.Event, "boolean": lsp.SymbolKind.Boolean}


class VariantServer(LanguageServer):
    """Keeps the latest check of each open variant file."""

    def __init__(self) -> None:
        super().__init__("unodsl", "0.1.0")
        self.docs: dict[str, f.Document] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.running: dict[str, asyncio.Task[None]] = {}  # the check of each file, while it runs
        self.stale: set[str] = set()  # files edited while their check ran: checked again after it
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="unodsl-check")

    def check(self, uri: str) -> None:
        """Check the file at `uri` now (in the worker) and publish its diagnostics when done."""
        self.pending.pop(uri, None)
        if uri in self.running:  # the running check reads an older text: check again after it
            self.stale.add(uri)
            return
        task = asyncio.get_running_loop().create_task(self._check(uri))
        self.running[uri] = task
        task.add_done_callback(lambda _: self.running.pop(uri, None))

    async def _check(self, uri: str) -> None:
        while True:
            self.stale.discard(uri)
            text = self._text(uri)
            if text is None or not _VARIANT.search(text):
                self.docs.pop(uri, None)
                return
            path, problems = _fs_path(uri), _bad_text(text)
            clean = _SURROGATE.sub("?", text) if problems else text  # one character each: positions hold
            doc: f.Document | None
            try:
                doc = await asyncio.get_running_loop().run_in_executor(
                    self.worker, f.Document.check, path, clean, self.docs.get(uri))
                diags = [*problems, *(_diagnostic(p) for p in f.problems(doc))]
            except Exception as err:  # a bug in a check: say so where the editor shows it, and stay up
                doc, diags = None, [*problems, lsp.Diagnostic(
                    lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
                    f"unodsl could not check this file ({type(err).__name__}: {err}); please report it",
                    lsp.DiagnosticSeverity.Error, source="unodsl")]
            if uri in self.stale or self._text(uri) != text:  # edited meanwhile: this result is stale
                continue
            if doc is not None:
                self.docs[uri] = doc
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, diags))
            return

    def _text(self, uri: str) -> str | None:
        try:
            return self.workspace.get_text_document(uri).source
        except Exception:  # closed meanwhile, or a URI the workspace refuses
            return None

    def later(self, uri: str) -> None:
        """Check `uri` once typing has paused for DEBOUNCE seconds."""
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        if uri in self.running:
            self.stale.add(uri)
        self.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE, self.check, uri)


def _fs_path(uri: str) -> str:
    """The file of a document URI, for positions and `extends:`; the URI itself when it names
    no usable path (a NUL in it: `%00`)."""
    try:
        path = to_fs_path(uri)
    except Exception:
        path = None
    return path if path and "\x00" not in path else uri.replace("\x00", "%00")


def _bad_text(text: str) -> list[lsp.Diagnostic]:
    """A diagnostic for each lone surrogate (a half of a UTF-16 pair: not a character, and a
    file cannot be saved with it); the check reads each as '?'."""
    out = []
    for m in list(_SURROGATE.finditer(text))[:20]:
        line = text.count("\n", 0, m.start())
        char = m.start() - (text.rfind("\n", 0, m.start()) + 1)
        out.append(lsp.Diagnostic(lsp.Range(lsp.Position(line, char), lsp.Position(line, char + 1)),
                                  f"a lone surrogate (U+{ord(m.group()):04X}) is not a character; remove it",
                                  lsp.DiagnosticSeverity.Error, source="unodsl"))
    return out


def _range(r: f.Range) -> lsp.Range:
    return lsp.Range(lsp.Position(r.start_line, r.start_char), lsp.Position(r.end_line, r.end_char))


def _location(loc: f.Location) -> lsp.Location:
    return lsp.Location(from_fs_path(loc.path) or loc.path, _range(loc.range))


def _diagnostic(p: f.Problem) -> lsp.Diagnostic:
    related = None
    if p.related is not None:
        related = [lsp.DiagnosticRelatedInformation(_location(p.related), "the problem is here")]
    return lsp.Diagnostic(_range(p.range), p.message, _SEVERITY[p.severity], source="unodsl",
                          related_information=related)


def _symbol(s: f.Symbol) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(s.name, _SYMBOL_KIND[s.kind], _range(s.range), _range(s.selection),
                              detail=s.detail or None, children=[_symbol(c) for c in s.children])


def make_server() -> VariantServer:
    """A server with every feature registered."""
    server = VariantServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: VariantServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: VariantServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.later(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: VariantServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: VariantServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        timer = ls.pending.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if ls.docs.pop(uri, None) is not None:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: VariantServer, params: lsp.HoverParams) -> lsp.Hover | None:
        doc = _current(ls, params.text_document.uri)
        found = f.hover(doc, params.position.line, params.position.character) if doc else None
        if found is None:
            return None
        text, rng = found
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text), _range(rng))

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", " ", "("]))
    def completion(ls: VariantServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        doc = _current(ls, params.text_document.uri)
        items = f.complete(doc, params.position.line, params.position.character) if doc else []
        return lsp.CompletionList(False, [
            lsp.CompletionItem(i.label, kind=_ITEM_KIND[i.kind], detail=i.detail or None,
                               documentation=i.doc or None) for i in items])

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: VariantServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        doc = _current(ls, params.text_document.uri)
        loc = f.definition(doc, params.position.line, params.position.character) if doc else None
        return _location(loc) if loc else None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: VariantServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        doc = _current(ls, params.text_document.uri)
        return [_symbol(s) for s in f.outline(doc)] if doc else []

    return server


def _current(ls: VariantServer, uri: str) -> f.Document | None:
    """The latest check of `uri`, with the editor's current text for positions (checks wait for a pause)."""
    doc = ls.docs.get(uri)
    if doc is None:
        return None
    text = _SURROGATE.sub("?", ls.workspace.get_text_document(uri).source)
    if text != doc.text:  # lines moved since the check: read the words from the text as it is now
        lines: Any = text.splitlines()
        doc = f.Document(doc.path, text, lines, doc.own, doc.analysis)
    return doc


def serve() -> None:
    """Run the server over standard input and output until the client says exit."""
    make_server().start_io()
