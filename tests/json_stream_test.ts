// jsonListStream(): a long list answered as a stream parses to exactly the object json() would
// have sent, for every batch boundary, with and without other fields.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { inBatches, jsonEncodedListStream, jsonListStream } from "../lib/server/http.ts";

Deno.test("jsonListStream() parses to the same object as one JSON.stringify", async () => {
  for (const n of [0, 1, 199, 200, 201, 450]) {
    const items = Array.from({ length: n }, (_, i) => ({ i, s: `x"${i}\u2028` }));
    const res = jsonListStream("sessions", inBatches(items, 200), { a: 1, b: "z" });
    strictEqual(res.headers.get("content-type"), "application/json; charset=utf-8");
    deepStrictEqual(await res.json(), { a: 1, b: "z", sessions: items });
    deepStrictEqual(await jsonListStream("sessions", inBatches(items, 7), {}).json(), {
      sessions: items,
    });
  }
});

Deno.test("jsonEncodedListStream() takes a chunk only when the client took the one before, and ends its source when the client goes away", async () => {
  let taken = 0;
  let ended = false;
  async function* source() {
    try {
      for (let i = 0; i < 100; i++) {
        taken++;
        await Promise.resolve();
        yield new TextEncoder().encode(JSON.stringify({ i }));
      }
    } finally {
      ended = true;
    }
  }
  const reader = jsonEncodedListStream("sessions", source(), { count: 100 }).body!.getReader();
  const dec = new TextDecoder();
  strictEqual(dec.decode((await reader.read()).value), '{"count":100,"sessions":[');
  strictEqual(dec.decode((await reader.read()).value), '{"i":0}');
  for (let i = 0; i < 4; i++) await reader.read(); // a comma and an item, twice
  // Taken: the three chunks the client read, and at most the one after them.
  strictEqual(taken <= 4, true, `taken ${taken}`);
  await reader.cancel();
  strictEqual(ended, true, "the source was ended");
});
