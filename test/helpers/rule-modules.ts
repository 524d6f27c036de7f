// The rule modules with their examples tables, read from the rule files themselves: the registry
// (server/core/rules/index.ts) references only each module's `rule`, so bundling leaves the tables out of
// the shipped code.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleExamples, RuleModule } from '../../server/core/rules/types';
import { projectRoot } from './corpus';

export interface RuleFile {
  rule?: RuleModule;
  examples?: RuleExamples;
}

/** Every module of server/core/rules, in file name order. */
export const ruleFiles: RuleFile[] = readdirSync(join(projectRoot, 'server', 'core', 'rules'))
  .filter((name) => name.endsWith('.ts'))
  .sort()
  .map((name) => require(join(projectRoot, 'server', 'core', 'rules', name)) as RuleFile);

/** Each rule's table of valid/invalid cases, by rule id. */
export const ruleExamples: Record<string, RuleExamples> = Object.fromEntries(
  ruleFiles.flatMap((m) => (m.rule && m.examples ? [[m.rule.meta.id, m.examples] as const] : [])),
);
