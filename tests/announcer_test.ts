// The announcer's text shaping (lib/browser/announcer.ts): what of an answer a screen reader hears.
import { strictEqual } from "node:assert/strict";
import { ANNOUNCE_CHARS, answerSummary } from "../lib/browser/announcer.ts";

Deno.test("answerSummary() reads a short answer as plain text, without markdown or code", () => {
  strictEqual(
    answerSummary("Here is **bold** and `code`.\n\n# Done"),
    "Here is bold and code. Done",
  );
  strictEqual(answerSummary("Run:\n```sh\nrm -rf build\n```\nthen wait."), "Run: then wait.");
  strictEqual(answerSummary("  \n "), "");
});

Deno.test("answerSummary() cuts a long answer at a word, near the limit", () => {
  const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ");
  const s = answerSummary(long);
  strictEqual(s.endsWith("…"), true);
  strictEqual(s.length <= ANNOUNCE_CHARS + 1, true);
  strictEqual(long.startsWith(s.slice(0, -1)), true);
  strictEqual(/ word\d+…$/.test(s), true, "whole words only");
});
