// Conversions between the engine's world (absolute file paths, 1-based SourceRange) and LSP's
// (URIs, 0-based Range). Pure functions: no connection, no state.
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';
import type { Position, Range } from 'vscode-languageserver';
import type { SourceLocation, SourceRange } from '../../grammar/ast';

/** SourceLocation (1-based line/column) -> LSP Position (0-based line/character). */
export function toPosition(location: SourceLocation): Position {
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
  const offset = offsetAt(text, position);
  return locationAt(text, offset);
}

export function toSourceRange(text: string, range: Range): SourceRange {
  return { start: toSourceLocation(text, range.start), end: toSourceLocation(text, range.end) };
}

/** 0-based UTF-16 offset of an LSP position in `text` (lines end at \n, \r\n or \r). */
export function offsetAt(text: string, position: Position): number {
  let line = 0;
  let offset = 0;
  const targetLine = Math.max(0, position.line);
  while (line < targetLine) {
    const next = nextLineStart(text, offset);
    if (next < 0) return text.length;
    offset = next;
    line++;
  }
  const lineEnd = lineEndAt(text, offset);
  return Math.min(offset + Math.max(0, position.character), lineEnd);
}

/** The SourceLocation (1-based) at a 0-based offset, clamped into the text. */
export function locationAt(text: string, offset: number): SourceLocation {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (;;) {
    const next = nextLineStart(text, lineStart);
    if (next < 0 || next > clamped) break;
    lineStart = next;
    line++;
  }
  return { offset: clamped, line, column: clamped - lineStart + 1 };
}

function nextLineStart(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) return i + 1;
    if (ch === 13) return text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
  }
  return -1;
}

function lineEndAt(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || ch === 13) return i;
  }
  return text.length;
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
