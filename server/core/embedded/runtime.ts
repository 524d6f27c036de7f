// The tree-sitter runtime and the host languages' grammars, compiled to WebAssembly: loaded once per process (or
// worker thread), lazily, each grammar when a file of its language is first read. Loading is asynchronous (WASM
// compiles asynchronously); reading a file afterwards is synchronous.
//
// The .wasm files are found beside the bundle (`dist/tree-sitter/`, copied there by scripts/build.mjs, shipped in
// the .vsix and the npm package) or, when running from the TypeScript sources (tests, tsx), in node_modules.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { HostLanguage } from './types';

/** The grammar file of each host language (all but Kotlin come with @vscode/tree-sitter-wasm). */
export const GRAMMAR_FILES: Readonly<Record<HostLanguage, string>> = {
  java: 'tree-sitter-java.wasm',
  kotlin: 'tree-sitter-kotlin.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  csharp: 'tree-sitter-c-sharp.wasm',
};

/** The runtime's own files, copied beside the bundles with the grammars. */
export const RUNTIME_FILES = ['tree-sitter.wasm'] as const;

/** Where the bundles look for the .wasm files, relative to the bundle's folder (dist/). */
export const BUNDLED_FOLDER = 'tree-sitter';

/** The folder of a .wasm file: beside the bundle when there is one, else the package's in node_modules. */
function wasmPath(file: string): string {
  const bundled = join(__dirname, BUNDLED_FOLDER, file);
  if (existsSync(bundled)) return bundled;
  if (file === GRAMMAR_FILES.kotlin) return require.resolve(`@tree-sitter-grammars/tree-sitter-kotlin/${file}`);
  return join(dirname(require.resolve('@vscode/tree-sitter-wasm')), file);
}

let runtime: Promise<void> | undefined;
const loading = new Map<HostLanguage, Promise<Language>>();
const loaded = new Map<HostLanguage, Language>();
const parsers = new Map<HostLanguage, Parser>();

function loadRuntime(): Promise<void> {
  runtime ??= Parser.init({ locateFile: (file: string) => wasmPath(file) }).catch((error: unknown) => {
    runtime = undefined;
    throw new Error(`cqlint could not load the tree-sitter runtime (${wasmPath(RUNTIME_FILES[0])}): ${String(error)}`);
  });
  return runtime;
}

function loadLanguage(language: HostLanguage): Promise<Language> {
  let promise = loading.get(language);
  if (!promise) {
    promise = (async () => {
      await loadRuntime();
      const path = wasmPath(GRAMMAR_FILES[language]);
      try {
        const grammar = await Language.load(readFileSync(path));
        loaded.set(language, grammar);
        return grammar;
      } catch (error) {
        loading.delete(language);
        throw new Error(`cqlint could not load the ${language} grammar (${path}): ${String(error)}`);
      }
    })();
    loading.set(language, promise);
  }
  return promise;
}

/** Loads the runtime and the named grammars (all when none are named); idempotent, each loaded once. */
export async function loadHostLanguages(
  languages: readonly HostLanguage[] = Object.keys(GRAMMAR_FILES) as HostLanguage[],
): Promise<void> {
  await Promise.all(languages.map(loadLanguage));
}

/** True once the language's grammar is loaded (readEmbedded may then be called for it). */
export function isHostLanguageLoaded(language: HostLanguage): boolean {
  return loaded.has(language);
}

/** The parser of a loaded language (one per language, reused); throws when the grammar was not loaded. */
export function parserFor(language: HostLanguage): Parser {
  let parser = parsers.get(language);
  if (parser) return parser;
  const grammar = loaded.get(language);
  if (!grammar)
    throw new Error(
      `the ${language} grammar is not loaded: await loadHostLanguages(['${language}']) before readEmbedded`,
    );
  parser = new Parser();
  parser.setLanguage(grammar);
  parsers.set(language, parser);
  return parser;
}
