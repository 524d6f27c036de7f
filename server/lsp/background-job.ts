// A job the server runs in the background, debounced (triggers come in bursts: edits, saves, config
// changes) and never twice at once: a trigger during a run makes one more run after it.

export class BackgroundJob {
  private timer?: ReturnType<typeof setTimeout>;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly delayMs: number,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs the job `delayMs` after the last call. */
  schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runNow();
    }, this.delayMs);
  }

  /** Runs the job now (or once more after the run in progress); resolves when it is done. */
  async runNow(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.work();
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  /** No more runs (shutdown); a run in progress finishes. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
