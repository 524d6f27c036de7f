// `syntax-error`: what the parser could not read. Data: none.
import { headlineAndDetails } from '../findings';
import type { FileLocalRuleModule, RuleExamples } from './types';

export const rule: FileLocalRuleModule = {
  meta: {
    id: 'syntax-error',
    defaultSeverity: 'error',
    description: 'CQL that does not parse.',
    fileLocal: true,
  },
  check(ctx) {
    for (const error of ctx.parse.errors) ctx.report({ ...headlineAndDetails(error.message), range: error.range });
  },
};

export const examples: RuleExamples = {
  valid: ['CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);', 'SELECT * FROM ks.t WHERE id = ?;'],
  invalid: [
    { code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;', at: ';' },
    { code: 'SELEC * FROM t;', at: 'SELEC' },
  ],
};
