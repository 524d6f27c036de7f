// The `cqlint.*` settings as the server sees them: read from workspace/configuration when the client
// supports it (per document and per workspace folder, as they are declared with `scope: resource`),
// else from initializationOptions / didChangeConfiguration, else these defaults.
// Anything malformed falls back to the default for that key (and is reported once in the log),
// so a typo in a user's settings.json never stops the server.

import { TARGET_IDS } from '../core/vocabulary/config';
import { type TargetId } from '../core/partition/targets';
import {
  EMBEDDED_LANGUAGES,
  type ClusterVersion,
  type EmbeddedLanguageName,
  type RuleLevel,
} from '../core/vocabulary/config';
import { CLUSTER_VERSIONS } from '../core/cluster/catalogue';
import type { KeywordCase } from '../core/format/formatter';

export type { TargetId, RuleLevel };
type TraceLevel = 'off' | 'messages' | 'verbose';

const TARGETS = TARGET_IDS;

export interface CqlintSettings {
  /**
   * `cqlint.target` when set, else `cassandra`. A file's .cqlint.json `target` applies when the setting
   * is unset, so for one file's effective target ask `project.targetFor(filePath)`.
   */
  target: TargetId;
  /** `cqlint.target` exactly as set; undefined when unset, null, "" or "auto" (then .cqlint.json decides). */
  targetOverride?: TargetId;
  /** `cqlint.rules`: rule id -> level, overriding `.cqlint.json` and the rules' defaults. */
  rules: Record<string, RuleLevel>;
  /**
   * `cqlint.shardCount`: N in `shard = hash(...) % N + 1` for the partition fixes when the workload needs
   * fewer; undefined (the default): sized from the workload alone.
   */
  shardCount?: number;
  inlayHints: {
    /** `cqlint.inlayHints.tokens`: show Murmur3 tokens next to partition-key literals. */
    tokens: boolean;
    /** `cqlint.inlayHints.shards`: show computed shard values. */
    shards: boolean;
  };
  /** `cqlint.ringFile`: a file describing the token ring (nodes and their tokens), if any. */
  ringFile?: string;
  /** `cqlint.evidence`: evidence files or folders for every table (docs/evidence.md), as written. */
  evidence: string[];
  /** `cqlint.cluster`: the cluster's version and yaml (docs/guardrails.md), the yaml as written. */
  cluster?: { version?: ClusterVersion; config?: string };
  format: {
    /** `cqlint.format.keywordCase`: how the formatter writes keywords. */
    keywordCase: KeywordCase;
  };
  embedded: {
    /**
     * `cqlint.embedded.languages`: the application languages whose string literals are read for CQL; undefined
     * (the default): the `.cqlint.json` `embedded` setting, else all of them.
     */
    languages?: readonly EmbeddedLanguageName[];
  };
  trace: { server: TraceLevel };
}

export const KEYWORD_CASES: readonly KeywordCase[] = ['upper', 'lower', 'preserve'];

export const DEFAULT_SETTINGS: CqlintSettings = Object.freeze({
  target: 'cassandra',
  targetOverride: undefined,
  rules: {},
  shardCount: undefined,
  inlayHints: { tokens: true, shards: true },
  ringFile: undefined,
  evidence: [],
  format: { keywordCase: 'upper' },
  embedded: {},
  trace: { server: 'off' },
}) as CqlintSettings;

const MAX_SHARD_COUNT = 1_000_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns whatever the client sent for the `cqlint` section into settings. Accepts both the nested
 * form (`{ inlayHints: { tokens: true } }`) and VS Code's flat dotted keys (`{ 'inlayHints.tokens': true }`).
 * `problems` receives one line per ignored value.
 */
export function parseSettings(raw: unknown, problems: string[] = []): CqlintSettings {
  const source = isRecord(raw) ? raw : {};
  const get = (path: string): unknown => {
    if (path in source) return source[path];
    let value: unknown = source;
    for (const part of path.split('.')) {
      if (!isRecord(value)) return undefined;
      value = value[part];
    }
    return value;
  };
  const settings: CqlintSettings = {
    target: DEFAULT_SETTINGS.target,
    targetOverride: undefined,
    rules: {},
    shardCount: DEFAULT_SETTINGS.shardCount,
    inlayHints: { ...DEFAULT_SETTINGS.inlayHints },
    ringFile: undefined,
    evidence: [],
    format: { ...DEFAULT_SETTINGS.format },
    embedded: {},
    trace: { ...DEFAULT_SETTINGS.trace },
  };

  const target = get('target');
  if (target !== undefined && target !== null && target !== '' && target !== 'auto') {
    if (typeof target === 'string' && (TARGETS as readonly string[]).includes(target.toLowerCase())) {
      settings.target = settings.targetOverride = target.toLowerCase() as TargetId;
    } else {
      problems.push(
        `cqlint.target: ${JSON.stringify(target)} is not one of ${TARGETS.join(', ')}; using .cqlint.json's target, else cassandra`,
      );
    }
  }

  const rules = get('rules');
  if (rules !== undefined && rules !== null) {
    if (isRecord(rules)) {
      for (const [id, level] of Object.entries(rules)) {
        const normalised = normaliseLevel(level);
        if (normalised) settings.rules[id] = normalised;
        else problems.push(`cqlint.rules.${id}: ${JSON.stringify(level)} is not one of off, warn, error; ignored`);
      }
    } else {
      problems.push('cqlint.rules: expected an object of rule id -> "off" | "warn" | "error"; ignored');
    }
  }

  const shardCount = get('shardCount');
  if (shardCount !== undefined && shardCount !== null) {
    if (
      typeof shardCount === 'number' &&
      Number.isInteger(shardCount) &&
      shardCount >= 1 &&
      shardCount <= MAX_SHARD_COUNT
    ) {
      settings.shardCount = shardCount;
    } else {
      problems.push(
        `cqlint.shardCount: ${JSON.stringify(shardCount)} is not an integer from 1 to ${MAX_SHARD_COUNT}; ${settings.shardCount === undefined ? 'sizing shards from the workload' : `using ${settings.shardCount}`}`,
      );
    }
  }

  for (const key of ['tokens', 'shards'] as const) {
    const value = get(`inlayHints.${key}`);
    if (value === undefined || value === null) continue;
    if (typeof value === 'boolean') settings.inlayHints[key] = value;
    else problems.push(`cqlint.inlayHints.${key}: expected true or false; using ${settings.inlayHints[key]}`);
  }

  const ringFile = get('ringFile');
  if (typeof ringFile === 'string' && ringFile.trim() !== '') settings.ringFile = ringFile;
  else if (ringFile !== undefined && ringFile !== null && ringFile !== '')
    problems.push('cqlint.ringFile: expected a file path; ignored');

  const evidence = get('evidence');
  if (Array.isArray(evidence) && evidence.every((e) => typeof e === 'string'))
    settings.evidence = evidence.map((e) => e.trim()).filter(Boolean);
  else if (typeof evidence === 'string' && evidence.trim()) settings.evidence = [evidence.trim()];
  else if (evidence !== undefined && evidence !== null)
    problems.push('cqlint.evidence: expected a list of files or folders; ignored');

  const cluster = get('cluster');
  if (cluster !== undefined && cluster !== null) {
    const record =
      typeof cluster === 'object' && !Array.isArray(cluster) ? (cluster as Record<string, unknown>) : undefined;
    const version = record?.version;
    const config = record?.config;
    const okVersion =
      version === undefined ||
      version === null ||
      version === '' ||
      (typeof version === 'string' && (CLUSTER_VERSIONS as readonly string[]).includes(version));
    const okConfig = config === undefined || config === null || typeof config === 'string';
    if (!record || !okVersion || !okConfig)
      problems.push(
        `cqlint.cluster: expected { "version": ${CLUSTER_VERSIONS.map((v) => `"${v}"`).join(' | ')}, "config": "path/to/cassandra.yaml" }; ignored`,
      );
    else {
      const out: { version?: ClusterVersion; config?: string } = {};
      if (typeof version === 'string' && version) out.version = version as ClusterVersion;
      if (typeof config === 'string' && config.trim()) out.config = config.trim();
      if (out.version || out.config) settings.cluster = out;
    }
  }

  const keywordCase = get('format.keywordCase');
  if (typeof keywordCase === 'string' && (KEYWORD_CASES as readonly string[]).includes(keywordCase))
    settings.format.keywordCase = keywordCase as KeywordCase;
  else if (keywordCase !== undefined && keywordCase !== null)
    problems.push(
      `cqlint.format.keywordCase: ${JSON.stringify(keywordCase)} is not one of ${KEYWORD_CASES.join(', ')}; using ${settings.format.keywordCase}`,
    );

  const embedded = get('embedded.languages');
  if (Array.isArray(embedded) && embedded.every((l) => (EMBEDDED_LANGUAGES as readonly unknown[]).includes(l)))
    settings.embedded.languages = embedded as EmbeddedLanguageName[];
  else if (embedded !== undefined && embedded !== null)
    problems.push(
      `cqlint.embedded.languages: expected a list of ${EMBEDDED_LANGUAGES.join(', ')}; using .cqlint.json's embedded, else all`,
    );

  const trace = get('trace.server');
  if (trace === 'off' || trace === 'messages' || trace === 'verbose') settings.trace.server = trace;

  return settings;
}

/** ESLint-style levels: also accepts 0/1/2 and 'warning'. */
function normaliseLevel(level: unknown): RuleLevel | undefined {
  if (level === 0 || level === 'off') return 'off';
  if (level === 1 || level === 'warn' || level === 'warning') return 'warn';
  if (level === 2 || level === 'error') return 'error';
  return undefined;
}

/**
 * Settings per scope (a document's or a workspace folder's URI), asked for with that URI as scopeUri
 * and kept until the configuration changes, as Microsoft's lsp-sample keeps its document settings.
 * A scope whose request fails gets `fallback()` (the window-wide settings) and is asked again later.
 */
export class ScopedSettings {
  private readonly pending = new Map<string, Promise<CqlintSettings>>();
  private readonly resolved = new Map<string, CqlintSettings>();
  /** Problems already logged since the last clear(): every scope would repeat the same typo. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly fetch: (scopeUri: string) => Promise<unknown>,
    private readonly fallback: () => CqlintSettings,
    private readonly onProblem: (problem: string) => void,
  ) {}

  /** The settings of a scope, fetched once per configuration. */
  get(scopeUri: string): Promise<CqlintSettings> {
    let settings = this.pending.get(scopeUri);
    if (!settings) {
      settings = this.fetch(scopeUri).then(
        (raw) => {
          const problems: string[] = [];
          const parsed = parseSettings(raw, problems);
          for (const problem of problems) {
            if (this.reported.has(problem)) continue;
            this.reported.add(problem);
            this.onProblem(problem);
          }
          if (this.pending.get(scopeUri) === settings) this.resolved.set(scopeUri, parsed);
          return parsed;
        },
        () => {
          if (this.pending.get(scopeUri) === settings) this.pending.delete(scopeUri);
          return this.fallback();
        },
      );
      this.pending.set(scopeUri, settings);
    }
    return settings;
  }

  /** The settings of a scope if they have arrived. */
  peek(scopeUri: string): CqlintSettings | undefined {
    return this.resolved.get(scopeUri);
  }

  /** Forgets one scope (a closed document). */
  delete(scopeUri: string): void {
    this.pending.delete(scopeUri);
    this.resolved.delete(scopeUri);
  }

  /** Forgets every scope (the configuration changed). */
  clear(): void {
    this.pending.clear();
    this.resolved.clear();
    this.reported.clear();
  }
}
