import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { manifestRoutes } from "./fixtures/manifest_routes.ts";
import { isMaskedSecret, maskSecret, redactSecrets } from "../lib/security/secrets.ts";
import { SECRET_FILE } from "../lib/security/auth.ts";

Deno.test("maskSecret() shows a vendor prefix and the last 4 characters only", () => {
  strictEqual(maskSecret("sk-proj-abcdefghijklmnop1234"), "sk-proj-…1234");
  strictEqual(maskSecret("sk-ant-api03-abcdefghijklmnopqrstuvwxyz"), "sk-ant-…wxyz");
  strictEqual(maskSecret("gsk_abcdefghijklmnopqrst9876"), "gsk_…9876");
  strictEqual(maskSecret("abcdefghijklmnopqrstuvwxyz"), "…wxyz");
  strictEqual(maskSecret("short-key"), "••••••••");
  strictEqual(maskSecret(""), "");
  strictEqual(maskSecret(undefined), "");
  for (const key of ["sk-proj-abcdefghijklmnop1234", "abcdefghijklmnopqrstuvwxyz", "short-key"]) {
    const masked = maskSecret(key);
    ok(isMaskedSecret(masked), masked);
    ok(!isMaskedSecret(key), key);
    ok(masked.length < key.length || key.length < 12);
  }
  for (const notMasked of ["", null, 42, "sk-live-realkey", "…but a sentence with spaces"]) {
    strictEqual(isMaskedSecret(notMasked), false, String(notMasked));
  }
  strictEqual(
    redactSecrets("key sk-proj-abcdefghijklmnop1234 and again sk-proj-abcdefghijklmnop1234", [
      "sk-proj-abcdefghijklmnop1234",
    ]),
    "key sk-proj-…1234 and again sk-proj-…1234",
  );
});

const KEYS = {
  active: "sk-proj-ACTIVEfake0123456789abcdefSECRET",
  anthropic: "sk-ant-api03-ANTHROPICfake9876543210zyxw",
  envOnly: "sk-or-v1-ENVONLYfake1111222233334444",
  custom: "local-CUSTOMfake-5555666677778888",
  stored: "sk-or-v1-STOREDfake-9999000011112222",
};
const PASSWORD = "a long console password";

Deno.test("no response, header or log line ever contains a configured secret", async () => {
  const fake = startFakeProvider({ respond: () => ({ text: "Hello from the fake model." }) });
  const app = await createTestApp({
    env: {
      HERMES_WEBUI_PASSWORD: PASSWORD,
      ANTHROPIC_TEST_KEY: KEYS.anthropic,
      OPENROUTER_API_KEY: KEYS.envOnly,
    },
    configYaml: [
      "model:",
      "  provider: custom",
      `  base_url: ${fake.baseUrl}`,
      "  default: fake-model",
      `  api_key: ${KEYS.active}`,
      "providers:",
      "  anthropic:",
      "    api_key: ${ANTHROPIC_TEST_KEY}",
      "custom_providers:",
      "  - name: second",
      "    base_url: http://127.0.0.1:9/v1",
      `    api_key: ${KEYS.custom}`,
      "",
    ].join("\n"),
  });
  const seen: string[] = [];
  try {
    const login = await app.request("POST", "/api/auth/login", { password: PASSWORD });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const h = { cookie };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.request(method, path, body, h);
      const type = res.headers.get("content-type") ?? "";
      const text = type.startsWith("text/event-stream") && !path.startsWith("/api/chat/stream")
        ? (await res.body?.cancel(), "")
        : await res.text();
      const headers = [...res.headers].filter(([k]) => k !== "set-cookie").map(([k, v]) =>
        `${k}: ${v}`
      );
      seen.push(`${method} ${path} ${res.status}\n${headers.join("\n")}\n${text}`);
      return { status: res.status, text };
    };
    // A key stored through the settings UI is a secret too.
    strictEqual(
      (await call("POST", "/api/settings", { provider_keys: { openrouter: KEYS.stored } })).status,
      200,
    );

    const created = await call("POST", "/api/session/new", {});
    strictEqual(created.status, 200, created.text);
    const sid = JSON.parse(created.text).session.session_id as string;
    // A turn that works, and one where the provider echoes the key back in its error.
    for (
      const scripted of [
        undefined,
        {
          status: 401,
          error: {
            message: `Incorrect API key provided: ${KEYS.active}`,
            type: "invalid_request_error",
          },
        },
      ]
    ) {
      if (scripted) fake.enqueue(scripted);
      const started = await call("POST", "/api/chat/start", { session_id: sid, message: "hi" });
      strictEqual(started.status, 200, started.text);
      await call("GET", `/api/chat/stream?stream_id=${JSON.parse(started.text).stream_id}`);
    }
    ok(fake.chatRequests.length >= 2, "the turns reached the provider");
    ok(
      seen.some((s) => s.includes("Hello from the fake model")),
      "the first turn streamed its text",
    );
    ok(seen.some((s) => s.includes("event: apperror")), "the second turn failed visibly");
    strictEqual(fake.chatRequests[0].headers.authorization, `Bearer ${KEYS.active}`);

    // Every GET route, with and without the session, plus each export format.
    const gets = manifestRoutes().filter((r) =>
      r.method === "GET" && !r.path.startsWith("/static/")
    );
    ok(gets.length >= 15, `only ${gets.length} GET routes`);
    for (const r of gets) {
      await call("GET", r.path);
      await call("GET", `${r.path}?session_id=${sid}&path=.&days=30`);
    }
    for (const format of ["json", "md", "html"]) {
      await call("GET", `/api/session/export?session_id=${sid}&format=${format}`);
    }
    await call("GET", "/api/settings");
    await call("GET", "/api/models");

    const secretFile = (await Deno.readTextFile(join(app.stateDir, SECRET_FILE))).trim();
    const secrets: Record<string, string> = {
      ...KEYS,
      password: PASSWORD,
      sessionSecret: secretFile,
    };
    const corpus = [...seen, ...app.logs];
    for (const [name, value] of Object.entries(secrets)) {
      const leak = corpus.find((text) => text.includes(value));
      strictEqual(leak, undefined, `${name} leaked in:\n${leak?.slice(0, 600)}`);
    }
    // The masked forms are what a person sees.
    const settings = JSON.parse(
      seen.find((s) => s.startsWith("GET /api/settings 200"))!.split("\n").at(-1)!,
    );
    strictEqual(JSON.stringify(settings).includes(maskSecret(KEYS.stored)), true);
    deepStrictEqual(app.logs.filter((l) => l.includes(KEYS.active.slice(8, 20))), []);
  } finally {
    await app.close();
    await fake.close();
  }
});
