// What the reader needs to know of one host language: its literals and how they decode and encode, the shapes of
// its expressions, calls and declarations, and which calls of which drivers take CQL. One module per language
// (java.ts, kotlin.ts, python.ts, go.ts, javascript.ts, csharp.ts) implements it over tree-sitter's nodes; the
// reader (reader.ts) does the rest the same way for all.
import type { Node } from '@vscode/tree-sitter-wasm';
import type { NameValue, Part } from './value';

export type { Node };

/** A call, constructor call or annotation, as the reader sees it. */
export interface CallShape {
  node: Node;
  /** Method, function, constructor or annotation name (`execute`, `SimpleStatement`, `Query`). */
  name: string;
  /** The receiver as written, white space removed (`session`, `self.session`, `SimpleStatement`), if any. */
  receiver?: string;
  /** `new X(...)` (or a Kotlin/Python constructor call, which has no `new`). */
  isNew: boolean;
  /** Positional arguments, unwrapped. */
  args: Node[];
  /** Named arguments (`query=...`, `value = ...`), unwrapped. */
  keywords: Map<string, Node>;
}

/** Where an expression's value goes. */
export type Context =
  | {
      kind: 'argument';
      call: CallShape;
      /** Index among positional arguments, -1 for a named one. */ index: number;
      keyword?: string;
    }
  | { kind: 'annotation'; call: CallShape; index: number; keyword?: string }
  | { kind: 'declaration'; declaration: Declaration }
  /** A value in an object or composite literal under a key (`{ query: '...' }`, `gocql.BatchEntry{Stmt: ...}`). */
  | { kind: 'property'; key: string; container: Node }
  /** An element of an array or list literal. */
  | { kind: 'element'; array: Node }
  /** An expression statement on its own (a docstring, a directive): not data. */
  | { kind: 'statement' }
  | { kind: 'other' };

/** A declaration of a name with a value. */
export interface Declaration {
  name: string;
  /** Host offset of the declared name. */
  nameStart: number;
  value: Node;
  /** The node whose text holds the uses: the file for a constant, the function body for a local. */
  scope: Node;
  /** A file-level (or class-level) constant; else a local variable of a function. */
  constant: boolean;
  /** It may be assigned again (not `final`/`const`): its value counts only when the file assigns it once. */
  reassignable: boolean;
}

/** printf (`%s`, `%1$s`, `%%`), Python `%` and `.format`, C# `{0}`. */
export type FormatStyle = 'printf' | 'python-percent' | 'python-format' | 'csharp';

/** What an expression is, for evaluating it to a value. */
export type Expr =
  /** A literal; `mode` names a transformation of its text (Kotlin `.trimIndent()` / `.trimMargin()`). */
  | { kind: 'literal'; node: Node; mode?: 'trimIndent' | 'trimMargin' }
  | { kind: 'concat'; operands: Node[] }
  | { kind: 'paren'; inner: Node }
  /** A name (`Q`) or a member of this class or file (`this.Q`, `self.Q`, `Dao.Q`). */
  | { kind: 'name'; name: string }
  | { kind: 'format'; template: Node; args: Node[]; named?: Map<string, Node>; style: FormatStyle }
  | { kind: 'other' };

/** Evaluates a sub-expression (an interpolation's) to its parts, or undefined when it is not a constant of literals. */
export type Evaluate = (node: Node) => Part[] | undefined;

/** A driver call or annotation that takes CQL. */
export interface Anchor {
  /** As the statement's `anchor` shows it: `session.execute`, `@Query`, `new SimpleStatement`. */
  label: string;
  /** The node above whose line a bind comment goes (the call, the annotation). */
  node: Node;
  /** How the driver reads parameters in the text: Python `%s`, Spring `?0`, the mapper's `${tableId}`. */
  params?: 'python' | 'spring' | 'mapper';
}

/** What the file's imports say. */
export interface FileFacts {
  /** A Cassandra driver (or Spring Data Cassandra, the mapper) is imported. */
  cassandra: boolean;
  /** Another SQL database's API is imported (JDBC, JPA, sqlite3, database/sql, pg, ...). */
  otherSql: boolean;
  /** Spring Data Cassandra's `@Query` (`?0` parameters). */
  spring: boolean;
  /** The DataStax object mapper's `@Query` (`${tableId}` placeholders). */
  mapper: boolean;
}

/** An anchor, a call of another SQL API (silence: the literal is not CQL), or nothing known. */
export type AnchorVerdict = Anchor | 'sql' | undefined;

export interface LanguageSupport {
  /** The prefix of a line comment (`//`, `#`). */
  readonly commentPrefix: string;
  /** The literal node a character inside a literal's content belongs to (`node` is the smallest node there). */
  literalAt(node: Node): Node | undefined;
  /** What an expression node is. */
  classify(node: Node): Expr;
  /** The decoded parts of a literal node (classify gave `literal`), or undefined when it is not text (bytes, char). */
  decodeLiteral(
    node: Node,
    src: string,
    mode: 'trimIndent' | 'trimMargin' | undefined,
    evaluate: Evaluate,
    nameValue: NameValue,
  ): Part[] | undefined;
  /** Where an expression's value goes. */
  contextOf(expr: Node): Context;
  /** The declaration whose name is the identifier `node`, if it is one. */
  declarationAt(node: Node): Declaration | undefined;
  /** The expression that uses a name whose identifier is `node` (the identifier, or `this.Q`), if it is a use. */
  nameUse(node: Node): Node | undefined;
  /** The module names the file imports. */
  imports(src: string): string[];
  /** Facts from the imports. */
  facts(imports: readonly string[]): FileFacts;
  /** What a call receiving an expression as an argument makes of it. */
  anchorOf(
    context: Context & { kind: 'argument' | 'annotation' | 'property' | 'element' },
    facts: FileFacts,
  ): AnchorVerdict;
  /** Names of calls and keys that may give a session keyspace, as a pattern over the host text. */
  readonly keyspaceWords: RegExp;
  /** At an identifier matched by `keyspaceWords`: the expression that names the keyspace, and the call shown. */
  keyspaceAt(node: Node, facts: FileFacts): { expr: Node; via: Node; cqlName?: boolean } | undefined;
}
