// What each `cqlint` command accepts, declared once: parseArgs reads its options from the declaration,
// `cqlint <command> --help` prints it, and `npm run generate` writes the README's command reference from
// it (a test keeps that reference equal), so a flag cannot exist in one place and be missing in another.

/** One option of a command. */
export interface CliOption {
  type: 'string' | 'boolean';
  short?: string;
  /** What the value stands for in the help (`<file>`), for string options. */
  value?: string;
  /** The option may be given several times (its values are a list). */
  multiple?: boolean;
  /** What it does: one or two sentences, plain text (wrapped where it is shown). */
  help: string;
}

export type CliOptions = Record<string, CliOption>;

/** `-h, --help`, which every command takes. */
export const HELP_OPTION = {
  help: { type: 'boolean', short: 'h', help: 'Show this help' },
} satisfies CliOptions;

/** A command's interface: everything its --help and the README say about it. */
export interface CommandSpec {
  name: string;
  /** One line for `cqlint --help`. */
  summary: string;
  /** The forms of the command line after `cqlint <name> `, e.g. `[options] <files or folders...>`. */
  usage: string[];
  /** What the command does: paragraphs (blank-line separated), plain text. */
  description: string;
  options: CliOptions;
  /** More to know (value syntax, stdin modes), after the options: paragraphs. */
  notes?: string;
  /** What each exit code means. */
  exitStatus: string;
}

/** What node:util parseArgs takes from the declaration (it refuses keys it does not know). */
export function parseArgsOptions(
  options: CliOptions,
): Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> {
  const out: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, option] of Object.entries(options)) {
    out[name] = {
      type: option.type,
      ...(option.short ? { short: option.short } : {}),
      ...(option.multiple ? { multiple: true } : {}),
    };
  }
  return out;
}

/** `-f, --format <name>` */
export function optionLabel(name: string, option: CliOption): string {
  const long = `--${name}${option.type === 'string' ? ` <${option.value ?? 'value'}>` : ''}`;
  return option.short ? `-${option.short}, ${long}` : `    ${long}`;
}

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const HELP_WIDTH = 100;

function paragraphs(text: string, width: number, indent = ''): string {
  return text
    .split(/\n\s*\n/)
    .map((p) =>
      wrapWords(p, width - indent.length)
        .map((l) => indent + l)
        .join('\n'),
    )
    .join('\n\n');
}

/** `cqlint <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  const usage = spec.usage.map((form, i) => `${i === 0 ? 'Usage: ' : '       '}cqlint ${spec.name} ${form}`).join('\n');
  const entries = Object.entries(spec.options).map(([name, option]) => ({
    label: `  ${optionLabel(name, option)}`,
    help: option.help,
  }));
  const column = Math.max(...entries.map((e) => e.label.length)) + 2;
  const options = entries
    .map((e) => {
      const lines = wrapWords(e.help, HELP_WIDTH - column);
      return [e.label.padEnd(column) + (lines[0] ?? ''), ...lines.slice(1).map((l) => ' '.repeat(column) + l)].join(
        '\n',
      );
    })
    .join('\n');
  const parts = [usage, paragraphs(spec.description, HELP_WIDTH), `Options:\n${options}`];
  if (spec.notes) parts.push(paragraphs(spec.notes, HELP_WIDTH));
  parts.push(paragraphs(`Exit status: ${spec.exitStatus}`, HELP_WIDTH));
  return `${parts.join('\n\n')}\n`;
}

/** The README's command reference: every command's forms, what it does, its options and exit status. */
export function markdownReference(specs: readonly CommandSpec[]): string {
  // Plain text in markdown: `*` would start emphasis and `<type>` an HTML tag.
  const cell = (text: string): string => text.replace(/[|*<]/g, (c) => `\\${c}`).replace(/\s*\n\s*/g, ' ');
  const out: string[] = [
    '```',
    ...specs.flatMap((spec) => spec.usage.map((form) => `cqlint ${spec.name} ${form}`)),
    '```',
  ];
  for (const spec of specs) {
    out.push(
      '',
      `#### \`cqlint ${spec.name}\``,
      '',
      ...spec.description.split(/\n\s*\n/).flatMap((p) => [cell(p), '']),
    );
    out.push('| option | |', '| --- | --- |');
    for (const [name, option] of Object.entries(spec.options))
      out.push(`| \`${optionLabel(name, option).trim()}\` | ${cell(option.help)} |`);
    if (spec.notes) out.push('', ...spec.notes.split(/\n\s*\n/).flatMap((p, i) => [...(i ? [''] : []), cell(p)]));
    out.push('', `Exit status: ${cell(spec.exitStatus)}`);
  }
  return out.join('\n');
}
