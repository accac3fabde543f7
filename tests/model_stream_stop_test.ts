// A model stream whose transport ignores the abort signal still stops: the silence watchdog and
// a cancelled run both end the step, because stopping cancels the body reader as well as the
// request. Deno's fetch has been seen leaving a body read pending after the abort (a PostgreSQL
// test pass under load hung there); this transport reproduces that deterministically.
import { rejects, strictEqual } from "node:assert/strict";
import { streamModelStep } from "../lib/providers/model_stream.ts";
import { ProviderFailure } from "../lib/providers/provider_errors.ts";
import { within } from "./fixtures/within.ts";

/** An OpenAI-compatible server that sends one delta and then nothing, deaf to aborts. */
function deafFetch(): { fetch: typeof fetch; cancelled: Promise<void> } {
  const cancelled = Promise.withResolvers<void>();
  const chunk = {
    id: "c1",
    object: "chat.completion.chunk",
    created: 0,
    model: "m",
    choices: [{ index: 0, delta: { role: "assistant", content: "partial " } }],
  };
  const fetchImpl = (() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(chunk)}\n\n`));
        // Never closes, never errors: the abort signal is not wired to this body.
      },
      cancel() {
        cancelled.resolve();
      },
    });
    return Promise.resolve(
      new Response(body, { headers: { "content-type": "text/event-stream" } }),
    );
  }) as typeof fetch;
  return { fetch: fetchImpl, cancelled: cancelled.promise };
}

function request(signal: AbortSignal, fetchImpl: typeof fetch) {
  return {
    endpoint: {
      id: "custom",
      protocol: "openai-compatible" as const,
      label: "Deaf",
      baseUrl: "http://127.0.0.1:9/v1",
      models: ["m"],
      userConfigured: true,
    },
    model: "m",
    system: "",
    messages: [{ role: "user" as const, content: "hello" }],
    tools: [],
    signal,
    idleTimeoutMs: 300,
    configPath: "/tmp/config.yaml",
    fetch: fetchImpl,
  };
}

Deno.test("silence on a transport that ignores aborts still ends the step as no_response", async () => {
  const deaf = deafFetch();
  const texts: string[] = [];
  await rejects(
    () =>
      within(
        (async () => {
          const req = request(new AbortController().signal, deaf.fetch);
          for await (const part of streamModelStep(req)) {
            if (part.type === "text") texts.push(part.text);
          }
        })(),
        "the silent step",
        20,
      ),
    (err: unknown) => err instanceof ProviderFailure && err.kind === "no_response",
  );
  strictEqual(texts.join(""), "partial ");
  await within(deaf.cancelled, "the body's cancel", 20); // cancelled, not left open
});

Deno.test("cancelling the run mid-stream on a transport that ignores aborts ends the step quietly", async () => {
  const deaf = deafFetch();
  const run = new AbortController();
  const texts: string[] = [];
  const req = { ...request(run.signal, deaf.fetch), idleTimeoutMs: 600_000 };
  await within(
    (async () => {
      for await (const part of streamModelStep(req)) {
        if (part.type === "text") {
          texts.push(part.text);
          // Cancel while the next read is already waiting on the body.
          setTimeout(() => run.abort(new Error("cancelled by the user")), 50);
        }
      }
    })(),
    "the cancelled step",
    20,
  );
  strictEqual(texts.join(""), "partial ");
  await within(deaf.cancelled, "the body's cancel", 20); // cancelled, not left open
});
