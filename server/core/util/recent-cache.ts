/**
 * A cache that keeps the answers asked for lately, at most 2 x `capacity` of them: two generations, the
 * newer one filled until it holds `capacity` entries, then it becomes the older one and the oldest is let
 * go. An answer found in the older generation moves to the newer. No per-hit reordering (unlike an exact
 * LRU list), so a hit costs one or two map lookups.
 *
 * For caches whose keys live long (a table of the workspace's model lives as long as its file's schema): a
 * WeakMap there keeps one answer for every key alive, tens of thousands in a large workspace, although only
 * the tables being linted or hovered are asked again.
 */
export class RecentCache<K, V> {
  private newer = new Map<K, V>();
  private older = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`RecentCache capacity must be at least 1, not ${capacity}`);
  }

  get(key: K): V | undefined {
    const found = this.newer.get(key);
    if (found !== undefined) return found;
    const old = this.older.get(key);
    if (old !== undefined) {
      this.older.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    if (!this.newer.has(key) && this.newer.size >= this.capacity) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }

  /** Lets go of every answer. */
  clear(): void {
    this.newer = new Map();
    this.older = new Map();
  }

  /** How many answers are kept (both generations). */
  get size(): number {
    return this.newer.size + this.older.size;
  }
}
