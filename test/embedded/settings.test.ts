// Which application code is read for CQL: the settings (.cqlint.json `embedded`, `defaultKeyspace`, `--embedded`,
// `cqlint.embedded.languages`), what a folder walk leaves out, and the CQL-only features a client registers for
// CQL documents alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseConfig } from '../../server/core/config';
import { EMBEDDED_LANGUAGES } from '../../server/core/vocabulary/config';
import { embeddedLanguageFor, isGeneratedSource, parseEmbeddedOption } from '../../server/core/embedded/selection';
import { parseSettings } from '../../server/lsp/settings';
import { deferCqlOnly } from '../../server/lsp/cql-only';

describe('.cqlint.json embedded and defaultKeyspace', () => {
  test('languages, false, and the default keyspace are read', () => {
    assert.deepEqual(parseConfig({ embedded: { languages: ['java', 'python'] }, defaultKeyspace: 'shop' }), {
      config: { embedded: { languages: ['java', 'python'] }, defaultKeyspace: 'shop' },
      errors: [],
    });
    assert.deepEqual(parseConfig({ embedded: false }).config?.embedded, { languages: [] });
  });

  test('a wrong value names its key', () => {
    const keys = (json: unknown): (string | undefined)[] => parseConfig(json).errors.map((e) => e.key);
    assert.deepEqual(keys({ embedded: { languages: ['java', 'cobol'] } }), ['embedded.languages[1]']);
    assert.deepEqual(keys({ embedded: { langs: [] } }), ['embedded.langs']);
    assert.deepEqual(keys({ embedded: 'java' }), ['embedded']);
    assert.deepEqual(keys({ defaultKeyspace: '' }), ['defaultKeyspace']);
    assert.deepEqual(keys({ defaultKeyspace: 3 }), ['defaultKeyspace']);
    // The valid rest still applies.
    assert.deepEqual(parseConfig({ embedded: { languages: ['go', 'cobol'] } }).config?.embedded, { languages: ['go'] });
  });
});

describe('which files are read', () => {
  test('by extension, the languages on, and the command line over the config', () => {
    assert.equal(embeddedLanguageFor('/p/OrderDao.java', undefined), 'java');
    assert.equal(embeddedLanguageFor('/p/view.tsx', { languages: ['typescript'] }), 'tsx');
    assert.equal(embeddedLanguageFor('/p/view.tsx', { languages: ['javascript'] }), undefined);
    assert.equal(embeddedLanguageFor('/p/repo.py', { languages: [] }), undefined);
    assert.equal(embeddedLanguageFor('/p/repo.py', { languages: [] }, ['python']), 'python');
    assert.equal(embeddedLanguageFor('/p/repo.py', undefined, []), undefined);
    assert.equal(embeddedLanguageFor('/p/schema.cql', undefined), undefined);
  });

  test('a walk leaves out what builds and package managers write', () => {
    const root = path.join(path.sep, 'repo');
    const at = (...parts: string[]): string => path.join(root, ...parts);
    assert.equal(isGeneratedSource(root, at('src', 'main', 'java', 'Dao.java')), false);
    assert.equal(isGeneratedSource(root, at('target', 'classes', 'Dao.java')), true);
    assert.equal(isGeneratedSource(root, at('web', 'dist', 'app.js')), true);
    assert.equal(isGeneratedSource(root, at('.venv', 'lib', 'x.py')), true);
    assert.equal(isGeneratedSource(root, at('static', 'app.min.js')), true);
    assert.equal(isGeneratedSource(root, at('types', 'index.d.ts')), true);
    // Only below the walked folder: a project that lives in a folder named build is read.
    assert.equal(isGeneratedSource(at('build'), at('build', 'Dao.java')), false);
  });

  test('--embedded: all, none, a list; anything else is a usage message', () => {
    assert.deepEqual(parseEmbeddedOption('all'), EMBEDDED_LANGUAGES);
    assert.deepEqual(parseEmbeddedOption('NONE'), []);
    assert.deepEqual(parseEmbeddedOption('java, python'), ['java', 'python']);
    assert.match(String(parseEmbeddedOption('java,cobol')), /unknown: cobol/);
    assert.equal(typeof parseEmbeddedOption(''), 'string');
  });

  test('cqlint.embedded.languages', () => {
    assert.deepEqual(parseSettings({ embedded: { languages: ['go'] } }).embedded, { languages: ['go'] });
    assert.deepEqual(parseSettings({ 'embedded.languages': [] }).embedded, { languages: [] });
    const problems: string[] = [];
    assert.deepEqual(parseSettings({ embedded: { languages: ['go', 'perl'] } }, problems).embedded, {});
    assert.equal(problems.length, 1);
  });
});

describe('the CQL-only features', () => {
  const capabilities = () => ({
    hoverProvider: true,
    completionProvider: { triggerCharacters: ['.'] },
    documentFormattingProvider: true,
    semanticTokensProvider: { legend: { tokenTypes: [], tokenModifiers: [] }, full: true },
    renameProvider: { prepareProvider: true },
  });

  test('a client that registers dynamically gets them for CQL documents only, and not in the static answer', () => {
    const statics: Record<string, unknown> = capabilities();
    const registrations = deferCqlOnly(statics, {
      textDocument: {
        completion: { dynamicRegistration: true },
        formatting: { dynamicRegistration: true },
        semanticTokens: { dynamicRegistration: true, requests: {}, tokenTypes: [], tokenModifiers: [], formats: [] },
        rename: { dynamicRegistration: true },
      },
    });
    assert.deepEqual(Object.keys(statics), ['hoverProvider']);
    assert.deepEqual(registrations.map((r) => r.method).sort(), [
      'textDocument/completion',
      'textDocument/formatting',
      'textDocument/rename',
      'textDocument/semanticTokens',
    ]);
    for (const r of registrations)
      assert.deepEqual((r.registerOptions as { documentSelector: unknown }).documentSelector, [
        { language: 'cql' },
        { pattern: '**/*.{cql,cqlsh}' },
      ]);
    const completion = registrations.find((r) => r.method === 'textDocument/completion')!;
    assert.deepEqual((completion.registerOptions as { triggerCharacters: string[] }).triggerCharacters, ['.']);
  });

  test('a client that does not keeps them static (its handlers answer nothing in application code)', () => {
    const statics: Record<string, unknown> = capabilities();
    assert.deepEqual(deferCqlOnly(statics, { textDocument: { formatting: { dynamicRegistration: false } } }), []);
    assert.deepEqual(statics, capabilities());
  });
});
