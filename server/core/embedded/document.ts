// The CQL text of a host file and its map: the statements found, each on lines of its own and followed by `;`,
// `USE` lines for the session keyspaces, and segments that say where each character of the CQL text came from
// (a literal's character, a hole's placeholder, or text cqlint wrote). toHost / toHostRange / toCql read the
// segments; hostEdits (host-edits.ts) writes through them.
import type { SourceRange } from '../../../grammar/ast';
import { quoteName } from '../util/names';
import type { TextEdit } from '../util/text-edit';
import { mapEdits } from './host-edits';
import { type Segment, type StatementLayout, lastAtOrBefore } from './segments';
import type {
  EmbeddedDocument,
  EmbeddedOptions,
  EmbeddedProblem,
  EmbeddedStatement,
  HostEditResult,
  HostLanguage,
  KeyspaceSource,
} from './types';
import type { FoundKeyspace, FoundStatement } from './reader';

/** A hole's placeholder: the prefix of an identifier placeholder, numbered from 1 in each file. */
export const HOLE_PREFIX = 'cqlint_hole_';

/** Keywords after which a hole stands for a value (a bind marker), not a name. */
const VALUE_KEYWORDS = /(?:^|[^\w"])(?:in|limit|ttl|timestamp|contains|key|per\s+partition\s+limit)\s*$/i;

/**
 * The placeholder of a hole after `before` (the statement's text so far): inside a quoted string or name, a name
 * (`'cqlint_hole_1'` stays a string); after `=`, `<`, `>`, an operator, `IN`, `LIMIT`, `USING TTL`, or inside a
 * `VALUES (...)` / `IN (...)` list or a collection literal, a bind marker `?`; else a name.
 */
export function placeholderFor(before: string, n: number): string {
  let singles = 0;
  let doubles = 0;
  for (let i = 0; i < before.length; i++) {
    const c = before[i];
    if (c === "'" && doubles % 2 === 0) singles++;
    else if (c === '"' && singles % 2 === 0) doubles++;
  }
  const name = `${HOLE_PREFIX}${n}`;
  if (singles % 2 === 1 || doubles % 2 === 1) return name;
  const text = before.trimEnd();
  if (/[=<>+\-*/%[{:]$/.test(text) || VALUE_KEYWORDS.test(text)) return '?';
  if (/[(,]$/.test(text)) {
    // Inside which parenthesis: a VALUES or IN list takes values, a column list or function call names.
    let depth = 0;
    for (let i = text.length - 1; i >= 0; i--) {
      const c = text[i];
      if (c === ')') depth++;
      else if (c === '(' && depth-- === 0) return /(?:values|in)\s*$/i.test(text.slice(0, i)) ? '?' : name;
      else if ((c === '[' || c === '{') && depth === 0) return '?';
    }
  }
  return name;
}

/** The `USE` text for a keyspace named in the code or the settings. */
function useName(keyspace: FoundKeyspace | string): string {
  if (typeof keyspace === 'string') return quoteName(keyspace);
  return keyspace.cqlName ? keyspace.name : quoteName(keyspace.name);
}

/** The keyspace as Cassandra sees it (a CQL name folds to lower case unless quoted). */
function keyspaceName(keyspace: FoundKeyspace): string {
  if (!keyspace.cqlName) return keyspace.name;
  return keyspace.name.startsWith('"') ? keyspace.name.slice(1, -1).replace(/""/g, '"') : keyspace.name.toLowerCase();
}

/** A statement that is itself `USE ks`: it sets the keyspace of those after it. */
const USE_STATEMENT = /^\s*use\s+("(?:[^"]|"")+"|\w+)\s*;?\s*$/i;

export interface Layout {
  cqlText: string;
  statements: EmbeddedStatement[];
  layouts: StatementLayout[];
  segments: Segment[];
}

/** Lays out the CQL text: the statements in host order, `USE` lines where the session keyspace changes. */
export function layOut(
  found: readonly FoundStatement[],
  keyspaces: readonly FoundKeyspace[],
  options: EmbeddedOptions,
  lineStartOf: (offset: number) => number,
): Layout {
  // The text is built as chunks and joined once: slicing a string built by `+=` flattens it each time.
  const chunks: string[] = [];
  let length = 0;
  const add = (text: string): void => {
    chunks.push(text);
    length += text.length;
  };
  const segments: Segment[] = [];
  const statements: EmbeddedStatement[] = [];
  const layouts: StatementLayout[] = [];
  const synth = (text: string, statement: number, hostStart: number, hostEnd = hostStart): void => {
    segments.push({ kind: 'synth', cqlStart: length, cqlEnd: length + text.length, statement, hostStart, hostEnd });
    add(text);
  };
  const setting = keyspaces.length === 0 && options.defaultKeyspace ? options.defaultKeyspace : undefined;
  if (setting && found.length > 0) synth(`USE ${quoteName(setting)};\n`, -1, 0);
  let current: FoundKeyspace | undefined;
  let fromStatement: KeyspaceSource | undefined;
  let holes = 0;
  found.forEach((statement, index) => {
    const at = statement.expr.startIndex;
    const code = [...keyspaces].reverse().find((k) => k.at <= at) ?? keyspaces[0];
    let keyspace: KeyspaceSource | undefined = setting ? { kind: 'setting', name: setting } : undefined;
    if (code) {
      if (code !== current) {
        current = code;
        fromStatement = undefined;
        synth('USE ', index, code.start);
        synth(useName(code), index, code.start, code.end);
        synth(';\n', index, code.end);
      }
      keyspace = {
        kind: 'code',
        name: keyspaceName(code),
        hostRange: { start: code.start, end: code.end },
        via: code.via,
      };
    }
    if (fromStatement) keyspace = fromStatement;
    const textStart = length;
    let text = '';
    const holeRanges: SourceRange[] = [];
    let lastHost = statement.expr.endIndex;
    for (const part of statement.parts) {
      if (part.kind === 'text') {
        segments.push({ kind: 'text', cqlStart: length, cqlEnd: length + part.text.length, statement: index, part });
        add(part.text);
        text += part.text;
        if (part.text.length > 0) lastHost = part.ends[part.ends.length - 1]!;
      } else {
        const placeholder = placeholderFor(text, ++holes);
        segments.push({
          kind: 'hole',
          cqlStart: length,
          cqlEnd: length + placeholder.length,
          statement: index,
          hostStart: part.start,
          hostEnd: part.end,
        });
        holeRanges.push({ start: length, end: length + placeholder.length });
        add(placeholder);
        text += placeholder;
      }
    }
    const textEnd = length;
    const leading = text.length - text.trimStart().length;
    const trimmed = text.trim();
    const cqlRange = trimmed
      ? { start: textStart + leading, end: textStart + leading + trimmed.length }
      : { start: textStart, end: textStart };
    const lastLine = trimmed.slice(trimmed.lastIndexOf('\n') + 1);
    synth(trimmed.endsWith(';') ? '\n' : /--|\/\//.test(lastLine) ? '\n;\n' : ';\n', index, lastHost);
    const anchors = statement.anchors;
    const entry: EmbeddedStatement = {
      cqlRange,
      hostRange: { start: statement.expr.startIndex, end: statement.expr.endIndex },
      holes: holeRanges,
      ...(anchors.length > 0 ? { anchor: anchors[0]!.label } : {}),
      ...(keyspace ? { keyspace } : {}),
    };
    statements.push(entry);
    const commentAt =
      anchors.length > 0
        ? anchors.map((a) => lineStartOf(a.node.startIndex))
        : [lineStartOf(statement.expr.startIndex)];
    layouts.push({
      textStart,
      textEnd,
      regionEnd: length,
      commentAt: [...new Set(commentAt)].sort((a, b) => a - b),
      ...(statement.encodeParameters ? { encodeParameters: statement.encodeParameters } : {}),
    });
    const use = anchors.length > 0 ? USE_STATEMENT.exec(trimmed) : null;
    if (use && current === code) {
      const name = use[1]!.startsWith('"') ? use[1]!.slice(1, -1).replace(/""/g, '"') : use[1]!.toLowerCase();
      fromStatement = { kind: 'code', name, hostRange: entry.hostRange, via: anchors[0]!.label };
    }
  });
  return { cqlText: chunks.join(''), statements, layouts, segments };
}

/** The host offset where the CQL offset `offset` starts (`end`: where the character before it ends). */
function hostAt(segment: Segment, offset: number, side: 'start' | 'end'): number {
  if (segment.kind !== 'text') return side === 'start' ? segment.hostStart : segment.hostEnd;
  const i = offset - segment.cqlStart;
  return side === 'start' ? segment.part.starts[i]! : segment.part.ends[i - 1]!;
}

/** The index of the segment holding CQL offset `offset` (the last one for the end of the text). */
function segmentAt(segments: readonly Segment[], offset: number): number {
  return Math.max(
    0,
    lastAtOrBefore(segments, offset, (s) => s.cqlStart),
  );
}

/** Host ranges of the CQL text's literal characters and holes, sorted, for toCql. */
class HostIndex {
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly cql: Int32Array;

  constructor(segments: readonly Segment[]) {
    const entries: [number, number, number][] = [];
    for (const s of segments) {
      if (s.kind === 'text') {
        const { starts, ends } = s.part;
        for (let i = 0; i < starts.length; i++) entries.push([starts[i]!, ends[i]!, s.cqlStart + i]);
        if (starts.length > 0) entries.push([ends[ends.length - 1]!, ends[ends.length - 1]!, s.cqlEnd]);
      } else if (s.kind === 'hole') {
        entries.push([s.hostStart, s.hostEnd, s.cqlStart]);
      }
    }
    entries.sort((a, b) => a[0] - b[0] || a[2] - b[2]);
    this.starts = Int32Array.from(entries, (e) => e[0]);
    this.ends = Int32Array.from(entries, (e) => e[1]);
    this.cql = Int32Array.from(entries, (e) => e[2]);
  }

  find(host: number): number | undefined {
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= host) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    // Among entries starting at or before `host`, the first (lowest CQL offset) that covers it.
    for (let i = found; i >= 0 && i > found - 8; i--) {
      const start = this.starts[i]!;
      const end = this.ends[i]!;
      if (host < end || (start === end && host === start)) {
        let best = i;
        while (best > 0 && this.starts[best - 1] === start && this.ends[best - 1] === end) best--;
        return this.cql[best];
      }
    }
    return undefined;
  }
}

/** The document handed to the engine. */
export function embeddedDocument(
  language: HostLanguage,
  hostText: string,
  layout: Layout | undefined,
  problems: EmbeddedProblem[],
  commentPrefix: string,
): EmbeddedDocument {
  const { cqlText, statements, segments, layouts } = layout ?? {
    cqlText: '',
    statements: [],
    segments: [],
    layouts: [],
  };
  let index: HostIndex | undefined;
  const toHost = (offset: number): number => {
    if (segments.length === 0) return 0;
    const clamped = Math.max(0, Math.min(offset, cqlText.length));
    const i = segmentAt(segments, clamped);
    const segment = segments[i]!;
    if (clamped >= segment.cqlEnd) return hostAt(segment, segment.cqlEnd, 'end');
    if (clamped === segment.cqlStart && i > 0) {
      const previous = segments[i - 1]!;
      if (previous.kind === 'hole' && previous.statement === segment.statement) return previous.hostEnd;
      if (segment.kind === 'synth' && previous.kind === 'text' && previous.statement === segment.statement)
        return hostAt(previous, previous.cqlEnd, 'end');
    }
    return hostAt(segment, clamped, 'start');
  };
  return {
    language,
    cqlText,
    statements,
    problems,
    toHost,
    toHostRange(range) {
      if (segments.length === 0 || range.end <= range.start) {
        const at = toHost(range.start);
        return { start: at, end: at };
      }
      const start = segments[segmentAt(segments, range.start)]!;
      const end = segments[segmentAt(segments, range.end - 1)]!;
      const hostStart = start.cqlEnd > range.start ? hostAt(start, range.start, 'start') : toHost(range.start);
      return { start: hostStart, end: Math.max(hostStart, hostAt(end, range.end, 'end')) };
    },
    toCql(hostOffset) {
      index ??= new HostIndex(segments);
      return index.find(hostOffset);
    },
    hostEdits(cqlEdits: readonly TextEdit[]): HostEditResult {
      return mapEdits({ hostText, cqlText, segments, layouts, commentPrefix }, cqlEdits);
    },
  };
}
