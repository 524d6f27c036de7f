// `syntax-error`: what the parser could not read. Data: none.
import { composedMessage } from './messages';
import type { FileLocalRuleModule, MessageIdOf, RuleExamples } from './types';

export const rule: FileLocalRuleModule<'parseError'> = {
  meta: {
    id: 'syntax-error',
    defaultSeverity: 'error',
    description: 'CQL that does not parse.',
    messages: {
      // The parser words its errors (grammar/errors.ts: what it expected, what it found); the headline is its sentence.
      parseError: '{{problem}}',
    },
    fileLocal: true,
  },
  check(ctx) {
    for (const error of ctx.parse.errors)
      ctx.report({ messageId: 'parseError', ...composedMessage(error.message), range: error.range });
  },
};

export const examples: RuleExamples<MessageIdOf<typeof rule>> = {
  valid: ['CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);', 'SELECT * FROM ks.t WHERE id = ?;'],
  invalid: [
    { code: 'CREATE TABLE ks.t (id uuid PRIMARY KEY, v text;', at: ';' },
    { code: 'SELEC * FROM t;', at: 'SELEC' },
  ],
};
