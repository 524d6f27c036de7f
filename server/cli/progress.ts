// Progress of a long run on stderr, when stderr is a terminal: one line, redrawn in place
// (`cqlint: linting 1,234/7,720 files`), shown only once the run has taken a moment, and erased before
// anything else is written to the terminal and at the end. Never in a pipe or a CI log.
import type { CliIO, CliStream } from './io';

/** How long a run goes before its progress shows, and the least time between two redraws. */
const SHOW_AFTER_MS = 500;
const REDRAW_MS = 100;
const ERASE_LINE = '\r\u001b[K';

export interface Progress {
  /** `done` of `total` in a phase ("reading", "linting"). */
  update(phase: string, done: number, total: number): void;
  /** Erases the line (call before the run ends). */
  end(): void;
  /**
   * `stream` wrapped so that what it writes erases the progress line first (stdout and stderr are often
   * the same terminal).
   */
  around(stream: CliStream): CliStream;
}

const NO_PROGRESS: Progress = { update: () => undefined, end: () => undefined, around: (stream) => stream };

/** A progress line on io.stderr when it is a terminal (and CI is not set), else nothing. */
export function progress(io: CliIO, now: () => number = () => performance.now()): Progress {
  if (io.stderr.isTTY !== true || io.env.CI) return NO_PROGRESS;
  // The line's own control sequences, past the escaping of everything else written to stderr.
  const draw = (text: string): unknown =>
    io.stderr.writeControl ? io.stderr.writeControl(text) : io.stderr.write(text);
  const started = now();
  let lastDrawn = Number.NEGATIVE_INFINITY;
  let shown = false;
  const erase = (): void => {
    if (shown) draw(ERASE_LINE);
    shown = false;
  };
  return {
    update(phase, done, total) {
      const at = now();
      if (at - started < SHOW_AFTER_MS || at - lastDrawn < REDRAW_MS) return;
      lastDrawn = at;
      shown = true;
      draw(`${ERASE_LINE}cqlint: ${phase} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} files`);
    },
    end: erase,
    around(stream) {
      return {
        write: (text: string) => {
          erase();
          return stream.write(text);
        },
        ...(stream.writeControl ? { writeControl: (text: string) => stream.writeControl!(text) } : {}),
        get isTTY() {
          return stream.isTTY;
        },
        get columns() {
          return stream.columns;
        },
      };
    },
  };
}

/**
 * Runs a command's work with a progress line: `work` gets an io whose stdout and stderr erase the line
 * before they write; the line is erased when the work ends, however it ends.
 */
export async function withProgress<T>(io: CliIO, work: (io: CliIO, bar: Progress) => Promise<T>): Promise<T> {
  const bar = progress(io);
  try {
    return await work({ ...io, stdout: bar.around(io.stdout), stderr: bar.around(io.stderr) }, bar);
  } finally {
    bar.end();
  }
}
