// What editor features need from a workspace: its files, their text and parse, and the schema model built
// from them. The Project provides all of it (tests use a Project too).
import type { ParseResult } from '../../../grammar/ast';
import type { FileSchema } from '../schema/build';
import type { SchemaModel } from '../schema/model';

export interface EditorSources {
  /** Absolute paths (or URI keys) of every CQL file in the workspace. */
  files(): string[];
  getText(path: string): string | undefined;
  /** The (cached) parse of a file; called only for paths returned by files(). */
  parse(path: string): ParseResult;
  /** The merged workspace schema: the one home of tables, views and their columns. */
  schema(): SchemaModel;
  /** One file's schema facts (each CREATE's table as it built it). */
  fileSchema(path: string): FileSchema | undefined;
}
