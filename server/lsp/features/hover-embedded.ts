// Hover contribution inside the CQL of application code: where the statement was found (the driver call or
// annotation it reaches), which keyspace its unqualified table names resolve in and why (the code's own
// `connect('shop')`, the `defaultKeyspace` setting, or the one keyspace of the workspace with such a table), and
// the parts the program computes (holes), about which nothing is said.
import { languageName } from '../../core/embedded/selection';
import type { EmbeddedStatement } from '../../core/embedded/types';
import { inlineCode, markdownText } from '../../core/util/markdown';
import type { ServerContext } from '../context';
import type { EditorDocument } from './symbols';

const LANGUAGE_LABELS: Record<ReturnType<typeof languageName>, string> = {
  java: 'Java',
  kotlin: 'Kotlin',
  python: 'Python',
  go: 'Go',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  csharp: 'C#',
};

export function embeddedHoverProvider(ctx: ServerContext, doc: EditorDocument, offset: number): string | undefined {
  if (!doc.host) return undefined;
  const embedded = ctx.project.embedded(doc.filePath);
  const statement = embedded?.statements.find((s) => s.cqlRange.start <= offset && offset <= s.cqlRange.end);
  if (!statement) return undefined;
  const language = LANGUAGE_LABELS[languageName(doc.host)];
  const lines = [
    statement.anchor
      ? `CQL in ${language} code, passed to ${inlineCode(statement.anchor)}.`
      : `CQL in ${language} code: a string that is a complete CQL statement (it reaches no driver call cqlint knows).`,
  ];
  const keyspace = keyspaceLine(ctx, doc, statement);
  if (keyspace) lines.push(keyspace);
  if (statement.holes.length) {
    lines.push(
      `${statement.holes.length === 1 ? 'One part is' : `${statement.holes.length} parts are`} computed by the program (not a literal): what depends on ${statement.holes.length === 1 ? 'it' : 'them'} is not checked.`,
    );
  }
  return lines.join('\n\n');
}

/** Where the statement's keyspace comes from, said for a statement that names a table without one. */
function keyspaceLine(ctx: ServerContext, doc: EditorDocument, statement: EmbeddedStatement): string | undefined {
  const source = statement.keyspace;
  if (source?.kind === 'code') {
    const line = ctx.project.sourceLines(doc.filePath)?.location(source.hostRange.start).line;
    return `Keyspace ${inlineCode(source.name)}, from ${inlineCode(source.via)}${line ? ` (line ${line})` : ''}.`;
  }
  if (source?.kind === 'setting')
    return `Keyspace ${inlineCode(source.name)}, from the ${inlineCode('defaultKeyspace')} setting of .cqlint.json.`;
  // No keyspace from the code or the settings: the table's own name decides, when one keyspace has such a table.
  const reference = ctx.project
    .fileReferences(doc.filePath)
    .find((r) => r.range.start >= statement.cqlRange.start && r.range.end <= statement.cqlRange.end);
  if (!reference || reference.keyspace !== undefined) return undefined;
  const table = ctx.project.tableFor(doc.filePath, reference.name, reference.range.start);
  return table?.keyspace
    ? `Keyspace ${inlineCode(table.keyspace)}: the workspace's table ${markdownText(reference.name)} is there (the code names no keyspace; set ${inlineCode('defaultKeyspace')} in .cqlint.json to choose one).`
    : `No keyspace: the code names none and no table ${markdownText(reference.name)} is defined in the workspace (set ${inlineCode('defaultKeyspace')} in .cqlint.json).`;
}
