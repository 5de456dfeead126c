"""pytest-lsp against `pcl lsp`: the protocol surface and abuse cases.

Run by crates/pcl-cli/tests/lsp_clients.rs with PCL_BIN set to the freshly built binary:
    PCL_BIN=target/debug/pcl python -m pytest -q editors/tests/pytest
"""

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

PCL = os.environ.get("PCL_BIN", "pcl")
FIXTURE = Path(__file__).resolve().parents[3] / "crates" / "pcl-lsp" / "tests" / "fixture"
TIMEOUT = 30.0


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[PCL, "lsp"]))
async def client(lsp_client: LanguageClient):
    # The VS Code capabilities include dynamic registration of watched files: accept it.
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params):
        return None

    root = Path(tempfile.mkdtemp(prefix="pcl-pytest-lsp-"))
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True)
    lsp_client.root = root
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="fixture")],
            initialization_options={"schemaPaths": []},
        )
    )
    lsp_client.init_result = result
    yield
    await lsp_client.shutdown_session()
    shutil.rmtree(root, ignore_errors=True)


def uri(client, name):
    return (client.root / name).as_uri()


def open_file(client, name):
    path = client.root / name
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=path.as_uri(), language_id="pcl", version=1, text=path.read_text()
            )
        )
    )


def position_of(client, name, needle, delta=0):
    text = (client.root / name).read_text()
    at = text.index(needle)
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return types.Position(line=line, character=len(text[start:at].encode("utf-16-le")) // 2 + delta)


async def wait_diagnostics(client, name, accept):
    key = uri(client, name)
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while asyncio.get_running_loop().time() < deadline:
        diagnostics = client.diagnostics.get(key)
        if diagnostics is not None and accept(diagnostics):
            return diagnostics
        await asyncio.sleep(0.02)
    raise AssertionError(f"no acceptable diagnostics for {name}: {client.diagnostics.get(key)}")


def errors(diagnostics):
    return [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]


async def test_capabilities(client):
    caps = client.init_result.capabilities
    assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.document_highlight_provider and caps.selection_range_provider
    assert caps.document_link_provider
    assert caps.rename_provider.prepare_provider
    assert "." in caps.completion_provider.trigger_characters
    assert caps.semantic_tokens_provider.legend.token_types
    assert caps.document_formatting_provider and caps.document_range_formatting_provider


async def test_diagnostics_hover_definition(client):
    open_file(client, "main.pp")
    open_file(client, "other.pp")
    assert list(await wait_diagnostics(client, "main.pp", lambda d: True)) == []
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(client, "main.pp")),
            position=position_of(client, "main.pp", "= greeting", 3),
        )
    )
    assert hover is not None and "string" in hover.contents.value
    definition = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(client, "other.pp")),
            position=position_of(client, "other.pp", "greeting", 2),
        )
    )
    assert [d.uri for d in definition] == [uri(client, "main.pp")]
    assert definition[0].range.start == position_of(client, "main.pp", "greeting =")


async def test_highlights_selection_ranges_and_links(client):
    open_file(client, "main.pp")
    doc = types.TextDocumentIdentifier(uri=uri(client, "main.pp"))
    marks = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=doc, position=position_of(client, "main.pp", "${prefix}", 4)
        )
    )
    assert [(m.range.start, m.kind) for m in marks] == [
        (position_of(client, "main.pp", "prefix string"), types.DocumentHighlightKind.Write),
        (position_of(client, "main.pp", "prefix}"), types.DocumentHighlightKind.Read),
    ], marks
    at = position_of(client, "main.pp", "${prefix}", 3)
    ranges = await client.text_document_selection_range_async(
        types.SelectionRangeParams(text_document=doc, positions=[at])
    )
    assert len(ranges) == 1
    chain, link = [], ranges[0]
    while link is not None:
        chain.append(link.range)
        link = link.parent
    assert chain[0].start == position_of(client, "main.pp", "prefix}")
    # Each range contains the one before it.
    key = lambda p: (p.line, p.character)
    for inner, outer in zip(chain, chain[1:]):
        assert key(outer.start) <= key(inner.start) and key(inner.end) <= key(outer.end)
        assert inner != outer
    assert len(chain) >= 4, chain
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=doc)
    )
    assert [(link.range.start, link.target) for link in links] == [
        (position_of(client, "main.pp", "./app"), uri(client, "app/main.pp"))
    ], links


async def test_symbols_tokens_folds(client):
    open_file(client, "main.pp")
    doc = types.TextDocumentIdentifier(uri=uri(client, "main.pp"))
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc)
    )
    names = {s.name for s in symbols}
    assert {"prefix", "greeting", "web", "url"} <= names, names
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="greet"))
    assert any(s.name == "greeting" for s in found)
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc)
    )
    assert tokens.data and len(tokens.data) % 5 == 0
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc)
    )
    assert folds


async def test_malformed_json_is_survived(client):
    open_file(client, "main.pp")
    stdin = client._server.stdin
    stdin.write(b"Content-Length: 9\r\n\r\n{not json")
    stdin.write(b"no header colon\r\n\r\n")
    await stdin.drain()
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(client, "main.pp")),
            position=position_of(client, "main.pp", "greeting =", 1),
        )
    )
    assert hover is not None
    assert client._server.returncode is None


async def test_unknown_method(client):
    with pytest.raises(JsonRpcMethodNotFound):
        await client.protocol.send_request_async("pcl/noSuchMethod", {})


async def test_unknown_file_and_out_of_range_positions(client):
    open_file(client, "main.pp")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri="file:///no/such/dir/x.pp"),
            position=types.Position(line=0, character=0),
        )
    )
    assert hover is None
    for position in [types.Position(line=100000, character=5), types.Position(line=2, character=100000)]:
        await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri(client, "main.pp")),
                position=position,
            )
        )
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri(client, "main.pp")),
            position=types.Position(line=99999, character=99999),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert not refs


async def test_two_thousand_rapid_edits(client):
    open_file(client, "other.pp")
    await wait_diagnostics(client, "other.pp", lambda d: True)
    doc_uri = uri(client, "other.pp")
    end = position_of(client, "other.pp", "length(greeting)", len("length(greeting)"))
    version = 1
    for i in range(2000):
        version += 1
        if i % 2 == 0:
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=end, end=end), text="😀"
            )
        else:
            after = types.Position(line=end.line, character=end.character + 2)
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=end, end=after), text=""
            )
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=doc_uri, version=version),
                content_changes=[change],
            )
        )
    # Finally break the reference: `greeting` -> `greetingz`.
    at = position_of(client, "other.pp", "greeting)", len("greeting"))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc_uri, version=version + 1),
            content_changes=[
                types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="z")
            ],
        )
    )
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc_uri),
            position=types.Position(line=0, character=2),
        )
    )
    assert hover is not None
    # Intermediate states may be published on the way; the last has only the broken name
    # (a leftover emoji would be an invalid-character error: the UTF-16 ranges were wrong).
    await wait_diagnostics(
        client,
        "other.pp",
        lambda d: len(errors(d)) == 1 and "greetingz" in errors(d)[0].message,
    )
