// POST /api/transcribe and POST /api/tts for real: the app's routes → the AI SDK's OpenAI
// transcription and speech clients → the fake provider's /v1/audio endpoints on loopback. The
// happy paths (the audio and the text arrive, the answer is real audio), every refusal (no
// provider, no model, oversize, wrong method or body, no page proof, too many), and a provider
// that hangs, answers garbage or refuses — each a clear {error}, never a crash. Last, the same
// two routes under `deno task start`'s permission flags.
import { startServer } from "./fixtures/start_server.ts";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { type FakeProvider, startFakeProvider } from "./fixtures/fake_provider.ts";
import { toneWav } from "./fixtures/fake_audio.ts";
import { configureVoice, voiceSetup } from "../lib/voice/voice_provider.ts";
import { readAudioUpload } from "../lib/voice/transcription.ts";
import { sniffAudio } from "../lib/voice/audio_format.ts";

type Body = { ok?: boolean; transcript?: string; error?: string; hint?: string };

/** A fake provider, an app configured for it, and the voice models set; torn down after. */
async function withVoice(
  fn: (c: { app: TestApp; fake: FakeProvider }) => Promise<void>,
  opts: { models?: boolean; yaml?: (fake: FakeProvider) => string } = {},
): Promise<void> {
  const fake = startFakeProvider();
  const app = await createTestApp({
    configYaml: opts.yaml?.(fake) ??
      `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n` +
        `  api_key: test-key\n`,
  });
  try {
    if (opts.models !== false) {
      const { status } = await app.call("POST", "/api/settings", {
        stt_model: "fake-whisper",
        tts_model: "fake-tts",
        tts_server_voice: "nova",
      });
      strictEqual(status, 200);
    }
    await fn({ app, fake });
  } finally {
    await app.close();
    await fake.close();
  }
}

function recording(bytes: Uint8Array = toneWav(), name = "dictation.wav", type = "audio/wav") {
  const form = new FormData();
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  return form;
}

const transcribe = (app: TestApp, form: FormData | string, headers?: Record<string, string>) =>
  app.call<Body>("POST", "/api/transcribe", form, headers);

const tts = (app: TestApp, body: unknown) => app.request("POST", "/api/tts", body);

Deno.test("POST /api/transcribe sends the recording through the SDK and answers {ok, transcript}", async () => {
  await withVoice(async ({ app, fake }) => {
    const wav = toneWav(0.5);
    const form = recording(wav);
    form.append("language", "de-DE");
    const { status, body } = await transcribe(app, form);
    strictEqual(status, 200, JSON.stringify(body));
    deepStrictEqual(body, {
      ok: true,
      transcript: `fake transcript: ${wav.byteLength} bytes of audio/wav`,
    });
    const seen = fake.audio.requests[0];
    strictEqual(seen.kind, "transcription");
    strictEqual(seen.model, "fake-whisper");
    strictEqual(seen.file?.size, wav.byteLength, "every byte of the audio arrived");
    strictEqual(seen.language, "de", "the UI's language is the hint, as ISO 639-1");
    strictEqual(seen.authorization, "Bearer test-key");
  });
});

Deno.test("POST /api/tts answers real audio from the speech model, with the chosen voice", async () => {
  await withVoice(async ({ app, fake }) => {
    const res = await tts(app, { engine: "agent", text: "  Hello there.  " });
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "audio/wav");
    strictEqual(res.headers.get("cache-control"), "no-store");
    strictEqual(res.headers.get("x-content-type-options"), "nosniff");
    const audio = new Uint8Array(await res.arrayBuffer());
    strictEqual(res.headers.get("content-length"), String(audio.byteLength));
    deepStrictEqual(audio, toneWav(), "the provider's WAV, byte for byte");
    const seen = fake.audio.requests[0];
    strictEqual(seen.kind, "speech");
    strictEqual(seen.model, "fake-tts");
    strictEqual(seen.input, "Hello there.");
    strictEqual(seen.voice, "nova");
    strictEqual(seen.speed, undefined, "rate 1 sends no speed");
    // Without `engine` (it defaults to the server engine) and with a rate: the speed goes along.
    await app.call("POST", "/api/settings", { tts_rate: 1.5 });
    const again = await tts(app, { text: "Faster." });
    strictEqual(again.status, 200);
    await again.body?.cancel();
    strictEqual(fake.audio.requests[1].speed, 1.5);
  });
});

Deno.test("no provider, an unusable one, or no model is a 409 that says what to set", async (t) => {
  await t.step("no provider at all", async () => {
    const app = await createTestApp();
    try {
      const a = await transcribe(app, recording());
      strictEqual(a.status, 409);
      ok(/no provider is configured/.test(a.body.error ?? ""), a.body.error);
      const b = await app.call<Body>("POST", "/api/tts", { text: "hi" });
      strictEqual(b.status, 409);
      ok(/Read aloud on the server is not available/.test(b.body.error ?? ""), b.body.error);
    } finally {
      await app.close();
    }
  });
  await t.step("a custom provider with no model set", async () => {
    await withVoice(async ({ app, fake }) => {
      const a = await transcribe(app, recording());
      strictEqual(a.status, 409);
      ok(/no transcription model is set/.test(a.body.error ?? ""), a.body.error);
      const b = await app.call<Body>("POST", "/api/tts", { text: "hi" });
      strictEqual(b.status, 409);
      ok(/no speech model is set/.test(b.body.error ?? ""), b.body.error);
      strictEqual(fake.audio.requests.length, 0, "nothing was sent");
    }, { models: false });
  });
  await t.step("a voice provider that is not configured, and Anthropic", async () => {
    await withVoice(async ({ app }) => {
      await app.call("POST", "/api/settings", { voice_provider: "openrouter" });
      const a = await transcribe(app, recording());
      strictEqual(a.status, 409);
      ok(/"openrouter" is not configured/.test(a.body.error ?? ""), a.body.error);
    });
    await withVoice(async ({ app }) => {
      const a = await transcribe(app, recording());
      strictEqual(a.status, 409);
      ok(/Anthropic has no transcription API/.test(a.body.error ?? ""), a.body.error);
    }, {
      yaml: (f) =>
        `model:\n  provider: anthropic\n  default: m\n  base_url: ${f.baseUrl}\n  api_key: k\n`,
    });
  });
  await t.step("OpenAI itself needs no model: whisper-1, tts-1 and alloy", async () => {
    const app = await createTestApp({ env: { OPENAI_API_KEY: "sk-test" } });
    try {
      const stt = await voiceSetup(app.ctx, "transcription");
      strictEqual(stt.endpoint.id, "openai");
      strictEqual(stt.model, "whisper-1");
      const speech = await voiceSetup(app.ctx, "speech");
      strictEqual(speech.model, "tts-1");
      strictEqual(speech.voice, "alloy");
    } finally {
      await app.close();
    }
  });
});

Deno.test("an oversize recording is a 413, whether declared or streamed", async () => {
  await withVoice(async ({ app, fake }) => {
    const big = new Uint8Array(26 * 1024 * 1024);
    big.set(toneWav().subarray(0, 44)); // a WAV header: only its size is wrong
    const res = await transcribe(app, recording(big));
    strictEqual(res.status, 413);
    ok(/larger than 25 MB/.test(res.body.error ?? ""), res.body.error);
    strictEqual(fake.audio.requests.length, 0);
  });
  // Streamed with no Content-Length: cut off once past the cap (a small cap keeps it quick).
  const form = recording(new Uint8Array(4096));
  const body = new Response(form);
  const req = new Request("http://x/api/transcribe", {
    method: "POST",
    headers: { "content-type": body.headers.get("content-type")! },
    body: body.body,
    duplex: "half",
  } as RequestInit);
  await readAudioUpload(req, 1000).then(
    () => ok(false, "accepted"),
    (err) => strictEqual((err as Error).name, "PayloadTooLargeError"),
  );
});

Deno.test("wrong method, body or file is a 4xx naming the problem", async () => {
  await withVoice(async ({ app, fake }) => {
    strictEqual((await app.call<Body>("GET", "/api/transcribe")).status, 405);
    strictEqual((await app.call<Body>("GET", "/api/tts")).status, 405);
    const json = await transcribe(app, JSON.stringify({ file: "x" }), {
      "content-type": "application/json",
    });
    strictEqual(json.status, 415);
    ok(/multipart\/form-data/.test(json.body.error ?? ""), json.body.error);
    const notAudio = await transcribe(
      app,
      recording(new TextEncoder().encode("#!/bin/sh\nrm -rf /\n"), "x.webm", "audio/webm"),
    );
    strictEqual(notAudio.status, 415, "the bytes decide, not the name or the claimed type");
    const empty = await transcribe(app, recording(new Uint8Array(0)));
    strictEqual(empty.status, 400);
    ok(/empty/.test(empty.body.error ?? ""));
    const none = new FormData();
    none.append("language", "en");
    strictEqual((await transcribe(app, none)).status, 400);

    const text = await app.call<Body>("POST", "/api/tts", "hello", {
      "content-type": "text/plain",
    });
    strictEqual(text.status, 415);
    strictEqual((await app.call<Body>("POST", "/api/tts", { text: "  " })).status, 400);
    const long = await app.call<Body>("POST", "/api/tts", { text: "a".repeat(4097) });
    strictEqual(long.status, 400);
    ok(/4097 characters/.test(long.body.error ?? ""), long.body.error);
    const browser = await app.call<Body>("POST", "/api/tts", { engine: "browser", text: "hi" });
    strictEqual(browser.status, 400);
    strictEqual(fake.audio.requests.length, 0, "nothing reached the provider");
  });
});

Deno.test("without the page's proof both routes are refused before anything is read", async () => {
  await withVoice(async ({ app, fake }) => {
    const a = await app.call<Body>("POST", "/api/transcribe", recording(), {}, { proof: false });
    strictEqual(a.status, 403);
    const b = await app.call<Body>("POST", "/api/tts", { text: "hi" }, {}, { proof: false });
    strictEqual(b.status, 403);
    strictEqual(fake.audio.requests.length, 0);
  });
});

Deno.test("a provider that hangs is cut off with a 504; one that answers garbage is a 502", async () => {
  await withVoice(async ({ app, fake }) => {
    configureVoice(app.ctx, { timeoutMs: 300 });
    fake.audio.enqueue({ hang: true }, { hang: true });
    const a = await transcribe(app, recording());
    strictEqual(a.status, 504);
    ok(
      /did not answer the transcription request within 0\.3 s/.test(a.body.error ?? ""),
      a.body.error,
    );
    const b = await app.call<Body>("POST", "/api/tts", { text: "hi" });
    strictEqual(b.status, 504);
    ok(/did not answer the speech request/.test(b.body.error ?? ""), b.body.error);

    configureVoice(app.ctx, { timeoutMs: 20_000 }); // a loaded machine is not a hang
    fake.audio.enqueue({ garbage: true }, { garbage: true });
    const c = await transcribe(app, recording());
    strictEqual(c.status, 502);
    ok(/something that is not a transcript/.test(c.body.error ?? ""), c.body.error);
    ok(c.body.hint, "a hint says what to check");
    const d = await app.call<Body>("POST", "/api/tts", { text: "hi" });
    strictEqual(d.status, 502);
    ok(/something that is not audio/.test(d.body.error ?? ""), d.body.error);

    fake.audio.enqueue({ status: 401, error: "bad key test-key" }, { status: 404 });
    const e = await transcribe(app, recording());
    strictEqual(e.status, 502);
    ok(/rejected the credentials/.test(e.body.error ?? ""), e.body.error);
    ok(!JSON.stringify(e.body).includes("test-key"), "the key never appears");
    const f = await app.call<Body>("POST", "/api/tts", { text: "hi" });
    strictEqual(f.status, 502);
    ok(/"fake-tts" was not found/.test(f.body.error ?? ""), f.body.error);
    // Still serving after all of that.
    const g = await transcribe(app, recording());
    strictEqual(g.status, 200);
  });
});

Deno.test("a voice provider at a metadata address is refused by the SSRF guard", async () => {
  await withVoice(async ({ app }) => {
    const a = await transcribe(app, recording());
    strictEqual(a.status, 502);
    ok(/169\.254\.169\.254/.test(a.body.error ?? ""), a.body.error);
  }, {
    yaml: () =>
      "model:\n  provider: custom\n  default: m\n  base_url: http://169.254.169.254/v1\n" +
      "  api_key: k\n",
  });
});

Deno.test("more than the per-minute limit from one client is a 429", async () => {
  await withVoice(async ({ app }) => {
    configureVoice(app.ctx, { perMinute: 2 });
    strictEqual((await transcribe(app, recording())).status, 200);
    strictEqual((await transcribe(app, recording())).status, 200);
    const third = await transcribe(app, recording());
    strictEqual(third.status, 429);
    ok(/at most 2 a minute/.test(third.body.error ?? ""), third.body.error);
  });
});

Deno.test("sniffAudio() knows recordings and speech by their bytes", () => {
  const b = (...xs: number[]) => new Uint8Array([...xs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const s = (text: string) => new TextEncoder().encode(text.padEnd(16, "\0"));
  strictEqual(sniffAudio(toneWav()), "audio/wav");
  strictEqual(sniffAudio(b(0x1a, 0x45, 0xdf, 0xa3)), "audio/webm");
  strictEqual(sniffAudio(s("OggS")), "audio/ogg");
  strictEqual(sniffAudio(s("ID3\x04")), "audio/mpeg");
  strictEqual(sniffAudio(b(0xff, 0xfb, 0x90)), "audio/mpeg");
  strictEqual(sniffAudio(b(0xff, 0xf1, 0x50)), "audio/aac");
  strictEqual(sniffAudio(s("\0\0\0\x20ftypM4A ")), "audio/mp4");
  strictEqual(sniffAudio(s("fLaC")), "audio/flac");
  strictEqual(sniffAudio(s("<html>")), null);
  strictEqual(sniffAudio(s('{"text":1}')), null);
});

Deno.test("under start's permissions both routes reach the provider and answer", async () => {
  const fake = startFakeProvider();
  const root = await Deno.makeTempDir({ prefix: "hermes-voice-perms-" });
  await Deno.mkdir(join(root, "workspace"));
  await Deno.writeTextFile(
    join(root, "config.yaml"),
    `model:\n  provider: custom\n  default: fake-model\n  base_url: ${fake.baseUrl}\n  api_key: k\n`,
  );
  const server = await startServer(root);
  const { base, token } = server;
  try {
    const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "x-hermes-csrf-token": token, ...headers },
        body,
      });
    const settings = await post(
      "/api/settings",
      JSON.stringify({ stt_model: "fake-whisper", tts_model: "fake-tts" }),
      { "content-type": "application/json" },
    );
    strictEqual(settings.status, 200);
    await settings.body?.cancel();
    const heard = await post("/api/transcribe", recording());
    const body = await heard.json();
    strictEqual(heard.status, 200, JSON.stringify(body));
    ok(/^fake transcript: \d+ bytes of audio\/wav$/.test(body.transcript), body.transcript);
    const spoken = await post("/api/tts", JSON.stringify({ text: "Hello" }), {
      "content-type": "application/json",
    });
    strictEqual(spoken.status, 200);
    strictEqual(spoken.headers.get("content-type"), "audio/wav");
    ok((await spoken.arrayBuffer()).byteLength > 44);
  } finally {
    const err = (await server.stop()).log;
    ok(!/Requires \w+ access|NotCapable/.test(err), err.slice(-2000));
    await fake.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
