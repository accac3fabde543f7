// A session exported as a JSONL trace (one journal-vocabulary event per line) imports back
// losslessly: messages (order, content, reasoning, tool calls, timestamps, extras) and tool call
// records, with a real turn made through the engine; a broken trace is a 400 naming its line.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "../fixtures/engine_harness.ts";
import { consoleToken } from "../../lib/security/request_proof.ts";

Deno.test("a JSONL trace export imports back losslessly; bad traces get a clear 400", async () => {
  const h = await startHarness();
  try {
    await Deno.writeTextFile(`${h.workspace}/a.txt`, "x");
    h.fake.enqueue(
      { reasoning: "Let me look.", toolCalls: [{ name: "list_directory", args: { path: "." } }] },
      { text: "There is **a.txt**.\n\n| a | b |\n|---|---|\n| 1 | 2 |" },
    );
    const run = await h.start("What is here?");
    await h.stream(run.stream_id);

    const exportAs = async (sid: string, format: string) => {
      const res = await fetch(
        `${h.url}/api/session/export?session_id=${sid}&format=${format}`,
      );
      strictEqual(res.status, 200);
      return { type: res.headers.get("content-type"), text: await res.text() };
    };
    const trace = await exportAs(h.sessionId, "jsonl");
    ok(trace.type!.startsWith("application/x-ndjson"));
    const lines = trace.text.trim().split("\n").map((l) => JSON.parse(l));
    strictEqual(lines[0].event, "session");
    const vocabulary = new Set([
      "session",
      "message",
      "reasoning",
      "token",
      "tool",
      "message_end",
      "tool_complete",
      "tool_record",
    ]);
    ok(lines.every((l) => vocabulary.has(l.event)), lines.map((l) => l.event).join(","));
    ok(lines.some((l) => l.event === "tool" && l.data.name === "list_directory"));
    ok(lines.some((l) => l.event === "reasoning" && l.data.text === "Let me look."));

    const imported = await fetch(`${h.url}/api/session/import`, {
      method: "POST",
      headers: {
        "content-type": "application/x-ndjson",
        "x-hermes-csrf-token": await consoleToken(h.app.ctx.security),
      },
      body: trace.text,
    });
    strictEqual(imported.status, 200);
    const { session } = await imported.json();
    ok(session.session_id !== h.sessionId);

    const before = JSON.parse((await exportAs(h.sessionId, "json")).text);
    const after = JSON.parse((await exportAs(session.session_id, "json")).text);
    deepStrictEqual(after.messages, before.messages);
    deepStrictEqual(after.tool_calls, before.tool_calls);
    for (const k of ["title", "model", "created_at", "input_tokens", "output_tokens"]) {
      deepStrictEqual(after[k], before[k], k);
    }

    for (
      const [body, says] of [
        ["", "empty"],
        ['{"event":"token","data":{"text":"x"}}\n', "line 1"],
        [trace.text.split("\n")[0] + "\nnot json\n", "line 2"],
        [trace.text.split("\n")[0] + '\n{"event":"explode","data":{}}\n', "unknown event"],
        [trace.text.split("\n")[0] + '\n{"event":"token","data":{"text":"x"}}\n', "ends inside"],
      ]
    ) {
      const res = await fetch(`${h.url}/api/session/import`, {
        method: "POST",
        headers: {
          "content-type": "application/x-ndjson",
          "x-hermes-csrf-token": await consoleToken(h.app.ctx.security),
        },
        body,
      });
      strictEqual(res.status, 400, body);
      ok(String((await res.json()).error).includes(says), says);
    }
  } finally {
    await h.close();
  }
});
