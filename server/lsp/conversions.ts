// Conversions between the engine's world (absolute file paths, findings' 1-based LocatedRange) and LSP's
// (URIs, 0-based Range). Pure functions: no connection, no state. AST ranges (offsets) go through
// ServerContext.toRange, which knows the file's lines.
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type { Position, Range } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { SourceRange } from '../../grammar/ast';
import type { LineIndex, LocatedRange, SourceLocation } from '../../grammar/line-index';

/** A 1-based line or column -> LSP's 0-based line or character. */
function zeroBased(n: number): number {
  return Math.max(0, n - 1);
}

/** SourceLocation (1-based line/column) -> LSP Position (0-based line/character). */
function toPosition(location: SourceLocation): Position {
  return { line: zeroBased(location.line), character: zeroBased(location.column) };
}

/** A finding's LocatedRange -> LSP Range. Both are half-open and count UTF-16 code units, so only the base changes. */
export function toRange(range: LocatedRange): Range {
  return { start: toPosition(range.start), end: toPosition(range.end) };
}

function isPositionOf(position: Position, location: SourceLocation): boolean {
  return position.line === zeroBased(location.line) && position.character === zeroBased(location.column);
}

/** Whether `range` is toRange(`located`), without making it (asked of every kept diagnostic on every edit). */
export function isRangeOf(range: Range, located: LocatedRange): boolean {
  return isPositionOf(range.start, located.start) && isPositionOf(range.end, located.end);
}

/** Offsets (an AST range, an edit) -> LSP Range, by the lines of the text they are in (a LineIndex or a TextDocument). */
export function offsetsToRange(lines: Pick<LineIndex, 'positionAt'>, range: SourceRange): Range {
  return { start: lines.positionAt(range.start), end: lines.positionAt(range.end) };
}

/** 0-based UTF-16 offset of an LSP position in `text` (lines end at \n, \r\n or \r). */
export function offsetAt(text: string, position: Position): number {
  return TextDocument.create('', 'cql', 0, text).offsetAt(position);
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
