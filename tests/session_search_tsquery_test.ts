// The PostgreSQL search query text (toTsQuery): the same words as the FTS5 query, each a
// quoted prefix lexeme, so nothing a person types reaches to_tsquery as an operator.
import { strictEqual } from "node:assert/strict";
import { toFtsQuery, toTsQuery } from "../lib/sessions/session_search.ts";

Deno.test("toTsQuery ANDs each word as a quoted prefix lexeme", () => {
  strictEqual(toTsQuery("kubernetes drain"), "'kubernetes':* & 'drain':*");
  strictEqual(toTsQuery("  Café  ÉCOLE 42 "), "'Café':* & 'ÉCOLE':* & '42':*");
});

Deno.test("toTsQuery keeps to_tsquery syntax in the input as plain text", () => {
  strictEqual(toTsQuery(`foo"( ) | ! & <-> 'bar' :* \\ AND`), "'foo':* & 'bar':* & 'AND':*");
  strictEqual(toTsQuery("it's"), "'it':* & 's':*");
  strictEqual(toTsQuery("lib/storage/db.ts"), "'lib':* & 'storage':* & 'db':* & 'ts':*");
});

Deno.test("toTsQuery reads an underscore as FTS5 does: a phrase, the last word a prefix", () => {
  strictEqual(toTsQuery("foo_ba"), "('foo' <-> 'ba':*)");
  strictEqual(toTsQuery("_a__b_ c"), "('a' <-> 'b':*) & 'c':*");
  strictEqual(toTsQuery("x ___"), "'x':*");
});

Deno.test("toTsQuery is null when no word remains, as toFtsQuery is", () => {
  for (const text of ["", "   ", "*()\"'", "!&|"]) {
    strictEqual(toTsQuery(text), null);
    strictEqual(toFtsQuery(text), null);
  }
  strictEqual(toTsQuery("___"), null);
});

Deno.test("toTsQuery normalizes (NFKC) and keeps the first 16 words, as toFtsQuery does", () => {
  strictEqual(toTsQuery("ｆｕｌｌ ﬁle"), "'full':* & 'file':*");
  const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
  const query = toTsQuery(words.join(" "))!;
  strictEqual(query.split(" & ").length, 16);
  strictEqual(query.split(" & ").at(-1), "'w15':*");
  strictEqual(toFtsQuery(words.join(" "))!.split(" ").length, 16);
});
