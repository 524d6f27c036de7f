/** What a generation of a recent cache needs of its map: a Map, or a WeakMap for object keys. */
interface Generation<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
  has(key: K): boolean;
  delete(key: K): boolean;
}

/**
 * Two generations of answers, the newer one filled until it holds `capacity` entries, then it becomes the
 * older one and the oldest is let go. An answer found in the older generation moves to the newer. No per-hit
 * reordering (unlike an exact LRU list), so a hit costs one or two map lookups.
 */
abstract class Generations<K, V> {
  private newer: Generation<K, V>;
  private older: Generation<K, V>;
  /** Keys set in each generation (a WeakMap has no size; for one, keys collected since are still counted). */
  private newerCount = 0;
  private olderCount = 0;

  constructor(
    private readonly capacity: number,
    private readonly fresh: () => Generation<K, V>,
  ) {
    if (!(capacity >= 1)) throw new RangeError(`${new.target.name} capacity must be at least 1, not ${capacity}`);
    this.newer = fresh();
    this.older = fresh();
  }

  get(key: K): V | undefined {
    const found = this.newer.get(key);
    if (found !== undefined) return found;
    const old = this.older.get(key);
    if (old !== undefined) {
      this.older.delete(key);
      this.olderCount--;
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    if (!this.newer.has(key)) {
      if (this.newerCount >= this.capacity) {
        this.older = this.newer;
        this.olderCount = this.newerCount;
        this.newer = this.fresh();
        this.newerCount = 0;
      }
      this.newerCount++;
    }
    this.newer.set(key, value);
  }

  /** Lets go of every answer. */
  clear(): void {
    this.newer = this.fresh();
    this.older = this.fresh();
    this.newerCount = this.olderCount = 0;
  }

  /** How many answers were set and not let go since (both generations). */
  protected get count(): number {
    return this.newerCount + this.olderCount;
  }
}

/**
 * A cache that keeps the answers asked for lately, at most 2 x `capacity` of them (see Generations).
 *
 * For caches whose keys live long (a table of the workspace's model lives as long as its file's schema): a
 * WeakMap there keeps one answer for every key alive, tens of thousands in a large workspace, although only
 * the tables being linted or hovered are asked again.
 */
export class RecentCache<K, V> extends Generations<K, V> {
  constructor(capacity: number) {
    super(capacity, () => new Map<K, V>());
  }

  /** How many answers are kept (both generations). */
  get size(): number {
    return this.count;
  }
}

/**
 * RecentCache for a module-wide cache keyed by objects that belong to one Project (its tables): the same two
 * generations, each a WeakMap, so that an answer is let go when it falls out of the older generation or when
 * its key is no longer reachable, whichever comes first. A Project dropped while its tables still have
 * answers here leaves nothing behind (a Map's strong keys kept a dropped Project's tables, their statements
 * and through them the Project itself).
 */
export class WeakRecentCache<K extends object, V> extends Generations<K, V> {
  constructor(capacity: number) {
    super(capacity, () => new WeakMap<K, V>());
  }
}
