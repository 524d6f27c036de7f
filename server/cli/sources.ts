// The files a command reads CQL from: CQL files, and application code (Java, Kotlin, Python, Go, JavaScript/
// TypeScript, C#) whose string literals hold statements (server/core/embedded). `--embedded` and each file's
// `.cqlint.json` `embedded` say which languages are read; a folder walk leaves out what builds and package
// managers write (dist/, target/, vendor/, minified bundles). The host languages' parsers are loaded once, before
// the first file is set into a Project.
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import type { CqlintConfig, EmbeddedLanguageName } from '../core/vocabulary/config';
import { hostLanguageOf, loadHostLanguages, type HostLanguage } from '../core/embedded';
import { embeddedLanguageFor, isGeneratedSource, parseEmbeddedOption } from '../core/embedded/selection';
import { isCqlFile } from '../core/io/files';
import type { Project } from '../core/engine/project';
import { UsageError, collectCqlFiles, displayPath, type CliIO, type IgnoreCheck } from './io';
import type { CliOptions } from './options';

/** `--embedded`, for the commands that read a workspace (lint, fix, report). */
export const EMBEDDED_OPTION = {
  embedded: {
    type: 'string',
    value: 'languages',
    help: 'Read the CQL inside application code: all (default), none, or a comma-separated list of java, kotlin, python, go, javascript, typescript, csharp (default: .cqlint.json embedded, else all)',
  },
} satisfies CliOptions;

/** `--embedded` as given: undefined (each file's config decides) or the languages read. */
export function embeddedOption(value: string | undefined): readonly EmbeddedLanguageName[] | undefined {
  if (value === undefined) return undefined;
  const parsed = parseEmbeddedOption(value);
  if (typeof parsed === 'string') throw new UsageError(parsed);
  return parsed;
}

interface SourceSelection {
  /** `--embedded`, when given. */
  override?: readonly EmbeddedLanguageName[];
  /** The config that applies to a file (its .cqlint.json's `embedded`). */
  configFor(filePath: string): CqlintConfig | undefined;
}

/**
 * The CQL files and the files of application code the inputs name, in input order: collectCqlFiles's walk with
 * host files accepted too. A host file found in a folder is read when its language is on and it is not
 * generated; one named on the command line when its language is on (else a warning says why it is skipped).
 * The parsers of the languages found are loaded before this returns.
 */
export async function collectSourceFiles(
  inputs: readonly string[],
  io: CliIO,
  report: { fail(message: string): void },
  ignored: IgnoreCheck | undefined,
  selection: SourceSelection,
): Promise<string[]> {
  const anyLanguage = selection.override === undefined || selection.override.length > 0;
  const named = new Set<string>();
  const roots: string[] = [];
  for (const input of inputs) {
    const resolved = path.resolve(io.cwd, input);
    const stat = await fs.stat(resolved).catch(() => undefined);
    if (stat?.isDirectory()) roots.push(resolved);
    else named.add(resolved);
  }
  const found = await collectCqlFiles(
    inputs,
    io,
    report as Parameters<typeof collectCqlFiles>[2],
    ignored,
    anyLanguage ? (name) => isCqlFile(name) || hostLanguageOf(name) !== undefined : undefined,
  );
  const files: string[] = [];
  const languages = new Set<HostLanguage>();
  for (const file of found) {
    if (!hostLanguageOf(file)) {
      files.push(file);
      continue;
    }
    const language = embeddedLanguageFor(file, selection.configFor(file)?.embedded, selection.override);
    if (named.has(file)) {
      if (!language)
        io.stderr.write(
          `cqlint: warning: skipping ${displayPath(file, io.cwd)}: reading CQL from ${hostLanguageOf(file)} code is off (--embedded or .cqlint.json embedded)\n`,
        );
    } else if (language && roots.some((root) => isGeneratedSource(root, file))) continue;
    if (!language) continue;
    languages.add(language);
    files.push(file);
  }
  if (languages.size) await loadHostLanguages([...languages]);
  return files;
}

/** The host languages among `files` (for the lint workers, which load their parsers). */
export function hostLanguagesOf(files: readonly string[]): HostLanguage[] {
  const languages = new Set<HostLanguage>();
  for (const file of files) {
    const language = hostLanguageOf(file);
    if (language) languages.add(language);
  }
  return [...languages];
}

/**
 * After a file of application code is set into the project: one whose code holds no CQL is taken out again (it
 * is not reported: cqlint lints CQL, and most of a program's files have none), and what the reader could not
 * read is said on stderr. Returns whether the file stays.
 */
export function keepSourceFile(project: Project, filePath: string, io: CliIO): boolean {
  const doc = project.embedded(filePath);
  if (!doc) return true;
  for (const problem of doc.problems)
    io.stderr.write(`cqlint: warning: ${displayPath(filePath, io.cwd)}: ${problem.message}\n`);
  if (doc.statements.length) return true;
  project.removeFile(filePath);
  return false;
}
