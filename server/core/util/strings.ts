// Strings kept past the text they were cut from.

/**
 * A copy of a string that is no view of a larger one (V8 makes a substring of 13 characters or more a view of
 * the string it was cut from, and keeps all of that alive while the substring lives), code unit for code unit
 * (a lone surrogate too), exactly sized: for strings kept long (pools, evidence). The grammar's trees use
 * grammar/nodes.ts ownString, cheaper and a character larger, as grammar/ uses no Node API.
 */
export function flatCopy(value: string): string {
  if (value.length < 13) return value;
  const encoding = ONE_BYTE.test(value) ? 'latin1' : 'utf16le';
  return Buffer.from(value, encoding).toString(encoding);
}

const ONE_BYTE = /^[\u0000-\u00ff]*$/;
