// parseVerdict() (lib/goals/verdict.ts) reads what real chat models answer to the goal
// evaluator: the bare object, the object inside prose or a code fence, loose field values, or
// only a verdict word; an answer without a verdict is an error, never a guess.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { parseVerdict } from "../lib/goals/verdict.ts";

Deno.test("parseVerdict() reads the bare object, and the object inside prose or a code fence", () => {
  const obj = {
    verdict: "continue",
    reason: "tests fail",
    progress: false,
    subgoals: [{ title: "a", done: true }],
  };
  deepStrictEqual(parseVerdict(JSON.stringify(obj)), obj);
  deepStrictEqual(
    parseVerdict("Sure! Here is the verdict:\n```json\n" + JSON.stringify(obj) + "\n```\nDone."),
    obj,
  );
  // An earlier brace in the prose ({placeholder}) and a "}" inside a string do not confuse it.
  deepStrictEqual(
    parseVerdict(
      `Looking at {the file}: {"verdict":"met","reason":"a } b","progress":true,"subgoals":[]}`,
    ),
    { verdict: "met", reason: "a } b", progress: true, subgoals: [] },
  );
});

Deno.test("parseVerdict() accepts loose values: verdict synonyms, string booleans, missing fields", () => {
  deepStrictEqual(
    parseVerdict(
      '{"verdict":"Done","progress":"false","subgoals":["write it",{"name":"test it","done":"yes"}]}',
    ),
    {
      verdict: "met",
      reason: 'the evaluator answered "met"',
      progress: false,
      subgoals: [{ title: "write it", done: false }, { title: "test it", done: true }],
    },
  );
  strictEqual(parseVerdict('{"verdict":"BLOCKED","reason":"needs a key"}').verdict, "blocked");
  strictEqual(parseVerdict('{"verdict":"in_progress"}').progress, true, "omitted is not a stall");
  strictEqual(
    parseVerdict(JSON.stringify({ verdict: "met", reason: "x".repeat(5000) })).reason.length,
    2000,
  );
});

Deno.test("parseVerdict() takes a verdict named in prose, never a negated one", () => {
  strictEqual(parseVerdict("**Verdict:** continue. Tests fail.").verdict, "continue");
  strictEqual(parseVerdict("Verdict: not met, the tests still fail").verdict, "continue");
  strictEqual(parseVerdict("met").verdict, "met");
  strictEqual(parseVerdict("The goal is not yet met.").verdict, "continue");
  strictEqual(parseVerdict("The agent is blocked: it needs the API key.").verdict, "blocked");
  const prose = parseVerdict("Verdict: met\nThe file exists and its test passes.");
  deepStrictEqual(prose, {
    verdict: "met",
    reason: "Verdict: met The file exists and its test passes.",
    progress: true,
    subgoals: [],
  });
});

Deno.test("parseVerdict() refuses an answer that names no verdict, or names two", () => {
  throws(() => parseVerdict(""), /names no verdict/);
  throws(() => parseVerdict("I looked at the files."), /names no verdict/);
  throws(() => parseVerdict('{"status":"fine"}'), /names no verdict/);
  throws(() => parseVerdict("Either met or blocked, hard to say."), /names no verdict/);
});
