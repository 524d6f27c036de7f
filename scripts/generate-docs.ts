// Writes what rule metadata (server/core/rules/*: id, default severity, description, options, messages) already
// says, so that it is written by hand nowhere: the `rules` part of schemas/cqlint.schema.json, the
// header block of every docs/rules/<id>.md and the README's rule table. Likewise the README's command
// reference, from the CLI's own option declarations (server/cli/options.ts). Page bodies and the rest
// of the README and schema are kept as they are. And docs/lsp-extensions.md's reference, from the
// declarations of server/lsp/lsp-extensions.ts. And docs/guardrails.md's table, from the cluster
// catalogue (server/core/cluster/catalogue.ts). And the TextMate grammar, from the lexer's keyword lists
// (scripts/generate-textmate.ts).
// Run `npm run generate`; test/docs/generated.test.ts fails while any of it is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { allRules, type RuleMeta } from '../server/core/rules';
import type { RuleExamples } from '../server/core/rules/types';
import { docsUrl } from '../server/core/findings/findings';
import type { RuleOptionSpec } from '../server/core/vocabulary/config';
import { commands } from '../server/cli/main';
import { markdownReference } from '../server/cli/options';
import { CLUSTER_VERSIONS, GUARDRAILS, formatSetting, settingSpec, type SettingSpec } from '../server/core/cluster';
import { TEXTMATE_GRAMMAR_PATH, textMateGrammarSource } from './generate-textmate';

export const GENERATED_START = '<!-- generated from rule metadata: do not edit -->';
/** Starts the README's command reference. */
export const CLI_GENERATED_START = "<!-- generated from the CLI's option declarations: do not edit -->";
/** Starts docs/lsp-extensions.md's reference. */
export const LSP_GENERATED_START = '<!-- generated from server/lsp/lsp-extensions.ts: do not edit -->';
export const GUARDRAILS_GENERATED_START = '<!-- generated from server/core/cluster/catalogue.ts: do not edit -->';
export const GENERATED_END = '<!-- end generated -->';
export const LSP_EXTENSIONS_MODULE = 'server/lsp/lsp-extensions.ts';
export const GENERATE_COMMAND = 'npm run generate';

export interface GeneratedFile {
  /** Relative to the project root. */
  path: string;
  content: string;
}

const SEVERITY_LABEL: Record<RuleMeta['defaultSeverity'], string> = {
  error: 'error',
  warning: 'warning',
  info: 'information',
};

function optionType(spec: RuleOptionSpec): string {
  return spec.type === 'number' && spec.minimum !== undefined ? `number ≥ ${spec.minimum}` : spec.type;
}

function optionLines(meta: RuleMeta): string[] {
  const options = Object.entries(meta.options ?? {});
  if (!options.length) return ['**Options:** none.'];
  const example = options.map(([name, spec]) => `"${name}": ${JSON.stringify(spec.default ?? null)}`).join(', ');
  return [
    `**Options** (\`"rules": { "${meta.id}": ["warn", { ${example} }] }\` in \`.cqlint.json\`):`,
    '',
    ...options.map(
      ([name, spec]) =>
        `- \`${name}\` (${optionType(spec)}${spec.default === undefined ? '' : `, default \`${JSON.stringify(spec.default)}\``}): ${spec.description}`,
    ),
  ];
}

/** The rule's headlines by message id (RuleMeta.messages), as JSON's `messageId` and SARIF's `message.id` name them. */
function messageLines(meta: RuleMeta): string[] {
  return [
    '**Messages** (the headline of each finding; `messageId` in `--format json`, `message.id` in SARIF; `{{name}}` is filled in):',
    '',
    ...Object.entries(meta.messages).map(([id, template]) => `- \`${id}\`: ${template}`),
  ];
}

/** Where each rule's Finding.data is declared: the Data line of its page is read from there. */
export const FINDING_DATA_SOURCE = join(__dirname, '..', 'server/core/findings/findings-data.ts');

let dataLines: Map<string, string> | undefined;

/**
 * Each rule's `{ field, optional?, reason: 'a' | 'b' }` by rule id, from FindingDataByRule's types (read with
 * the type checker, so fields inherited from a shared interface count): the top-level fields, each union of
 * string literals spelled out.
 */
export function findingDataShapes(): Map<string, string> {
  if (dataLines) return dataLines;
  const program = ts.createProgram([FINDING_DATA_SOURCE], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  });
  const checker = program.getTypeChecker();
  const byRule = program
    .getSourceFile(FINDING_DATA_SOURCE)!
    .statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'FindingDataByRule',
    );
  if (!byRule) throw new Error(`${FINDING_DATA_SOURCE} no longer declares FindingDataByRule`);
  dataLines = new Map();
  for (const rule of checker.getPropertiesOfType(checker.getTypeAtLocation(byRule.name))) {
    const fields = checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(rule, byRule)).map((field) => {
      const name = `${field.name}${field.flags & ts.SymbolFlags.Optional ? '?' : ''}`;
      const type = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(field, byRule));
      const literals =
        type.isUnion() && type.types.every((t) => t.isStringLiteral())
          ? type.types.map((t) => `'${(t as ts.StringLiteralType).value}'`)
          : undefined;
      return literals ? `${name}: ${literals.join(' | ')}` : name;
    });
    dataLines.set(rule.name, `{ ${fields.join(', ')} }`);
  }
  return dataLines;
}

function dataLine(meta: RuleMeta): string[] {
  const shape = findingDataShapes().get(meta.id);
  return shape
    ? [
        '',
        `**Data** (\`data\` of each finding in \`--format json\`; declared in server/core/findings/findings-data.ts): \`${shape}\``,
      ]
    : [];
}

/**
 * What a fixable rule's fix does, from its examples (RuleExamples: the first invalid case with an `output`,
 * else with a `suggestion`): the case's code and the code after the fix.
 */
function fixLines(id: string): string[] {
  const { examples } = require(`../server/core/rules/${id}`) as { examples?: RuleExamples };
  const invalid = examples?.invalid ?? [];
  const c = invalid.find((x) => typeof x.output === 'string') ?? invalid.find((x) => x.suggestion);
  if (!c) return [];
  const after = typeof c.output === 'string' ? c.output : c.suggestion!.output;
  const how =
    typeof c.output === 'string'
      ? "applied by `cqlint lint --fix` and the editor's fix-all"
      : `a choice the editor offers, "${c.suggestion!.title}"`;
  return ['', `**Fix** (${how}):`, '', '```cql', c.code, '```', '', 'becomes', '', '```cql', after, '```'];
}

/** The generated block at the top of docs/rules/<id>.md. */
export function docsHeader(meta: RuleMeta): string {
  return [
    GENERATED_START,
    `# ${meta.id}`,
    '',
    meta.description,
    '',
    `**Default severity:** ${SEVERITY_LABEL[meta.defaultSeverity]} · turn it off or change its level with \`"rules": { "${meta.id}": "off" | "warn" | "error" }\`, or for one line with \`-- cqlint-disable-next-line ${meta.id}\`.`,
    '',
    ...optionLines(meta),
    '',
    ...messageLines(meta),
    ...dataLine(meta),
    ...fixLines(meta.id),
    GENERATED_END,
  ].join('\n');
}

/**
 * A docs page with its header block replaced (or, on a page without one, put in place of the hand-written
 * title and `**Default:** · **Options:**` line; what else that line said stays, as the body's first line).
 */
export function withDocsHeader(page: string, meta: RuleMeta): string {
  const header = docsHeader(meta);
  const start = page.indexOf(GENERATED_START);
  const end = page.indexOf(GENERATED_END);
  if (start >= 0 && end > start) return page.slice(0, start) + header + page.slice(end + GENERATED_END.length);
  const lines = page.split('\n');
  let i = 0;
  if (lines[i]?.trim() === `# ${meta.id}`) i++;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  const rest: string[] = [];
  if (lines[i]?.startsWith('**Default:**')) {
    const kept = lines[i]!.split(' · ').filter((part) => !/^\*\*(Default|Options):\*\*/.test(part.trim()));
    if (kept.length) rest.push(kept.join(' · '));
    i++;
  }
  const body = [...rest, ...lines.slice(i)].join('\n').replace(/^\n+/, '');
  return `${header}\n\n${body}`;
}

function optionSchema(spec: RuleOptionSpec): Record<string, unknown> {
  const out: Record<string, unknown> =
    spec.type === 'string[]' ? { type: 'array', items: { type: 'string' } } : { type: spec.type };
  if (spec.minimum !== undefined) out['minimum'] = spec.minimum;
  if (spec.default !== undefined) out['default'] = spec.default;
  out['description'] = spec.description;
  return out;
}

/** The `rules` property of schemas/cqlint.schema.json. */
export function rulesSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const { meta } of allRules) {
    const options = Object.entries(meta.options ?? {});
    const optionsObject = options.length
      ? {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(options.map(([name, spec]) => [name, optionSchema(spec)])),
        }
      : { type: 'object', additionalProperties: false, maxProperties: 0 };
    properties[meta.id] = {
      description: `${meta.description} Default: ${meta.defaultSeverity}. ${docsUrl(meta.id)}`,
      oneOf: [
        { $ref: '#/$defs/level' },
        {
          type: 'array',
          prefixItems: [{ $ref: '#/$defs/level' }, optionsObject],
          items: false,
          minItems: 1,
          maxItems: 2,
        },
      ],
    };
  }
  return {
    description: 'Rule levels by rule id: "off", "warn", "error", or [level, options].',
    type: 'object',
    additionalProperties: false,
    properties,
  };
}

/** The README's rule table (between the markers). */
export function readmeTable(): string {
  const escape = (text: string): string => text.replace(/\|/g, '\\|');
  return [
    GENERATED_START,
    '| rule | default | catches | options |',
    '| --- | --- | --- | --- |',
    ...allRules.map(({ meta }) => {
      const options = Object.keys(meta.options ?? {})
        .map((o) => `\`${o}\``)
        .join(', ');
      return `| [\`${meta.id}\`](docs/rules/${meta.id}.md) | ${SEVERITY_LABEL[meta.defaultSeverity]} | ${escape(meta.description)} | ${options} |`;
    }),
    GENERATED_END,
  ].join('\n');
}

/** The README's command reference (between its markers): every command's forms, options and exit status. */
export function readmeCommandReference(): string {
  return [CLI_GENERATED_START, markdownReference(Object.values(commands).map((c) => c.spec)), GENERATED_END].join('\n');
}

/** A declaration's doc comment, as text (its lines without the comment's markup). */
function docComment(node: ts.Node, source: ts.SourceFile): string {
  const ranges = ts.getLeadingCommentRanges(source.text, node.pos) ?? [];
  const last = ranges.filter((r) => source.text.startsWith('/**', r.pos)).at(-1);
  if (!last) return '';
  return source.text
    .slice(last.pos + 3, last.end - 2)
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trimEnd())
    .join('\n')
    .trim()
    .replace(/\n(?!\n)/g, ' ');
}

/**
 * docs/lsp-extensions.md's reference (between its markers), from the module's text: after the declarations
 * of the mechanism, each `// ---` section is a heading, each request or notification its method with its
 * doc comment and its params and result, each type its declaration as written, each command its name.
 */
export function lspExtensionsReference(moduleText: string): string {
  const source = ts.createSourceFile(LSP_EXTENSIONS_MODULE, moduleText, ts.ScriptTarget.Latest, true);
  const out: string[] = [LSP_GENERATED_START];
  let started = false;
  for (const statement of source.statements) {
    const comments = (ts.getLeadingCommentRanges(source.text, statement.pos) ?? []).map((r) =>
      source.text.slice(r.pos, r.end),
    );
    const rule = comments.findIndex((comment) => /^\/\/ -{20,}$/.test(comment));
    const heading = rule >= 0 ? /^\/\/ (.+)$/.exec(comments[rule + 1] ?? '')?.[1] : undefined;
    if (heading) {
      started = true;
      out.push('', `## ${heading}`);
    }
    if (
      !started ||
      !(
        ts.canHaveModifiers(statement) &&
        ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      )
    )
      continue;
    const doc = docComment(statement, source);
    if (ts.isVariableStatement(statement)) {
      const declaration = statement.declarationList.declarations[0]!;
      const init = declaration.initializer;
      if (
        init &&
        ts.isCallExpression(init) &&
        ts.isIdentifier(init.expression) &&
        ts.isStringLiteral(init.arguments[0]!)
      ) {
        const kind = init.expression.text;
        const [params, result] = (init.typeArguments ?? []).map((t) => t.getText(source));
        const direction = kind === 'request' ? 'client → server' : 'server → client';
        out.push(
          '',
          `### \`${(init.arguments[0] as ts.StringLiteral).text}\` (${kind}, ${direction})`,
          '',
          doc,
          '',
          `Params: \`${params}\`${result === undefined ? '' : `; result: \`${result}\``} (\`${declaration.name.getText(source)}\`).`,
        );
      } else if (init && ts.isStringLiteral(init)) {
        out.push('', `### \`${init.text}\` (client command)`, '', doc);
      }
    } else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      out.push('', '```ts', statement.getText(source).replace(/^export /, ''), '```');
    }
  }
  out.push(GENERATED_END);
  return out.join('\n');
}

/** docs/guardrails.md's table: every guardrail, its yaml names, its default per version, and what cqlint checks. */
export function guardrailsTable(): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  const rows = GUARDRAILS.map((g) => {
    const specs = g.keys.map((k) => settingSpec(k)).filter((s): s is SettingSpec => s !== undefined);
    const legacy = new Set(specs.flatMap((s) => (s.legacy ?? []).map((l) => l.key)));
    const names = g.keys
      .filter((k) => !legacy.has(k))
      .map((k) => {
        const old = settingSpec(k)?.legacy;
        return `\`${k}\`${old?.length ? ` (4.0: ${old.map((l) => `\`${l.key}\``).join(', ')})` : ''}`;
      })
      .join('<br>');
    const defaults = CLUSTER_VERSIONS.map((v) => {
      const values = specs
        .filter((s) => Object.hasOwn(s.defaults, v))
        .map((s) => formatSetting({ value: s.defaults[v] ?? undefined, type: s.type }));
      return values.length ? values.join(' / ') : '—';
    });
    const checked = g.checkedBy
      ? `[\`${g.checkedBy}\`](rules/${g.checkedBy}.md), from ${g.from}`
      : `needs the cluster: ${g.needsCluster}`;
    return `| \`${g.name}\` | ${names} | ${defaults.map(cell).join(' | ')} | ${g.when} | ${cell(checked)} |`;
  });
  return [
    GUARDRAILS_GENERATED_START,
    '| Guardrail | yaml names | 4.0 | 4.1 | 5.0 | ScyllaDB | Applied | cqlint |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    GENERATED_END,
  ].join('\n');
}

/** `text` with the block that starts with `startMarker` (up to the next GENERATED_END) replaced by `block`. */
function replaceMarked(text: string, block: string, file: string, startMarker = GENERATED_START): string {
  const start = text.indexOf(startMarker);
  const end = start < 0 ? -1 : text.indexOf(GENERATED_END, start);
  if (start < 0 || end < start) throw new Error(`${file}: no "${startMarker}" ... "${GENERATED_END}" block to fill`);
  return text.slice(0, start) + block + text.slice(end + GENERATED_END.length);
}

/** Every generated file's expected content, from the files on disk under `root`. */
export function generatedFiles(root: string): GeneratedFile[] {
  const out: GeneratedFile[] = [];
  const schemaPath = 'schemas/cqlint.schema.json';
  const schema = JSON.parse(readFileSync(join(root, schemaPath), 'utf8')) as { properties: Record<string, unknown> };
  schema.properties['rules'] = rulesSchema();
  out.push({ path: schemaPath, content: `${JSON.stringify(schema, null, 2)}\n` });
  for (const { meta } of allRules) {
    const path = `docs/rules/${meta.id}.md`;
    const full = join(root, path);
    const page = existsSync(full) ? readFileSync(full, 'utf8') : '';
    out.push({ path, content: withDocsHeader(page, meta) });
  }
  const readme = replaceMarked(readFileSync(join(root, 'README.md'), 'utf8'), readmeTable(), 'README.md');
  out.push({
    path: 'README.md',
    content: replaceMarked(readme, readmeCommandReference(), 'README.md', CLI_GENERATED_START),
  });
  const lspPage = 'docs/lsp-extensions.md';
  const reference = lspExtensionsReference(readFileSync(join(root, LSP_EXTENSIONS_MODULE), 'utf8'));
  out.push({
    path: lspPage,
    content: replaceMarked(readFileSync(join(root, lspPage), 'utf8'), reference, lspPage, LSP_GENERATED_START),
  });
  const guardrailsPage = 'docs/guardrails.md';
  out.push({
    path: guardrailsPage,
    content: replaceMarked(
      readFileSync(join(root, guardrailsPage), 'utf8'),
      guardrailsTable(),
      guardrailsPage,
      GUARDRAILS_GENERATED_START,
    ),
  });
  out.push({ path: TEXTMATE_GRAMMAR_PATH, content: textMateGrammarSource() });
  return out;
}

/** The generated files whose content on disk differs from what the metadata says. */
export function staleFiles(root: string): string[] {
  return generatedFiles(root)
    .filter((f) => !existsSync(join(root, f.path)) || readFileSync(join(root, f.path), 'utf8') !== f.content)
    .map((f) => f.path);
}

if (require.main === module) {
  const root = join(__dirname, '..');
  const changed: string[] = [];
  for (const file of generatedFiles(root)) {
    const full = join(root, file.path);
    if (existsSync(full) && readFileSync(full, 'utf8') === file.content) continue;
    writeFileSync(full, file.content);
    changed.push(file.path);
  }
  console.log(changed.length ? `updated ${changed.join(', ')}` : 'generated files are up to date');
}
