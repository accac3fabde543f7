// jsonListStream(): a long list answered as a stream parses to exactly the object json() would
// have sent, for every batch boundary, with and without other fields.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { inBatches, jsonListStream } from "../lib/server/http.ts";

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
