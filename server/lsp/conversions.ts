// Conversions between the engine's world (absolute file paths, 1-based SourceRange) and LSP's
// (URIs, 0-based Range). Pure functions: no connection, no state.
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type { Position, Range } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { SourceLocation, SourceRange } from '../../grammar/ast';

/** SourceLocation (1-based line/column) -> LSP Position (0-based line/character). */
function toPosition(location: SourceLocation): Position {
  return { line: Math.max(0, location.line - 1), character: Math.max(0, location.column - 1) };
}

/** SourceRange -> LSP Range. Both are half-open and count UTF-16 code units, so only the base changes. */
export function toRange(range: SourceRange): Range {
  return { start: toPosition(range.start), end: toPosition(range.end) };
}

/**
 * LSP Position -> SourceLocation. Needs the text to compute the offset; a position past the end of
 * a line or of the text is clamped (LSP says so), never rejected.
 */
export function toSourceLocation(text: string, position: Position): SourceLocation {
  const document = TextDocument.create('', 'cql', 0, text);
  return locationIn(document, document.offsetAt(position));
}

export function toSourceRange(text: string, range: Range): SourceRange {
  const document = TextDocument.create('', 'cql', 0, text);
  return { start: locationIn(document, document.offsetAt(range.start)), end: locationIn(document, document.offsetAt(range.end)) };
}

/** 0-based UTF-16 offset of an LSP position in `text` (lines end at \n, \r\n or \r). */
export function offsetAt(text: string, position: Position): number {
  return TextDocument.create('', 'cql', 0, text).offsetAt(position);
}

/** The SourceLocation (1-based) at a 0-based offset, clamped into the text. */
export function locationAt(text: string, offset: number): SourceLocation {
  return locationIn(TextDocument.create('', 'cql', 0, text), offset);
}

function locationIn(document: TextDocument, offset: number): SourceLocation {
  const clamped = Math.max(0, Math.min(offset, document.getText().length));
  const { line, character } = document.positionAt(clamped);
  return { offset: clamped, line: line + 1, column: character + 1 };
}

// ---------------------------------------------------------------------------------------------
// URIs and paths. The engine keys files by absolute path; documents that are not on disk
// (`untitled:`, `vscode-notebook-cell:` ...) are keyed by their URI string instead.

/** True for URIs that name a file on disk. */
export function isFileUri(uri: string): boolean {
  return /^file:/i.test(uri);
}

/** `file:` URI -> absolute path; any other URI is returned unchanged (it is its own key). */
export function uriToPath(uri: string): string {
  if (!isFileUri(uri)) return uri;
  try {
    // VS Code writes Windows drive letters as `file:///c%3A/...`; Node wants `file:///c:/...`.
    return path.normalize(fileURLToPath(uri.replace(/^file:\/\/\/([a-zA-Z])%3A/i, 'file:///$1:')));
  } catch {
    return uri;
  }
}

/** Absolute path -> `file:` URI; a key that is already a URI is returned unchanged. */
export function pathToUri(filePath: string): string {
  if (path.isAbsolute(filePath)) return pathToFileURL(filePath).href;
  return filePath;
}
