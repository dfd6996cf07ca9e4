"""The language server for variant files: `unodsl lsp` (needs the `lsp` extra, pygls)."""
