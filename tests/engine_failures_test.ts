// Provider failures become `apperror` events with a type and a hint a person can act on, never a
// dropped connection or a hang: auth, unknown model, rate limits (retried first), quota,
// silence, malformed streams, broken connections, and no provider at all.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import type { ScriptedResponse } from "./fixtures/fake_provider.ts";
import { tokenText } from "./fixtures/sse_client.ts";
import { sql } from "../lib/storage/db.ts";

const FAST = "provider_timeout_seconds: 0.4\nprovider_retry: {attempts: 3, base_delay_ms: 5}\n";

interface Case {
  name: string;
  script: ScriptedResponse[];
  type: string;
  message: RegExp;
  hint: RegExp;
  requests: number;
}

const CASES: Case[] = [
  {
    name: "401",
    script: [{
      status: 401,
      error: {
        message: "Incorrect API key provided: sk-abcdefghijklmnop",
        type: "invalid_api_key",
      },
    }],
    type: "auth_mismatch",
    message: /rejected the credentials/,
    hint: /api_key/,
    requests: 1,
  },
  {
    name: "404 model",
    script: [{
      status: 404,
      error: { message: "The model `nope` does not exist", type: "model_not_found" },
    }],
    type: "model_not_found",
    message: /not found/,
    hint: /model/,
    requests: 1,
  },
  {
    name: "429 three times",
    script: [1, 2, 3].map(() => ({ status: 429, headers: { "retry-after": "0" } })),
    type: "rate_limit",
    message: /rate limiting/,
    hint: /retr/i,
    requests: 3,
  },
  {
    name: "402",
    script: [{ status: 402, error: { message: "Insufficient credits" } }],
    type: "quota_exhausted",
    message: /quota|credits/,
    hint: /credits/,
    requests: 1,
  },
  {
    name: "insufficient_quota",
    script: [{
      status: 429,
      error: { message: "You exceeded your current quota", type: "insufficient_quota" },
    }],
    type: "quota_exhausted",
    message: /quota/,
    hint: /credits/,
    requests: 1,
  },
  {
    name: "silence before headers",
    script: [{ hang: "headers" }],
    type: "no_response",
    message: /sent nothing for 0.4 s/,
    hint: /provider_timeout_seconds/,
    requests: 1,
  },
  {
    name: "silence mid-stream",
    script: [{ text: "partial answer here", hang: 2 }],
    type: "no_response",
    message: /sent nothing/,
    hint: /Retry/,
    requests: 1,
  },
  {
    name: "garbage",
    script: [{ garbage: true, garbageAfter: 1, text: "abcdefgh" }],
    type: "provider_error",
    message: /malformed/,
    hint: /protocol/,
    requests: 1,
  },
  {
    name: "stream cut without finish",
    script: [{ dropAfter: 2, text: "abcdefghijkl" }],
    type: "provider_error",
    message: /cut off/,
    hint: /partial answer was kept/,
    requests: 1,
  },
];

for (const protocol of ["openai", "anthropic"] as const) {
  for (const c of CASES) {
    Deno.test(`a provider ${c.name} over ${protocol} ends the turn with apperror ${c.type}`, async () => {
      const h = await startHarness({ protocol, yaml: FAST });
      try {
        h.fake.enqueue(...c.script);
        const { stream_id } = await h.start("hello");
        const res = await h.stream(stream_id);
        ok(res.closedByServer);
        const last = res.events.at(-1)!;
        strictEqual(last.event, "apperror", res.events.map((e) => e.event).join(","));
        strictEqual(last.data.type, c.type);
        match(last.data.message, c.message);
        match(last.data.hint, c.hint);
        strictEqual(h.fake.chatRequests.length, c.requests);
        ok(
          !JSON.stringify(res.events).includes("abcdefghijklmnop"),
          "api keys never reach the client",
        );
        if (c.requests > 1) {
          strictEqual(
            res.events.filter((e) => e.event === "warning" && e.data.type === "retrying").length,
            c.requests - 1,
          );
        }
        // The user message stays, the session is free, partial text (if any) is kept.
        const session =
          (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
        strictEqual(session.active_stream_id, null);
        strictEqual(session.messages[0].content, "hello");
        const streamed = tokenText(res.events);
        if (streamed) strictEqual(session.messages[1].content, streamed);
        const row = await h.app.ctx.db.get<{ status: string }>(
          sql`SELECT status FROM streams WHERE stream_id = ${stream_id}`,
        );
        strictEqual(row?.status, "error");
        const journal = await h.app.ctx.db.get<{ event: string }>(
          sql`SELECT event FROM stream_events WHERE stream_id = ${stream_id} ORDER BY seq DESC LIMIT 1`,
        );
        strictEqual(journal?.event, "stream_end");
      } finally {
        await h.close();
      }
    });
  }
}

Deno.test("a rate limit that clears on retry finishes the turn after a warning", async () => {
  const h = await startHarness({ yaml: FAST });
  try {
    h.fake.enqueue({ status: 429, headers: { "retry-after-ms": "5" } }, { text: "made it" });
    const { stream_id } = await h.start("hi");
    const res = await h.stream(stream_id);
    deepStrictEqual(res.events.map((e) => e.event).filter((n) => n !== "title"), [
      "warning",
      "token",
      "metering",
      "done",
      "stream_end",
    ]);
    strictEqual(tokenText(res.events), "made it");
    strictEqual(h.fake.chatRequests.length, 2);
  } finally {
    await h.close();
  }
});

Deno.test("a Retry-After longer than the cap gives up at once instead of hanging", async () => {
  const h = await startHarness({
    yaml: "provider_retry: {attempts: 3, base_delay_ms: 5, max_delay_ms: 1000}\n",
  });
  try {
    h.fake.enqueue({ status: 429, headers: { "retry-after": "3600" } });
    const res = await h.stream((await h.start("hi")).stream_id);
    strictEqual(res.events.at(-1)!.data.type, "rate_limit");
    strictEqual(h.fake.chatRequests.length, 1);
  } finally {
    await h.close();
  }
});

Deno.test("with no provider configured the console starts and a turn ends with no_provider", async () => {
  const h = await startHarness({ configYaml: "" });
  try {
    const health = await h.call("GET", "/health");
    strictEqual(health.status, 200);
    const { stream_id } = await h.start("is anyone there?");
    const res = await h.stream(stream_id);
    const last = res.events.at(-1)!;
    strictEqual(last.event, "apperror");
    strictEqual(last.data.type, "no_provider");
    match(last.data.hint, /OPENAI_API_KEY|ANTHROPIC_API_KEY/);
    ok(last.data.hint.includes(`${h.root}/config.yaml`));
    strictEqual(h.fake.chatRequests.length, 0);
    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    strictEqual(session.messages.length, 1);
    strictEqual(session.active_stream_id, null);
  } finally {
    await h.close();
  }
});

Deno.test("a selected provider without its api key is no_provider, naming the variable", async () => {
  const h = await startHarness({ configYaml: "model:\n  provider: openrouter\n  default: x/y\n" });
  try {
    const res = await h.stream((await h.start("hi")).stream_id);
    const last = res.events.at(-1)!.data;
    strictEqual(last.type, "no_provider");
    match(last.message, /OPENROUTER_API_KEY/);
  } finally {
    await h.close();
  }
});

Deno.test("an endpoint that refuses connections is a provider_error with a hint about base_url", async () => {
  const h = await startHarness({
    configYaml: "model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: m\n",
  });
  try {
    const res = await h.stream((await h.start("hi")).stream_id);
    const last = res.events.at(-1)!.data;
    strictEqual(last.type, "provider_error");
    match(last.message, /Cannot reach/);
    match(last.hint, /base_url/);
  } finally {
    await h.close();
  }
});
