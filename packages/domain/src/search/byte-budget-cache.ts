/**
 * What the menu index keeps between queries (lists and results), by key, within a memory budget:
 * least recently used out. It belongs to one index, so a new menu (a new index) starts afresh.
 */
export class ByteBudgetCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Counts the moves to the end: insertions and re-insertions. */
  private clock = 0;

  constructor(private readonly budget: number) {}

  get(key: string): unknown {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Re-inserted, so that the first entries are the least recently used; but not on every read: a
    // delete and a set per read make a large Map rehash often. An entry with fewer than half the
    // map's entries put after it is in the newer half: recent enough where it is (nearly LRU).
    if (this.clock - entry.moved >= this.entries.size >> 1) {
      entry.moved = ++this.clock;
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  /** Keeps `value`, said to take `bytes`, unless it would take over a quarter of the budget. */
  set(key: string, value: unknown, bytes: number): void {
    if (bytes > this.budget / 4 || this.entries.has(key)) return;
    this.entries.set(key, { value, bytes, moved: ++this.clock });
    this.bytes += bytes;
    while (this.bytes > this.budget) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}

interface Entry {
  readonly value: unknown;
  readonly bytes: number;
  /** `clock` when the entry was last put at the end: `clock - moved` entries were put after it since. */
  moved: number;
}
