// Bounded work for editor features on large input. A feature walks a document statement by statement
// and spends from a budget before each one; once the budget is spent (or the caller's request was
// cancelled) it stops at that statement boundary and answers with what it has, and the caller can say
// where and why it stopped.

type StopReason = 'budget' | 'cancelled';

export class WorkBudget {
  /** Units spent so far (what a unit is, characters or tokens, is the feature's choice). */
  used = 0;
  /** Offset of the first statement not processed, once the work stopped. */
  stoppedAt?: number;
  reason?: StopReason;

  constructor(
    readonly limit: number,
    private readonly isCancelled: () => boolean = () => false,
  ) {}

  /** Spends `cost` for the work starting at `offset`; false (remembering where) when it must stop there. */
  spend(cost: number, offset: number): boolean {
    if (this.stoppedAt !== undefined) return false;
    if (this.isCancelled()) return this.stop(offset, 'cancelled');
    // The first piece of work always runs, so a budget never answers nothing for a non-empty input.
    if (this.used > 0 && this.used + cost > this.limit) return this.stop(offset, 'budget');
    this.used += cost;
    return true;
  }

  get stopped(): boolean {
    return this.stoppedAt !== undefined;
  }

  private stop(offset: number, reason: StopReason): false {
    this.stoppedAt = offset;
    this.reason = reason;
    return false;
  }
}
