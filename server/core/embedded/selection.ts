// Which files of application code are read for CQL: by extension (hostLanguageOf), the languages the settings
// leave on (`.cqlint.json` `embedded`, `--embedded`, `cqlint.embedded.languages`), and not what a build or a
// package manager wrote (dist/, target/, node_modules/, minified bundles): a walk of a project's folders meets
// those by the thousand, and the CQL in them is a copy of the sources'.
import * as path from 'node:path';
import { EMBEDDED_LANGUAGES, type EmbeddedLanguageName, type EmbeddedSetting } from '../vocabulary/config';
import { hostLanguageOf } from './index';
import type { HostLanguage } from './types';

/** The files a client watches for application code (every extension hostLanguageOf reads). */
export const HOST_FILES_GLOB = '**/*.{java,kt,kts,py,go,js,mjs,cjs,jsx,ts,mts,cts,tsx,cs}';

/** The settings' name of a host language (`.tsx` is TypeScript, `.jsx` JavaScript). */
export function languageName(language: HostLanguage): EmbeddedLanguageName {
  return language === 'tsx' ? 'typescript' : language;
}

/**
 * The host language a file is read as, or undefined: not application code, or its language is off. `override`
 * (the command line's `--embedded`, the editor's setting) wins over the config's `embedded`.
 */
export function embeddedLanguageFor(
  filePath: string,
  setting: EmbeddedSetting | undefined,
  override?: readonly EmbeddedLanguageName[],
): HostLanguage | undefined {
  const language = hostLanguageOf(filePath);
  if (!language) return undefined;
  const enabled = override ?? setting?.languages ?? EMBEDDED_LANGUAGES;
  return enabled.includes(languageName(language)) ? language : undefined;
}

/** Folders a walk does not read application code from: build outputs, dependencies, virtual environments, caches. */
const GENERATED_FOLDERS: ReadonlySet<string> = new Set([
  'dist',
  'build',
  'out',
  'target',
  'bin',
  'obj',
  'vendor',
  'bower_components',
  'jspm_packages',
  'venv',
  '.venv',
  '__pycache__',
  'site-packages',
  '.tox',
  '.nox',
  '.gradle',
  '.mvn',
  '.idea',
  '.vscode',
  '.vs',
  'coverage',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.cache',
]);

/** File names a walk does not read: minified or bundled scripts and TypeScript declarations. */
const GENERATED_FILE = /(?:[.-]min\.[cm]?js|\.bundle\.[cm]?js|\.d\.[cm]?ts)$/i;

/**
 * Whether a file of application code found by a folder walk below `root` is generated (see above): named on the
 * command line or opened in the editor, it is read all the same.
 */
export function isGeneratedSource(root: string, filePath: string): boolean {
  if (GENERATED_FILE.test(filePath)) return true;
  const relative = path.relative(root, path.dirname(filePath));
  if (!relative || relative.startsWith('..')) return false;
  return relative.split(path.sep).some((segment) => GENERATED_FOLDERS.has(segment));
}

/** Parses `--embedded`: `all`, `none`, or a comma-separated list of languages; a message for anything else. */
export function parseEmbeddedOption(value: string): readonly EmbeddedLanguageName[] | string {
  const text = value.trim().toLowerCase();
  if (text === 'all') return EMBEDDED_LANGUAGES;
  if (text === 'none') return [];
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(EMBEDDED_LANGUAGES as readonly string[]).includes(n));
  if (!names.length || unknown.length) {
    return `--embedded expects all, none or a comma-separated list of ${EMBEDDED_LANGUAGES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`;
  }
  return names as EmbeddedLanguageName[];
}
