// Lines from text chunks of any size (LF, CRLF or CR), each with its 1-based number. A line is a record of
// the bounded-input policy (io/input-limits.ts): one over RECORD_LIMITS is reported once and skipped up to
// its end without being kept, so memory stays that of one line whatever the file holds (a file without
// line breaks included).
import { RecordGuard, RECORD_LIMITS, type RecordLimits } from '../io/input-limits';

export class LineSplitter {
  private partial = '';
  private line = 1;
  private tooLong = false;
  private pendingCr = false;
  private readonly guard: RecordGuard;

  constructor(
    private readonly onLine: (text: string, line: number) => void,
    private readonly onTooLong: (line: number, reason: string) => void,
    limits: Readonly<RecordLimits> = RECORD_LIMITS,
  ) {
    this.guard = new RecordGuard(limits);
  }

  push(chunk: string): void {
    let start = 0;
    const n = chunk.length;
    if (this.pendingCr && n) {
      this.pendingCr = false;
      if (chunk.charCodeAt(0) === 10) start = 1;
    }
    for (let i = start; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.take(chunk, start, i);
      this.finish();
      if (c === 13) {
        if (i + 1 < n) {
          if (chunk.charCodeAt(i + 1) === 10) i++;
        } else this.pendingCr = true;
      }
      start = i + 1;
    }
    if (start < n) this.take(chunk, start, n);
  }

  /** The last line, when the text does not end with a line break. */
  end(): void {
    if (this.partial || this.tooLong) this.finish();
  }

  private take(chunk: string, from: number, to: number): void {
    if (this.tooLong || to <= from) return;
    const over = this.guard.take(to - from);
    if (over) {
      this.tooLong = true;
      this.partial = '';
      this.onTooLong(this.line, over);
      return;
    }
    this.partial += chunk.slice(from, to);
  }

  private finish(): void {
    if (!this.tooLong) this.onLine(this.partial, this.line);
    this.partial = '';
    this.tooLong = false;
    this.guard.reset();
    this.line++;
  }
}
