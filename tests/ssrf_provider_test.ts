// Server-side requests a user or a transcript can aim: provider base_urls (checked when
// written and again on every request, through the one guarded fetch the AI SDK gets) and
// image URLs in imported messages (never fetched from this machine's network) — issue 12,
// finding 7.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { startHarness } from "./fixtures/engine_harness.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { imageUrlPart } from "../lib/engine/model_messages.ts";
import { systemResolver } from "../lib/security/url_guard.ts";

/** A loopback server that counts every request it gets. */
function loopbackListener() {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return new Response("SECRET-LOOPBACK-CONTENT", { headers: { "content-type": "image/png" } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { port, hits, close: () => server.shutdown() };
}

Deno.test("writeProviderConfig() refuses metadata and unspecified base_urls; the user's loopback server is fine", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_SKIP_ONBOARDING: "" } });
  try {
    const configPath = join(app.stateDir, "..", "config.yaml");
    const before = await Deno.readTextFile(configPath).catch(() => null);
    for (
      const base_url of [
        "http://0.0.0.0:8080/v1",
        "http://0.0.0.0/v1",
        "http://[::]:8080/v1",
        "http://169.254.169.254/latest",
        "http://[fd00:ec2::254]/v1",
        "http://metadata.google.internal/v1",
        "http://[::ffff:169.254.169.254]/v1",
        "http://0/v1",
      ]
    ) {
      for (
        const [path, body] of [
          ["/api/onboarding/complete", {
            provider: "custom",
            model: "m",
            base_url,
            api_key: "sk-x",
          }],
          ["/api/onboarding/setup", {
            provider: "custom",
            model: "m",
            base_url,
            api_key: "sk-x",
            confirm_overwrite: true,
          }],
        ] as const
      ) {
        const r = await app.call("POST", path, body);
        strictEqual(r.status, 400, `${path} ${base_url}: ${JSON.stringify(r.body)}`);
        ok(/base_url/.test(String(r.body.error)), String(r.body.error));
      }
    }
    strictEqual(await Deno.readTextFile(configPath).catch(() => null), before, "nothing written");
    const fake = startFakeProvider();
    try {
      const fine = await app.call("POST", "/api/onboarding/complete", {
        provider: "custom",
        model: "fake-model",
        base_url: fake.baseUrl,
        api_key: "sk-x",
      });
      strictEqual(fine.status, 200, JSON.stringify(fine.body));
    } finally {
      await fake.close();
    }
  } finally {
    await app.close();
  }
});

Deno.test("provider requests go through the guard: a 0.0.0.0 base_url written by hand never gets the key", async () => {
  const fake = startFakeProvider();
  const h = await startHarness({
    fake,
    configYaml: `model:\n  provider: custom\n  default: fake-model\n` +
      `  base_url: http://0.0.0.0:${fake.port}/v1\n  api_key: test-openai-key\n`,
  });
  try {
    fake.enqueue({ text: "should never be asked" });
    const started = await h.start("hello");
    const { events } = await h.stream(started.stream_id);
    const error = events.find((e) => e.event === "apperror");
    ok(error, `an apperror (got ${events.map((e) => e.event).join(", ")})`);
    ok(/0\.0\.0\.0|unspecified/.test(JSON.stringify(error.data)), JSON.stringify(error.data));
    strictEqual(fake.requests.length, 0, "the fake (reachable through 0.0.0.0) got nothing");
  } finally {
    await h.close();
    await fake.close();
  }
});

Deno.test("imageUrlPart(): data: inline, public URLs passed on, local and metadata hosts become a note", async () => {
  const png = await imageUrlPart("data:image/png;base64,iVBORw0KGgo=");
  strictEqual(png?.type, "image");
  ok(png?.type === "image" && png.image instanceof Uint8Array);
  const publicDns = () => Promise.resolve(["93.184.216.34"]);
  const remote = await imageUrlPart("https://example.com/cat.png", publicDns);
  ok(remote?.type === "image" && remote.image instanceof URL);
  // A name that resolves to this machine is as local as `localhost`.
  const rebound = await imageUrlPart(
    "http://innocent.example/x.png",
    () => Promise.resolve(["127.0.0.1"]),
  );
  ok(rebound?.type === "text" && /not sent/.test(rebound.text), JSON.stringify(rebound));
  for (
    const url of [
      "http://127.0.0.1:9/x.png",
      "http://localhost:9/x.png",
      "http://foo.localhost/x.png",
      "http://[::1]/x.png",
      "http://10.0.0.5/x.png",
      "http://169.254.169.254/latest/meta-data",
      "http://metadata.google.internal/x",
      "http://0.0.0.0:9/x.png",
      "file:///etc/passwd",
    ]
  ) {
    const part = await imageUrlPart(url, publicDns);
    ok(part?.type === "text" && /not sent/.test(part.text), `${url} → ${JSON.stringify(part)}`);
  }
});

Deno.test("an imported image_url at a loopback address is never fetched by the engine", async () => {
  const listener = loopbackListener();
  const h = await startHarness();
  try {
    const urls = [
      `http://127.0.0.1:${listener.port}/a.png`,
      `http://localhost:${listener.port}/b.png`,
      `http://[::ffff:127.0.0.1]:${listener.port}/c.png`,
    ];
    // The machine's own name resolves to loopback here (/etc/hosts): the reported case of a
    // loopback NAME, which the AI SDK's own download check does not catch.
    const own = Deno.hostname();
    if ((await systemResolver(own).catch(() => [])).some((a) => a.startsWith("127."))) {
      urls.push(`http://${own}:${listener.port}/d.png`);
    }
    const imported = await h.call("POST", "/api/session/import", {
      title: "pictures",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is in these?" },
            ...urls.map((url) => ({ type: "image_url", image_url: { url } })),
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          ],
        },
        { role: "assistant", content: "Let me look." },
      ],
    });
    strictEqual(imported.status, 200, JSON.stringify(imported.body));
    h.sessionId = imported.body.session.session_id;
    h.fake.enqueue({ text: "I see nothing." });
    const started = await h.start("and now?");
    const { events } = await h.stream(started.stream_id);
    deepStrictEqual(listener.hits, [], "the loopback listener was never reached");
    ok(events.some((e) => e.event === "stream_end"), events.map((e) => e.event).join(", "));
    strictEqual(h.fake.chatRequests.length, 1);
    const sent = JSON.stringify(h.fake.chatRequests[0].body);
    ok(!sent.includes(btoa("SECRET-LOOPBACK-CONTENT")), "no fetched content in the request");
    ok(!sent.includes("SECRET-LOOPBACK-CONTENT"));
    for (const url of urls) ok(!sent.includes(`"${url}"`), `${url} not handed to the provider`);
    ok(sent.includes("not sent"), "the model is told the image was not sent");
    ok(sent.includes("iVBORw0KGgo"), "the inline data: image is sent");
  } finally {
    await h.close();
    await listener.close();
  }
});
