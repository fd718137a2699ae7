/** The k largest numbers offered, with a min-heap: O(n log k), and most offers cost one comparison. */
export class TopKeys {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.heap = new Float64Array(Math.max(0, k));
  }

  /**
   * Keeps `key` if it is among the k largest so far. Returns the floor: what a later offer must
   * beat (the smallest kept number once k are kept, else -Infinity).
   */
  offer(key: number): number {
    const heap = this.heap;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= key) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = key;
      return this.size === this.k ? heap[0]! : -Infinity;
    }
    if (this.k === 0) return Infinity;
    if (key <= heap[0]!) return heap[0]!;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && heap[right]! < heap[left]! ? right : left;
      if (heap[child]! >= key) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = key;
    return heap[0]!;
  }

  /** The kept numbers, largest first. */
  sortedDescending(): Float64Array {
    return this.heap.slice(0, this.size).sort().reverse();
  }
}
