// A TCP relay that stands for the network between the server and a database on another host:
// it holds each chunk a set delay each way, keeps order, and can stall (forward nothing for a
// while, as a database that stopped answering). Used by the storage bench.
// Two things a relay must not add that a network does not: Nagle's algorithm on its own sockets
// (Deno leaves TCP_NODELAY off; the relay then held each small protocol message until the
// previous one was acknowledged — ~20 ms a request), and timer granularity (setTimeout here
// wakes no sooner than ~2 ms, whatever it is asked): the delay is timed by an alarm in a worker
// that sleeps on Atomics.wait, precise to tens of microseconds.

/**
 * Sleeps to an exact time: a worker blocks on Atomics.wait until the earliest due time (or until
 * woken with a new earliest), then posts a tick; the main thread resolves what is due. Nothing
 * here waits on a timer.
 */
class PreciseAlarm {
  readonly #due: Float64Array;
  readonly #gen: Int32Array;
  readonly #worker: Worker;
  #waiting: Array<{ at: number; resolve: () => void }> = [];

  constructor() {
    const shared = new SharedArrayBuffer(16);
    this.#due = new Float64Array(shared, 0, 1);
    // [generation, closed]: a new earliest time bumps the first; close() sets the second.
    this.#gen = new Int32Array(shared, 8, 2);
    // Times are absolute (timeOrigin + now): the worker's clock starts elsewhere.
    const code = `
      self.onmessage = ({ data }) => {
        const due = new Float64Array(data, 0, 1), gen = new Int32Array(data, 8, 2);
        let told = -1;
        while (Atomics.load(gen, 1) === 0) {
          const g = Atomics.load(gen, 0), at = due[0];
          const wait = at === 0 ? Infinity : at - (performance.timeOrigin + performance.now());
          if (wait <= 0) {
            if (told !== g) { told = g; postMessage(g); }
            Atomics.wait(gen, 0, g);
          } else Atomics.wait(gen, 0, g, wait);
        }
      };`;
    this.#worker = new Worker(`data:application/javascript,${encodeURIComponent(code)}`, {
      type: "module",
    });
    this.#worker.onmessage = () => this.#fire();
    this.#worker.postMessage(shared);
  }

  /** Resolves at `at` (a performance.now() time of this thread). */
  until(at: number): Promise<void> {
    if (at <= performance.now()) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiting.push({ at, resolve });
      this.#waiting.sort((a, b) => a.at - b.at);
      if (this.#waiting[0].at === at) this.#arm();
    });
  }

  #fire() {
    const now = performance.now();
    while (this.#waiting.length && this.#waiting[0].at <= now) this.#waiting.shift()!.resolve();
    this.#arm();
  }

  #arm() {
    this.#due[0] = this.#waiting.length ? performance.timeOrigin + this.#waiting[0].at : 0;
    Atomics.add(this.#gen, 0, 1);
    Atomics.notify(this.#gen, 0);
  }

  close() {
    // Out of its wait first: a worker blocked in Atomics.wait would hold the process open.
    Atomics.store(this.#gen, 1, 1);
    Atomics.add(this.#gen, 0, 1);
    Atomics.notify(this.#gen, 0);
    this.#worker.terminate();
  }
}

/**
 * A TCP proxy to PostgreSQL that holds every chunk `delayMs` before passing it on (each way),
 * in order, and can stall: while stalled nothing is forwarded (the bytes wait, as behind a
 * database that stopped answering), then everything flows again.
 */
export function startDelayingProxy(
  target: { hostname: string; port: number },
  delayMs: number,
  noDelay = true,
) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const alarm = new PreciseAlarm();
  let stalledUntil = 0;
  const conns = new Set<Deno.Conn>();
  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    // Each chunk is due delayMs after it arrived; a queue keeps the order.
    const queue: Array<{ due: number; bytes: Uint8Array }> = [];
    let writing = false;
    const drain = async () => {
      if (writing) return;
      writing = true;
      try {
        while (queue.length) {
          const wait = Math.max(queue[0].due, stalledUntil) - performance.now();
          if (wait > 0) await alarm.until(performance.now() + wait);
          if (Math.max(queue[0].due, stalledUntil) > performance.now()) continue;
          const { bytes } = queue.shift()!;
          for (let off = 0; off < bytes.length;) off += await to.write(bytes.subarray(off));
        }
      } catch {
        /* the other side went away */
      } finally {
        writing = false;
      }
    };
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await from.read(buf);
        if (n === null) break;
        if (delayMs === 0 && stalledUntil <= performance.now() && !queue.length && !writing) {
          // Nothing held and nothing ahead of it: pass it on now (no timer turn).
          const bytes = buf.slice(0, n);
          for (let off = 0; off < bytes.length;) off += await to.write(bytes.subarray(off));
          continue;
        }
        queue.push({ due: performance.now() + delayMs, bytes: buf.slice(0, n) });
        void drain();
      }
    } catch { /* closed */ }
    while (queue.length || writing) await new Promise((r) => setTimeout(r, 5));
    try {
      // A promise: a connection already closed rejects it, which must not end the bench.
      await to.closeWrite();
    } catch { /* already closed */ }
  };
  (async () => {
    for await (const client of listener) {
      const server = await Deno.connect(target).catch(() => null);
      if (!server) {
        client.close();
        continue;
      }
      conns.add(client).add(server);
      // A relay must not hold small writes back (Nagle): a database on another host answers each
      // message as its client sent it, and so must the hop in between.
      (client as Deno.TcpConn).setNoDelay(noDelay);
      server.setNoDelay(noDelay);
      Promise.all([pipe(client, server), pipe(server, client)]).finally(() => {
        for (const c of [client, server]) {
          conns.delete(c);
          try {
            c.close();
          } catch { /* closed */ }
        }
      });
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    stall(ms: number) {
      stalledUntil = performance.now() + ms;
    },
    close() {
      listener.close();
      alarm.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}
