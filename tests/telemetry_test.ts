// OpenTelemetry through the official SDK, received by a local OTLP/HTTP receiver: one trace per
// run, a span per model step and per tool call, with GenAI semantic-convention attributes, and
// nothing of the prompt, the answer or the key in any span.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status?: { code?: number };
}

function startReceiver() {
  const bodies: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/v1/traces") {
      const type = req.headers.get("content-type") ?? "";
      if (!type.includes("json")) {
        return new Response("json only in this receiver", { status: 415 });
      }
      bodies.push(await req.json());
      return Response.json({});
    }
    return new Response("not found", { status: 404 });
  });
  const spans = (): OtlpSpan[] =>
    bodies.flatMap((b) =>
      (b as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }).resourceSpans
        .flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))
    );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    bodies,
    spans,
    close: () => server.shutdown(),
  };
}

function attr(span: OtlpSpan, key: string): unknown {
  const v = span.attributes.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if ("stringValue" in v) return v.stringValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("arrayValue" in v) {
    return (v.arrayValue as { values: Array<{ stringValue: string }> }).values.map((x) =>
      x.stringValue
    );
  }
  return Object.values(v)[0];
}

Deno.test("a run exports a trace: invoke_agent → chat steps and execute_tool, GenAI attributes", async () => {
  const receiver = startReceiver();
  const h = await startHarness({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  try {
    await Deno.writeTextFile(`${h.workspace}/notes.txt`, "hello");
    h.fake.enqueue(
      {
        toolCalls: [{ name: "list_directory", args: { path: "." } }],
        usage: { input_tokens: 120, output_tokens: 7 },
      },
      {
        text: "There is a notes file. SECRET-ANSWER-TEXT",
        usage: { input_tokens: 150, output_tokens: 9 },
      },
    );
    const run = await h.start("What is in here? SECRET-PROMPT-TEXT");
    await h.stream(run.stream_id);
    const telemetry = h.app.ctx.runs.options(h.app.ctx.config).telemetry;
    ok(telemetry, "telemetry is wired when the endpoint is set");
    // Span ends are settled asynchronously; flush until the root arrives.
    for (
      let i = 0;
      i < 50 && !receiver.spans().some((s) => s.name.startsWith("invoke_agent"));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 20));
      await telemetry!.flush();
    }
    const spans = receiver.spans();
    const root = spans.find((s) => s.name === "invoke_agent hermes");
    ok(root, `spans: ${spans.map((s) => s.name).join(", ")}`);
    strictEqual(attr(root!, "gen_ai.operation.name"), "invoke_agent");
    strictEqual(attr(root!, "gen_ai.request.model"), "fake-model");
    strictEqual(attr(root!, "hermes.run.status"), "done");
    const steps = spans.filter((s) => s.name === "chat fake-model");
    strictEqual(steps.length, 2);
    for (const s of steps) {
      strictEqual(s.parentSpanId, root!.spanId);
      strictEqual(s.traceId, root!.traceId);
      strictEqual(attr(s, "gen_ai.operation.name"), "chat");
      strictEqual(attr(s, "gen_ai.provider.name"), "custom");
    }
    deepStrictEqual(steps.map((s) => attr(s, "gen_ai.usage.input_tokens")), [120, 150]);
    deepStrictEqual(steps.map((s) => attr(s, "gen_ai.usage.output_tokens")), [7, 9]);
    deepStrictEqual(attr(steps[0], "gen_ai.response.finish_reasons"), ["tool-calls"]);
    deepStrictEqual(attr(steps[1], "gen_ai.response.finish_reasons"), ["stop"]);
    const tool = spans.find((s) => s.name === "execute_tool list_directory");
    ok(tool);
    strictEqual(tool!.parentSpanId, root!.spanId);
    strictEqual(attr(tool!, "gen_ai.tool.name"), "list_directory");
    ok(String(attr(tool!, "gen_ai.tool.call.id")).length > 0);
    const all = JSON.stringify(receiver.bodies);
    ok(
      !all.includes("SECRET-PROMPT-TEXT") && !all.includes("SECRET-ANSWER-TEXT"),
      "content leaked",
    );
    ok(!all.includes("test-openai-key"), "the key leaked");
  } finally {
    await h.close();
    await receiver.close();
  }
});

Deno.test("without an OTLP endpoint no telemetry is wired", async () => {
  const h = await startHarness();
  try {
    strictEqual(h.app.ctx.runs.options(h.app.ctx.config).telemetry, undefined);
  } finally {
    await h.close();
  }
});
