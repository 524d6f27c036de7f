// A streaming reader for the CSV that cqlsh `COPY ... TO` writes: comma-separated, fields with commas,
// quotes or line breaks in double quotes, a quote inside a quoted field doubled ("") or escaped (\" with
// cqlsh's default ESCAPE), CRLF or LF line ends. Text is pushed in chunks of any size; each record is
// handed over with the line it starts on, so memory stays that of one record whatever the file's size:
// a record over the caps of the bounded-input policy (io/input-limits.ts RECORD_LIMITS: characters of the
// record, every one counted, fields, characters of a field) is reported by line and skipped to its end.
// An unquoted empty field is cqlsh's null; a quoted empty field ("") is an empty string.
import { RecordGuard, RECORD_LIMITS, type RecordLimits } from './input-limits';

export interface CsvField {
  text: string;
  /** Written in quotes (so an empty field is an empty string, not null). */
  quoted: boolean;
}

interface CsvProblem {
  line: number;
  reason: string;
}

const QUOTE = 34; // "
const COMMA = 44;
const CR = 13;
const LF = 10;
const BACKSLASH = 92;

export class CsvReader {
  private fields: CsvField[] = [];
  private field = '';
  private quoted = false;
  /** 0 outside quotes, 1 inside, 2 just after a quote inside quotes (closing or doubled). */
  private state: 0 | 1 | 2 = 0;
  /** After a closing quote: text before the delimiter makes the record malformed. */
  private afterQuote = false;
  private bad?: string;
  private line = 1;
  private recordLine = 1;
  /** A record over a cap: everything up to the next line end is dropped (its problem is reported). */
  private skipping = false;
  private readonly guard: RecordGuard;
  private pendingCr = false;
  private fieldStarted = false;
  /** A backslash ended the last chunk inside quotes: the next character decides what it was. */
  private pendingBackslash = false;

  constructor(
    private readonly onRecord: (fields: CsvField[], line: number) => void,
    private readonly onProblem: (problem: CsvProblem) => void,
    limits: Readonly<RecordLimits> = RECORD_LIMITS,
  ) {
    this.guard = new RecordGuard(limits);
  }

  push(chunk: string): void {
    if (this.pendingBackslash && chunk.length && !this.skipping) {
      this.pendingBackslash = false;
      if (chunk.charCodeAt(0) === QUOTE) {
        this.field += '"';
        chunk = chunk.slice(1);
      } else this.field += '\\';
    }
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      const c = chunk.charCodeAt(i);
      if (this.pendingCr) {
        this.pendingCr = false;
        if (c === LF) {
          i++;
          continue;
        }
      }
      if (this.skipping) {
        // Nothing of the record is kept: on to the line end, which ends it.
        let j = i;
        while (j < n && chunk.charCodeAt(j) !== LF && chunk.charCodeAt(j) !== CR) j++;
        if (j === n) break;
        this.skipping = false;
        this.resetRecord();
        this.line++;
        if (chunk.charCodeAt(j) === CR) this.pendingCr = true;
        i = j + 1;
        continue;
      }
      if (this.state === 0) {
        // Fast path: copy a run of plain characters at once.
        let j = i;
        while (j < n) {
          const d = chunk.charCodeAt(j);
          if (d === COMMA || d === LF || d === CR || d === QUOTE) break;
          j++;
        }
        if (j > i) {
          if (this.afterQuote) this.bad ??= `text after the closing quote of field ${this.fields.length + 1}`;
          else this.field += chunk.slice(i, j);
          this.fieldStarted = true;
          const over = this.guard.take(j - i) ?? this.guard.field(this.field.length);
          i = j;
          if (over) this.skip(over);
          continue;
        }
        if (c === COMMA) {
          const over = this.guard.take(1) ?? this.guard.endField();
          if (over) {
            this.skip(over);
            i++;
            continue;
          }
          this.endField();
        } else if (c === LF || c === CR) {
          this.endRecord();
          this.line++;
          if (c === CR) this.pendingCr = true;
        } else {
          // A quote: opens a quoted field at its start, else it is malformed.
          const over = this.guard.take(1);
          if (over) {
            this.skip(over);
            i++;
            continue;
          }
          if (this.fieldStarted || this.afterQuote)
            this.bad ??= `a quote inside unquoted field ${this.fields.length + 1}`;
          else {
            this.state = 1;
            this.quoted = true;
            this.fieldStarted = true;
          }
        }
        i++;
        continue;
      }
      if (this.state === 1) {
        let j = i;
        while (j < n) {
          const d = chunk.charCodeAt(j);
          if (d === QUOTE || d === BACKSLASH || d === LF) break;
          j++;
        }
        if (j > i) {
          this.field += chunk.slice(i, j);
          const over = this.guard.take(j - i) ?? this.guard.field(this.field.length);
          i = j;
          if (over) this.skip(over);
          continue;
        }
        const over = this.guard.take(1);
        if (over) {
          this.skip(over);
          i++;
          continue;
        }
        if (c === QUOTE) this.state = 2;
        else if (c === BACKSLASH) {
          // \" is cqlsh's escaped quote (ESCAPE='\'); any other backslash is text.
          if (i + 1 < n) {
            if (chunk.charCodeAt(i + 1) === QUOTE) {
              this.field += '"';
              i += 2;
              continue;
            }
            this.field += '\\';
          } else {
            this.pendingBackslash = true;
          }
        } else {
          this.field += '\n';
          this.line++;
        }
        i++;
        continue;
      }
      // state 2: after a quote inside quotes
      if (c === QUOTE) {
        const over = this.guard.take(1);
        if (over) {
          this.skip(over);
          i++;
          continue;
        }
        this.field += '"';
        this.state = 1;
        i++;
        continue;
      }
      this.state = 0;
      this.afterQuote = true;
    }
  }

  /** Flushes the last record (a file need not end with a line break). */
  end(): void {
    if (this.skipping) {
      this.skipping = false;
      this.resetRecord();
      return;
    }
    if (this.pendingBackslash) {
      this.pendingBackslash = false;
      this.field += '\\';
    }
    if (this.state === 1) {
      this.bad ??= 'a quoted field is not closed before the end of the file';
      this.state = 0;
    }
    if (this.state === 2) this.state = 0;
    if (this.fieldStarted || this.fields.length || this.bad) this.endRecord();
  }

  /** The record is over a cap: reported (once, by the line it starts on) and dropped up to its line end. */
  private skip(reason: string): void {
    this.onProblem({ line: this.recordLine, reason });
    this.fields = [];
    this.field = '';
    this.state = 0;
    this.pendingBackslash = false;
    this.skipping = true;
  }

  private endField(): void {
    this.fields.push({ text: this.field, quoted: this.quoted });
    this.field = '';
    this.quoted = false;
    this.afterQuote = false;
    this.fieldStarted = false;
  }

  private endRecord(): void {
    const blank = !this.fields.length && !this.fieldStarted && !this.quoted;
    if (!blank) {
      this.bad ??= this.guard.endField();
      this.endField();
      if (this.bad) this.onProblem({ line: this.recordLine, reason: this.bad });
      else this.onRecord(this.fields, this.recordLine);
    }
    this.resetRecord();
  }

  private resetRecord(): void {
    this.fields = [];
    this.field = '';
    this.quoted = false;
    this.afterQuote = false;
    this.fieldStarted = false;
    this.bad = undefined;
    this.guard.reset();
    // Called before the line break is counted: the next record starts on the next line.
    this.recordLine = this.line + 1;
  }
}
