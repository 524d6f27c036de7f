// Parsing a CQL term or type on its own (a value or a type typed on a command line, a type name in a setting),
// with the statement grammar's own rules, so there is one CQL parser. Ranges are offsets into the given text.
import { EOF, type IRecognitionException, type IToken } from './chevrotain';
import type * as A from './ast';
import { lexCql } from './lexer';
import { getParser, type EntryRule } from './parser';
import { tokenRange, withSharedStrings } from './nodes';
import { buildSyntaxMessage, describeFound } from './errors';
import { TOO_DEEP_MESSAGE, TooDeep } from './syntax/base';

export interface FragmentResult<T> {
  /** The parsed value; undefined when the text has a syntax error (see `errors`). */
  value?: T;
  errors: A.CqlSyntaxError[];
}

function parseFragment<T>(text: string, startRule: EntryRule): FragmentResult<T> {
  const { tokens, comments } = lexCql(text);
  const parser = getParser();
  parser.input = tokens;
  let value: T | undefined;
  let exception: IRecognitionException | undefined;
  try {
    value = withSharedStrings(() => parser[startRule]()) as T;
    exception = parser.errors[0];
  } catch (e) {
    if (e instanceof TooDeep) return { errors: [{ message: TOO_DEEP_MESSAGE, range: tokenRange(e.token) }] };
    return {
      errors: [{ message: `internal error parsing ${JSON.stringify(text)}: ${String(e)}`, range: wholeRange(text) }],
    };
  }
  // A comment in a term or a type is almost surely a mistyped value: refuse it rather than drop text.
  if (!exception && value && comments.length)
    return {
      errors: [{ message: `unexpected comment ${describeFound(comments[0])}`, range: tokenRange(comments[0]) }],
    };
  if (!exception && value) return { value, errors: [] };
  const token = exception!.token;
  let index = !token || token.tokenType === EOF ? tokens.length : tokens.indexOf(token);
  if (index < 0) index = tokens.length;
  if (exception!.name === 'NotAllInputParsedException') {
    return {
      errors: [
        {
          message: `unexpected ${describeFound(token)} after the ${startRule === 'expression' ? 'value' : 'type'}`,
          range: tokenRange(token),
        },
      ],
    };
  }
  const info = buildSyntaxMessage(exception!, tokens, index, startRule);
  return { errors: [{ message: info.message, range: info.token ? tokenRange(info.token) : endRange(text, tokens) }] };
}

function wholeRange(text: string): A.SourceRange {
  return { start: 0, end: text.length };
}

function endRange(text: string, tokens: IToken[]): A.SourceRange {
  const last = tokens[tokens.length - 1];
  const end = last ? tokenRange(last).end : text.length;
  return { start: end, end };
}

/** Parses a CQL term (`'text'`, `-5`, `[1, 2]`, `{'k': 1}`, `(1, 'a')`, `now()`, `?`, `1 + 2`, ...): the whole text must be one. */
export function parseTerm(text: string): FragmentResult<A.Expression> {
  return parseFragment(text, 'expression');
}

/** Parses a CQL type (`int`, `frozen<list<text>>`, `map<text, int>`, `ks.address`, ...): the whole text must be one. */
export function parseCqlType(text: string): FragmentResult<A.CqlType> {
  return parseFragment(text, 'cqlType');
}

/** Parses a comma-separated list of CQL types (`date, frozen<map<text, int>>`), as a command line's `--types` gives them. */
export function parseCqlTypes(text: string): FragmentResult<A.CqlType[]> {
  return parseFragment(text, 'cqlTypes');
}
