// What editor features need from a workspace: its files, their text and their parse. The analysis
// engineer's Project satisfies this structurally; tests and the CLI use MemorySources.
import type { ParseResult } from '../../../grammar/ast';

export interface EditorSources {
  /** Absolute paths (or URI keys) of every CQL file in the workspace. */
  files(): string[];
  getText(path: string): string | undefined;
  /** The (cached) parse of a file; called only for paths returned by files(). */
  parse(path: string): ParseResult;
}

/** A plain map of path -> text, parsed on demand and cached until the text changes. */
export class MemorySources implements EditorSources {
  private readonly texts = new Map<string, string>();
  private readonly parses = new Map<string, ParseResult>();

  constructor(private readonly parser: (text: string) => ParseResult, initial?: Record<string, string>) {
    for (const [path, text] of Object.entries(initial ?? {})) this.setFile(path, text);
  }

  setFile(path: string, text: string): void {
    if (this.texts.get(path) === text) return;
    this.texts.set(path, text);
    this.parses.delete(path);
  }

  deleteFile(path: string): void {
    this.texts.delete(path);
    this.parses.delete(path);
  }

  files(): string[] {
    return [...this.texts.keys()];
  }

  getText(path: string): string | undefined {
    return this.texts.get(path);
  }

  parse(path: string): ParseResult {
    let result = this.parses.get(path);
    if (!result) {
      result = this.parser(this.texts.get(path) ?? '');
      this.parses.set(path, result);
    }
    return result;
  }
}
