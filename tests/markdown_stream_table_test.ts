// Streaming tables: from its header row on, a table being written shows as a table that grows
// row by row (never a paragraph of raw pipes), and the finished message renders as a whole.
import { ok, strictEqual } from "node:assert/strict";
import { createStreamRenderer } from "../lib/markdown/stream.ts";
import { renderMarkdown } from "../lib/markdown/render.ts";
import { provisionalTable } from "../lib/markdown/stream_table.ts";

Deno.test("createStreamRenderer() shows a growing table before its delimiter row is complete", async () => {
  const r = createStreamRenderer({ growingTables: true });
  r.push("Results:\n\n");
  let u = r.push("| Name | State |\n");
  ok(u.tail.includes("<table") && u.tail.includes("<th>Name</th>"), u.tail);
  ok(!u.tail.includes("|"), `no raw pipes: ${u.tail}`);
  u = r.push("|---|--");
  ok(u.tail.includes("<table") && !u.tail.includes("|"), u.tail);
  u = r.push("-|\n| api | up |\n| db | do");
  ok(u.tail.includes("<td>api</td>") && u.tail.includes("<td>do</td>"), u.tail);
  u = r.push("wn |\n");
  const done = await r.finish();
  strictEqual(r.html, renderMarkdown(r.text));
  ok(!done.reset || done.settled.join("").includes("<td>down</td>"));
});

Deno.test("provisionalTable() leaves prose, code fences and finished tables alone", () => {
  strictEqual(provisionalTable("a | b is a pipe"), "a | b is a pipe");
  strictEqual(provisionalTable("```\n| a | b |\n"), "```\n| a | b |\n");
  const table = "| a | b |\n|---|---|\n| 1 | 2 |\n";
  strictEqual(provisionalTable(table), table);
  strictEqual(provisionalTable("| a | b |"), "| a | b |\n| --- | --- |\n");
});
