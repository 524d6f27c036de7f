// Reusing a file's schema across an edit that touches no schema statement (the language server re-parses on
// every keystroke; most edits are to queries): the DDL signature says what a FileSchema was built from.
import type { ParseResult, Statement } from '../../../grammar/ast';
import type { FileSchema } from '../schema/build';
import { shardAbove } from '../schema/shard';
import { hintsAbove } from '../schema/hint-comments';
import { isSchemaStatement, withoutRanges } from './statement-keys';

/**
 * The statements a FileSchema is built from (USE, CREATE/ALTER/DROP ...), as AST objects, with their start
 * offsets when the schema was built and the `-- @shard` annotation above each CREATE TABLE. The incremental
 * parser hands back the very same statement objects (ranges shifted in place) for unchanged statement text,
 * so the same objects in the same order mean the same schema, only moved.
 */
export interface DdlSignature {
  statements: Statement[];
  starts: number[];
  shards: string[];
}

/** Mirrors the referencedNames of buildFileSchema (for a reused FileSchema). */
function referencedNamesOf(statements: readonly Statement[]): Set<string> {
  const names = new Set<string>();
  const visit = (stmt: Statement): void => {
    switch (stmt.kind) {
      case 'Select':
      case 'CreateMaterializedView':
        names.add(stmt.from.name.name);
        break;
      case 'Insert':
      case 'Update':
      case 'Delete':
      case 'CreateIndex':
        names.add(stmt.table.name.name);
        break;
      case 'Truncate':
        names.add(stmt.name.name.name);
        break;
      case 'Batch':
        for (const inner of stmt.statements) visit(inner);
        break;
      default:
        break;
    }
  };
  for (const s of statements) visit(s);
  return names;
}

export function ddlSignature(text: string, parse: ParseResult): DdlSignature {
  const statements: Statement[] = [];
  const starts: number[] = [];
  const shards: string[] = [];
  for (const stmt of parse.statements) {
    if (!isSchemaStatement(stmt)) continue;
    statements.push(stmt);
    starts.push(stmt.range.start);
    shards.push(
      stmt.kind === 'CreateTable'
        ? withoutRanges(shardAbove(parse.comments, text, stmt.range.start)) +
            JSON.stringify(hintsAbove(parse.comments, text, stmt.range.start) ?? null)
        : '',
    );
  }
  return { statements, starts, shards };
}

/**
 * The previous FileSchema when the new parse has the same schema statements (same AST objects, same
 * @shard annotations): its offsets are moved to the statements' new positions, the @shard ranges and
 * the referenced names refreshed. Undefined when it cannot be reused.
 */
export function reuseFileSchema(
  previous: { schema: FileSchema; ddl: DdlSignature },
  ddl: DdlSignature,
  parse: ParseResult,
  text: string,
): FileSchema | undefined {
  const old = previous.ddl;
  if (old.statements.length !== ddl.statements.length) return undefined;
  for (let i = 0; i < ddl.statements.length; i++) {
    if (old.statements[i] !== ddl.statements[i] || old.shards[i] !== ddl.shards[i]) return undefined;
  }
  const moved = new Map<number, number>();
  for (let i = 0; i < old.starts.length; i++) moved.set(old.starts[i]!, ddl.starts[i]!);
  const schema = previous.schema;
  const move = (offset: number): number | undefined => moved.get(offset);
  for (const use of schema.uses) if (move(use.offset) === undefined) return undefined;
  for (const list of schema.versions.values()) for (const v of list) if (move(v.offset) === undefined) return undefined;
  for (const use of schema.uses) use.offset = move(use.offset)!;
  for (const list of schema.versions.values()) for (const v of list) v.offset = move(v.offset)!;
  // @shard specs hold copies of the comment's ranges: refresh them from this parse's comments.
  for (const stmt of ddl.statements) {
    if (stmt.kind !== 'CreateTable') continue;
    const spec = schema.byStatement.get(stmt)?.shard;
    if (!spec) continue;
    const fresh = shardAbove(parse.comments, text, stmt.range.start);
    if (fresh) Object.assign(spec, fresh);
  }
  schema.referencedNames = referencedNamesOf(parse.statements);
  return schema;
}
