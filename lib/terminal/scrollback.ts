// The bytes a terminal printed most recently, replayed to a viewer that (re)attaches.
// Invariant: never holds more than `limit` bytes; the oldest output is dropped first.
export class Scrollback {
  #chunks: Uint8Array[] = [];
  #size = 0;
  constructor(readonly limit: number) {}

  push(chunk: Uint8Array): void {
    if (chunk.length >= this.limit) {
      this.#chunks = [chunk.slice(chunk.length - this.limit)];
      this.#size = this.limit;
      return;
    }
    this.#chunks.push(chunk.slice());
    this.#size += chunk.length;
    while (this.#size > this.limit) {
      const first = this.#chunks[0];
      const over = this.#size - this.limit;
      if (first.length <= over) {
        this.#chunks.shift();
        this.#size -= first.length;
      } else {
        this.#chunks[0] = first.subarray(over);
        this.#size -= over;
      }
    }
  }

  get size(): number {
    return this.#size;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.#size);
    let o = 0;
    for (const c of this.#chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}
