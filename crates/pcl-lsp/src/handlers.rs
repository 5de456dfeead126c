//! Request handlers: LSP params → `pcl_ide` calls on a snapshot → LSP results. Every handler
//! converts positions with the line index of the snapshot's own text, so a request never mixes
//! two versions of a file. A file the analysis does not know gives an empty result.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types as lsp;
use lsp_types::{
    CodeActionOrCommand, CodeActionParams, CompletionParams, CompletionResponse,
    DocumentFormattingParams, DocumentRangeFormattingParams, DocumentSymbolParams,
    DocumentSymbolResponse, FoldingRangeParams, GotoDefinitionParams, GotoDefinitionResponse,
    HoverParams, InlayHintParams, Location, PrepareRenameResponse, ReferenceParams, RenameParams,
    SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend, SemanticTokensParams,
    SemanticTokensResult, SignatureHelpParams, TextDocumentPositionParams, Uri, WorkspaceEdit,
    WorkspaceSymbolParams, WorkspaceSymbolResponse,
};
use pcl_ide::{
    Access, Analysis, CompletionKind, FilePosition, FoldKind, HighlightKind, HighlightModifier,
    SourceChange, SymbolKind, TextRange, TextSize,
};

use crate::diagnostics::LineIndexes;
use crate::line_index::{utf16_span, LineIndex};
use crate::uri::{path_to_uri, uri_to_path};

pub(crate) enum HandlerError {
    /// The snapshot was cancelled by a change.
    Cancelled,
    /// The request cannot be done (`RequestFailed`, with a message for the user).
    Failed(String),
}

pub(crate) type Result<T> = std::result::Result<T, HandlerError>;

/// The file of a URI and the line index of its text in the snapshot, or `None` when the
/// analysis does not know the file.
fn file(analysis: &Analysis, uri: &Uri) -> Result<Option<(PathBuf, LineIndex)>> {
    let Some(path) = uri_to_path(uri) else {
        return Ok(None);
    };
    let Some(text) = analysis.file_text(&path)? else {
        return Ok(None);
    };
    Ok(Some((path, LineIndex::new(text))))
}

fn position(
    analysis: &Analysis,
    params: &TextDocumentPositionParams,
) -> Result<Option<(FilePosition, LineIndex)>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let offset = TextSize::from(index.offset(params.position));
    Ok(Some((FilePosition { file: path, offset }, index)))
}

fn range(index: &LineIndex, range: TextRange) -> lsp::Range {
    index.range(range.start().into(), range.end().into())
}

fn text_range(index: &LineIndex, range: lsp::Range) -> TextRange {
    let (start, end) = index.byte_range(range);
    TextRange::new(start.into(), end.into())
}

fn text_edits(index: &LineIndex, edits: Vec<pcl_ide::TextEdit>) -> Vec<lsp::TextEdit> {
    edits
        .into_iter()
        .map(|edit| lsp::TextEdit::new(range(index, edit.range), edit.insert))
        .collect()
}

#[allow(clippy::mutable_key_type)] // lsp_types::Uri caches its parse; hashing is by its text
fn workspace_edit(indexes: &mut LineIndexes<'_>, change: SourceChange) -> Result<WorkspaceEdit> {
    let mut changes = HashMap::new();
    for (path, edits) in change.edits {
        let Some(index) = indexes.get(&path)? else {
            continue;
        };
        changes.insert(path_to_uri(&path), text_edits(index, edits));
    }
    Ok(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    })
}

fn location(indexes: &mut LineIndexes<'_>, path: &Path, r: TextRange) -> Result<Option<Location>> {
    Ok(indexes
        .get(path)?
        .map(|index| Location::new(path_to_uri(path), range(index, r))))
}

pub(crate) fn hover(analysis: &Analysis, params: HoverParams) -> Result<Option<lsp::Hover>> {
    let Some((pos, index)) = position(analysis, &params.text_document_position_params)? else {
        return Ok(None);
    };
    Ok(analysis.hover(&pos)?.map(|hover| lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: hover.markdown,
        }),
        range: Some(range(&index, hover.range)),
    }))
}

pub(crate) fn definition(
    analysis: &Analysis,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let Some((pos, _)) = position(analysis, &params.text_document_position_params)? else {
        return Ok(None);
    };
    let targets = analysis.goto_definition(&pos)?;
    locations_of(analysis, targets).map(Some)
}

/// `textDocument/typeDefinition`: where the schema types of what is at the cursor are
/// defined.
pub(crate) fn type_definition(
    analysis: &Analysis,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let Some((pos, _)) = position(analysis, &params.text_document_position_params)? else {
        return Ok(None);
    };
    let targets = analysis.goto_type_definition(&pos)?;
    locations_of(analysis, targets).map(Some)
}

fn locations_of(
    analysis: &Analysis,
    targets: Vec<pcl_ide::NavigationTarget>,
) -> Result<GotoDefinitionResponse> {
    let mut indexes = LineIndexes::new(analysis);
    let mut locations = Vec::new();
    for target in targets {
        if let Some(loc) = location(&mut indexes, &target.file, target.focus_range)? {
            locations.push(loc);
        }
    }
    Ok(GotoDefinitionResponse::Array(locations))
}

pub(crate) fn references(
    analysis: &Analysis,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let Some((pos, _)) = position(analysis, &params.text_document_position)? else {
        return Ok(None);
    };
    let include = params.context.include_declaration;
    let mut indexes = LineIndexes::new(analysis);
    let mut locations = Vec::new();
    for r in analysis.find_references(&pos, include)? {
        if let Some(loc) = location(&mut indexes, &r.file, r.range)? {
            locations.push(loc);
        }
    }
    Ok(Some(locations))
}

pub(crate) fn document_highlights(
    analysis: &Analysis,
    params: lsp::DocumentHighlightParams,
) -> Result<Option<Vec<lsp::DocumentHighlight>>> {
    let Some((pos, index)) = position(analysis, &params.text_document_position_params)? else {
        return Ok(None);
    };
    let highlights = analysis
        .document_highlights(&pos)?
        .into_iter()
        .map(|h| lsp::DocumentHighlight {
            range: range(&index, h.range),
            kind: Some(match h.access {
                Access::Read => lsp::DocumentHighlightKind::READ,
                Access::Write => lsp::DocumentHighlightKind::WRITE,
            }),
        })
        .collect();
    Ok(Some(highlights))
}

pub(crate) fn document_links(
    analysis: &Analysis,
    params: lsp::DocumentLinkParams,
) -> Result<Option<Vec<lsp::DocumentLink>>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let links = analysis
        .document_links(&path)?
        .into_iter()
        .map(|link| lsp::DocumentLink {
            range: range(&index, link.range),
            target: Some(path_to_uri(&link.target)),
            tooltip: Some("the component's program".to_string()),
            data: None,
        })
        .collect();
    Ok(Some(links))
}

/// One chain of ranges per position asked for, innermost first (the protocol links each
/// range to the next larger one as its parent).
pub(crate) fn selection_ranges(
    analysis: &Analysis,
    params: lsp::SelectionRangeParams,
) -> Result<Option<Vec<lsp::SelectionRange>>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let mut out = Vec::with_capacity(params.positions.len());
    for p in params.positions {
        let pos = FilePosition {
            file: path.clone(),
            offset: TextSize::from(index.offset(p)),
        };
        let mut chain: Option<lsp::SelectionRange> = None;
        for r in analysis.selection_ranges(&pos)?.into_iter().rev() {
            chain = Some(lsp::SelectionRange {
                range: range(&index, r),
                parent: chain.map(Box::new),
            });
        }
        // The protocol wants one result per position: at least the position itself.
        out.push(chain.unwrap_or_else(|| lsp::SelectionRange {
            range: lsp::Range::new(p, p),
            parent: None,
        }));
    }
    Ok(Some(out))
}

pub(crate) fn prepare_rename(
    analysis: &Analysis,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let Some((pos, index)) = position(analysis, &params)? else {
        return Ok(None);
    };
    match analysis.prepare_rename(&pos)? {
        Ok(r) => Ok(Some(PrepareRenameResponse::Range(range(&index, r)))),
        Err(err) => Err(HandlerError::Failed(err.to_string())),
    }
}

pub(crate) fn rename(analysis: &Analysis, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let Some((pos, _)) = position(analysis, &params.text_document_position)? else {
        return Ok(None);
    };
    match analysis.rename(&pos, &params.new_name)? {
        Ok(change) => Ok(Some(workspace_edit(
            &mut LineIndexes::new(analysis),
            change,
        )?)),
        Err(err) => Err(HandlerError::Failed(err.to_string())),
    }
}

pub(crate) fn completion(
    analysis: &Analysis,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>> {
    let Some((pos, index)) = position(analysis, &params.text_document_position)? else {
        return Ok(None);
    };
    let list = analysis.completions(&pos)?;
    let items = list
        .items
        .into_iter()
        .map(|item| lsp::CompletionItem {
            label: item.label,
            kind: Some(completion_kind(item.kind)),
            detail: item.detail,
            documentation: item.documentation.map(|value| {
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value,
                })
            }),
            sort_text: Some(item.sort_text),
            insert_text_format: Some(if item.snippet {
                lsp::InsertTextFormat::SNIPPET
            } else {
                lsp::InsertTextFormat::PLAIN_TEXT
            }),
            text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit::new(
                range(&index, item.edit.range),
                item.edit.insert,
            ))),
            ..lsp::CompletionItem::default()
        })
        .collect();
    Ok(Some(CompletionResponse::List(lsp::CompletionList {
        is_incomplete: list.is_incomplete,
        items,
    })))
}

fn completion_kind(kind: CompletionKind) -> lsp::CompletionItemKind {
    match kind {
        CompletionKind::Keyword => lsp::CompletionItemKind::KEYWORD,
        CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
        CompletionKind::Property => lsp::CompletionItemKind::PROPERTY,
        CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
        CompletionKind::ResourceType => lsp::CompletionItemKind::CLASS,
        CompletionKind::Option => lsp::CompletionItemKind::FIELD,
        CompletionKind::EnumValue => lsp::CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Module => lsp::CompletionItemKind::MODULE,
    }
}

pub(crate) fn signature_help(
    analysis: &Analysis,
    params: SignatureHelpParams,
) -> Result<Option<lsp::SignatureHelp>> {
    let Some((pos, _)) = position(analysis, &params.text_document_position_params)? else {
        return Ok(None);
    };
    let Some(help) = analysis.signature_help(&pos)? else {
        return Ok(None);
    };
    let parameters = help
        .parameters
        .iter()
        .map(|&(start, end)| lsp::ParameterInformation {
            label: lsp::ParameterLabel::LabelOffsets(utf16_span(&help.label, start, end)),
            documentation: None,
        })
        .collect();
    let active = help.active_parameter.map(|a| a as u32);
    Ok(Some(lsp::SignatureHelp {
        signatures: vec![lsp::SignatureInformation {
            label: help.label,
            documentation: help.documentation.map(|value| {
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value,
                })
            }),
            parameters: Some(parameters),
            active_parameter: active,
        }],
        active_signature: Some(0),
        active_parameter: active,
    }))
}

fn symbol_kind(kind: SymbolKind) -> lsp::SymbolKind {
    match kind {
        SymbolKind::Config => lsp::SymbolKind::CONSTANT,
        SymbolKind::Local => lsp::SymbolKind::VARIABLE,
        SymbolKind::Resource => lsp::SymbolKind::OBJECT,
        SymbolKind::Read => lsp::SymbolKind::OBJECT,
        SymbolKind::Component => lsp::SymbolKind::MODULE,
        SymbolKind::Output => lsp::SymbolKind::FIELD,
        SymbolKind::Package => lsp::SymbolKind::PACKAGE,
        SymbolKind::Hook => lsp::SymbolKind::FUNCTION,
        SymbolKind::Pulumi => lsp::SymbolKind::NAMESPACE,
        SymbolKind::Property => lsp::SymbolKind::PROPERTY,
        SymbolKind::Variable => lsp::SymbolKind::VARIABLE,
        SymbolKind::Function => lsp::SymbolKind::FUNCTION,
    }
}

#[allow(deprecated)] // `deprecated` is a required field of the protocol's types
fn document_symbol(index: &LineIndex, symbol: pcl_ide::DocumentSymbol) -> lsp::DocumentSymbol {
    let full = range(index, symbol.full_range);
    let mut focus = range(index, symbol.focus_range);
    // The selection range must be inside the full range.
    if focus.start < full.start || focus.end > full.end {
        focus = full;
    }
    let children: Vec<_> = symbol
        .children
        .into_iter()
        .map(|child| document_symbol(index, child))
        .collect();
    lsp::DocumentSymbol {
        name: if symbol.name.is_empty() {
            "_".to_owned()
        } else {
            symbol.name
        },
        detail: symbol.detail,
        kind: symbol_kind(symbol.kind),
        tags: None,
        deprecated: None,
        range: full,
        selection_range: focus,
        children: (!children.is_empty()).then_some(children),
    }
}

pub(crate) fn document_symbols(
    analysis: &Analysis,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let symbols = analysis
        .document_symbols(&path)?
        .into_iter()
        .map(|symbol| document_symbol(&index, symbol))
        .collect();
    Ok(Some(DocumentSymbolResponse::Nested(symbols)))
}

#[allow(deprecated)] // `deprecated` is a required field of the protocol's types
pub(crate) fn workspace_symbols(
    analysis: &Analysis,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    let mut indexes = LineIndexes::new(analysis);
    let mut symbols = Vec::new();
    for target in analysis.workspace_symbols(&params.query)? {
        if let Some(location) = location(&mut indexes, &target.file, target.focus_range)? {
            symbols.push(lsp::SymbolInformation {
                name: target.name,
                kind: symbol_kind(target.kind),
                tags: None,
                deprecated: None,
                location,
                container_name: None,
            });
        }
    }
    Ok(Some(WorkspaceSymbolResponse::Flat(symbols)))
}

/// The token types of the legend, in the order of their indexes.
const TOKEN_TYPES: [(HighlightKind, SemanticTokenType); 12] = [
    (HighlightKind::Keyword, SemanticTokenType::KEYWORD),
    (HighlightKind::Variable, SemanticTokenType::VARIABLE),
    (HighlightKind::Property, SemanticTokenType::PROPERTY),
    (HighlightKind::Function, SemanticTokenType::FUNCTION),
    (HighlightKind::Type, SemanticTokenType::TYPE),
    (HighlightKind::String, SemanticTokenType::STRING),
    (HighlightKind::Number, SemanticTokenType::NUMBER),
    (HighlightKind::Comment, SemanticTokenType::COMMENT),
    (HighlightKind::Operator, SemanticTokenType::OPERATOR),
    (HighlightKind::Parameter, SemanticTokenType::PARAMETER),
    (HighlightKind::EnumMember, SemanticTokenType::ENUM_MEMBER),
    (HighlightKind::Namespace, SemanticTokenType::NAMESPACE),
];

const TOKEN_MODIFIERS: [(HighlightModifier, SemanticTokenModifier); 3] = [
    (
        HighlightModifier::Declaration,
        SemanticTokenModifier::DECLARATION,
    ),
    (HighlightModifier::Readonly, SemanticTokenModifier::READONLY),
    (
        HighlightModifier::DefaultLibrary,
        SemanticTokenModifier::DEFAULT_LIBRARY,
    ),
];

fn token_type(kind: HighlightKind) -> u32 {
    // Exhaustive, so a new kind in the library is a compile error here.
    match kind {
        HighlightKind::Keyword => 0,
        HighlightKind::Variable => 1,
        HighlightKind::Property => 2,
        HighlightKind::Function => 3,
        HighlightKind::Type => 4,
        HighlightKind::String => 5,
        HighlightKind::Number => 6,
        HighlightKind::Comment => 7,
        HighlightKind::Operator => 8,
        HighlightKind::Parameter => 9,
        HighlightKind::EnumMember => 10,
        HighlightKind::Namespace => 11,
    }
}

pub(crate) fn semantic_tokens_legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TOKEN_TYPES.iter().map(|(_, t)| t.clone()).collect(),
        token_modifiers: TOKEN_MODIFIERS.iter().map(|(_, m)| m.clone()).collect(),
    }
}

pub(crate) fn semantic_tokens(
    analysis: &Analysis,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let mut tokens = analysis.semantic_tokens(&path)?;
    tokens.sort_by_key(|t| (t.range.start(), t.range.end()));
    let mut data = Vec::with_capacity(tokens.len());
    let (mut prev_line, mut prev_start) = (0u32, 0u32);
    let mut last_end = 0u32;
    for token in tokens {
        let (start, end) = (u32::from(token.range.start()), u32::from(token.range.end()));
        if start < last_end || start >= end {
            continue; // overlapping or empty: the protocol cannot express them
        }
        last_end = end;
        let mut modifiers = 0u32;
        for (bit, (m, _)) in TOKEN_MODIFIERS.iter().enumerate() {
            if token.modifiers & (*m as u32) != 0 {
                modifiers |= 1 << bit;
            }
        }
        let token_type = token_type(token.kind);
        // One token per line: multi-line tokens (heredocs, block comments) are split.
        let first = index.position(start);
        let last = index.position(end);
        for line in first.line..=last.line {
            let from = if line == first.line {
                first.character
            } else {
                0
            };
            let to = if line == last.line {
                last.character
            } else {
                let line_end = index.offset(lsp::Position::new(line, u32::MAX));
                index.position(line_end).character
            };
            if to <= from {
                continue;
            }
            let delta_line = line - prev_line;
            let delta_start = if delta_line == 0 {
                from - prev_start
            } else {
                from
            };
            data.push(lsp::SemanticToken {
                delta_line,
                delta_start,
                length: to - from,
                token_type,
                token_modifiers_bitset: modifiers,
            });
            prev_line = line;
            prev_start = from;
        }
    }
    Ok(Some(SemanticTokensResult::Tokens(lsp::SemanticTokens {
        result_id: None,
        data,
    })))
}

pub(crate) fn inlay_hints(
    analysis: &Analysis,
    params: InlayHintParams,
) -> Result<Option<Vec<lsp::InlayHint>>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let range_bytes = text_range(&index, params.range);
    let hints = analysis
        .inlay_hints(&path, Some(range_bytes))?
        .into_iter()
        .map(|hint| lsp::InlayHint {
            position: index.position(hint.offset.into()),
            label: lsp::InlayHintLabel::String(hint.label),
            kind: Some(lsp::InlayHintKind::TYPE),
            text_edits: None,
            tooltip: None,
            padding_left: None,
            padding_right: None,
            data: None,
        })
        .collect();
    Ok(Some(hints))
}

/// Folds by lines. A client that folds whole lines only (`lineFoldingOnly`: Neovim, VS Code)
/// would hide a block's closing line with its body: a fold that ends with a closing bracket
/// ends on the line before it, as rust-analyzer's do.
pub(crate) fn folding_ranges(
    analysis: &Analysis,
    params: FoldingRangeParams,
    line_folding_only: bool,
) -> Result<Option<Vec<lsp::FoldingRange>>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let text = analysis.file_text(&path)?;
    let folds = analysis
        .folding_ranges(&path)?
        .into_iter()
        .filter_map(|fold| {
            let r = range(&index, fold.range);
            let closes = text
                .as_deref()
                .and_then(|t| t.get(..usize::from(fold.range.end())))
                .is_some_and(|t| t.ends_with(['}', ']', ')']));
            let end_line = if line_folding_only && closes && fold.kind != FoldKind::Comment {
                r.end.line.saturating_sub(1)
            } else {
                r.end.line
            };
            (end_line > r.start.line).then_some(lsp::FoldingRange {
                start_line: r.start.line,
                start_character: None,
                end_line,
                end_character: None,
                kind: match fold.kind {
                    FoldKind::Comment => Some(lsp::FoldingRangeKind::Comment),
                    // Blocks, objects and strings: no kind (LSP's `region` is for markers).
                    FoldKind::Region | FoldKind::Text => None,
                },
                collapsed_text: None,
            })
        })
        .collect();
    Ok(Some(folds))
}

pub(crate) fn formatting(
    analysis: &Analysis,
    params: DocumentFormattingParams,
) -> Result<Option<Vec<lsp::TextEdit>>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    Ok(Some(
        analysis
            .format(&path)?
            .map(|edits| text_edits(&index, edits))
            .unwrap_or_default(),
    ))
}

pub(crate) fn range_formatting(
    analysis: &Analysis,
    params: DocumentRangeFormattingParams,
) -> Result<Option<Vec<lsp::TextEdit>>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let r = text_range(&index, params.range);
    Ok(Some(
        analysis
            .format_range(&path, r)?
            .map(|edits| text_edits(&index, edits))
            .unwrap_or_default(),
    ))
}

pub(crate) fn code_actions(
    analysis: &Analysis,
    params: CodeActionParams,
) -> Result<Option<Vec<CodeActionOrCommand>>> {
    let Some((path, index)) = file(analysis, &params.text_document.uri)? else {
        return Ok(None);
    };
    let r = text_range(&index, params.range);
    let mut indexes = LineIndexes::new(analysis);
    let mut actions = Vec::new();
    // The fixes of the diagnostics the client names too, wherever the cursor is: Neovim asks
    // with the cursor's position and the diagnostics of its line (a missing attribute is
    // reported at the block's `{`, and the cursor is rarely on it).
    let mut assists = analysis.code_actions(&path, r)?;
    for diagnostic in &params.context.diagnostics {
        let at = text_range(&index, diagnostic.range);
        if at.intersect(r).is_some() {
            continue;
        }
        for assist in analysis.code_actions(&path, at)? {
            let known = assists
                .iter()
                .any(|a| a.label == assist.label && a.diagnostic_range == assist.diagnostic_range);
            if !known && assist.diagnostic_range.is_some_and(|d| d == at) {
                assists.push(assist);
            }
        }
    }
    // The preferred action of a diagnostic is its first fix (the likeliest candidate); an
    // action that fixes no diagnostic (wrapping a secret input in `secret(...)`) is never
    // preferred: an editor's "fix all" applies preferred actions without asking.
    let mut preferred_for: Vec<pcl_ide::TextRange> = Vec::new();
    for assist in assists {
        let preferred = match assist.diagnostic_range {
            Some(at) if !preferred_for.contains(&at) => {
                preferred_for.push(at);
                true
            }
            _ => false,
        };
        let diagnostics = assist.diagnostic_range.map(|dr| {
            let dr = range(&index, dr);
            params
                .context
                .diagnostics
                .iter()
                .filter(|d| d.range == dr)
                .cloned()
                .collect::<Vec<_>>()
        });
        let is_quick_fix = matches!(assist.kind, pcl_ide::AssistKind::QuickFix);
        actions.push(CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title: assist.label,
            kind: Some(if is_quick_fix {
                lsp::CodeActionKind::QUICKFIX
            } else {
                lsp::CodeActionKind::REFACTOR
            }),
            diagnostics: diagnostics.filter(|d| !d.is_empty()),
            edit: Some(workspace_edit(&mut indexes, assist.edit)?),
            is_preferred: Some(is_quick_fix && preferred),
            ..lsp::CodeAction::default()
        }));
    }
    Ok(Some(actions))
}
