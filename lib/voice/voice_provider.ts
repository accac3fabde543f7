// Which provider listens and speaks, and how a call to it is bounded. The preferences choose
// (`voice_provider`, else the active provider; `stt_model`/`tts_model`/`tts_server_voice`, else
// OpenAI's defaults on OpenAI itself); the client is the AI SDK's OpenAI provider on the
// endpoint's guarded fetch. Invariants: a missing or unusable provider or model is a 409
// (`voice_not_configured`, a setup to change, not a moment to wait out) that says what to set; every call has a deadline (504 past it) and a cap on the answer's size; any
// provider failure leaves as one UpstreamError naming the provider, its key redacted.
import type { AppContext } from "../server/app_context.ts";
import { ConflictError, RateLimitError, UpstreamError } from "../errors.ts";
import { type ProviderEndpoint, resolveProviders } from "../providers/provider_config.ts";
import { providerClientOptions } from "../providers/model_stream.ts";
import { toProviderFailure } from "../providers/provider_errors.ts";
import { readPreferences } from "../settings/settings.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate_limit.ts";

export type VoiceUse = "transcription" | "speech";

/** Per-app knobs (tests shorten the deadline or swap the transport). */
export interface VoiceOptions {
  /** How long a provider may take to answer one call (default 60 s). */
  timeoutMs: number;
  /** Calls per client per minute, for each of the two routes (default 30). */
  perMinute: number;
  /** Test seam: the transport under the guard (see providerClientOptions). */
  fetch?: typeof fetch;
}

const DEFAULTS: VoiceOptions = { timeoutMs: 60_000, perMinute: 30 };

interface VoiceState {
  options: VoiceOptions;
  limits: Map<VoiceUse, RateLimiter>;
}

/** One state per app (a WeakMap keyed by the app: nothing process-global). */
const states = new WeakMap<object, VoiceState>();

function stateOf(app: Pick<AppContext, "clock">): VoiceState {
  let s = states.get(app);
  if (!s) {
    s = { options: { ...DEFAULTS }, limits: new Map() };
    states.set(app, s);
  }
  return s;
}

/** Change this app's voice options (tests: a short deadline). */
export function configureVoice(app: Pick<AppContext, "clock">, opts: Partial<VoiceOptions>): void {
  const s = stateOf(app);
  s.options = { ...s.options, ...opts };
  s.limits.clear();
}

export function voiceOptions(app: Pick<AppContext, "clock">): VoiceOptions {
  return stateOf(app).options;
}

/** Count one call from `client`; past the per-minute limit it is a 429. */
export async function checkVoiceRate(
  app: Pick<AppContext, "clock">,
  use: VoiceUse,
  client: string,
): Promise<void> {
  const s = stateOf(app);
  let limiter = s.limits.get(use);
  if (!limiter) {
    limiter = createRateLimiter({
      limit: s.options.perMinute,
      windowSeconds: 60,
      clock: app.clock,
    });
    s.limits.set(use, limiter);
  }
  const decision = await limiter.hit(client);
  if (!decision.ok) {
    throw new RateLimitError(
      `Too many ${use === "speech" ? "read-aloud" : "transcription"} requests: at most ` +
        `${limiter.limit} a minute; try again in ${decision.retryAfterSeconds} s`,
      decision.retryAfterSeconds,
    );
  }
}

/** What one voice call goes to. */
export interface VoiceSetup {
  endpoint: ProviderEndpoint;
  model: string;
  /** Speech only: the server voice. */
  voice: string;
  /** Speech only: the `tts_rate` preference (1 = normal). */
  rate: number;
}

const OPENAI_URL = "https://api.openai.com/v1";
const isOpenAI = (e: ProviderEndpoint) =>
  e.id === "openai" && (!e.baseUrl || e.baseUrl.includes("api.openai.com"));

const WHAT: Record<VoiceUse, string> = {
  transcription: "Speech-to-text",
  speech: "Read aloud on the server",
};

/** Where to point the `/voice` section in an error message. */
const WHERE = "Control Center › Conversation › Voice";

/** The endpoint, model and voice the preferences choose for `use`; a 409 saying what to set. */
export async function voiceSetup(
  app: Pick<AppContext, "config" | "db" | "log">,
  use: VoiceUse,
): Promise<VoiceSetup> {
  const prefs = await readPreferences(app.db);
  const resolved = resolveProviders(app.config, app.log);
  const wanted = String(prefs.voice_provider ?? "").trim();
  const endpoint = wanted ? resolved.endpoints.find((e) => e.id === wanted) : resolved.active;
  if (!endpoint) {
    throw new ConflictError(
      wanted
        ? `${WHAT[use]} is not available: the voice provider "${wanted}" is not configured ` +
          `(choose another in ${WHERE})`
        : `${WHAT[use]} is not available: no provider is configured (add an OpenAI or ` +
          `OpenAI-compatible provider in Control Center › Providers)`,
      { code: "voice_not_configured" },
    );
  }
  if (endpoint.protocol === "anthropic") {
    throw new ConflictError(
      `${WHAT[use]} is not available: ${endpoint.label} has no ${
        use === "speech" ? "speech" : "transcription"
      } API; choose an OpenAI or OpenAI-compatible voice provider in ${WHERE}`,
      { code: "voice_not_configured" },
    );
  }
  const key = use === "speech" ? "tts_model" : "stt_model";
  const model = String(prefs[key] ?? "").trim() ||
    (isOpenAI(endpoint) ? (use === "speech" ? "tts-1" : "whisper-1") : "");
  if (!model) {
    throw new ConflictError(
      `${WHAT[use]} is not available: no ${
        use === "speech" ? "speech" : "transcription"
      } model is set for ${endpoint.label} (set one in ${WHERE})`,
      { code: "voice_not_configured" },
    );
  }
  const rate = Number(prefs.tts_rate);
  return {
    endpoint,
    model,
    voice: String(prefs.tts_server_voice ?? "").trim() || "alloy",
    rate: Number.isFinite(rate) ? rate : 1,
  };
}

/** The answer sizes a provider may send before the call is cut off. */
const MAX_ANSWER_BYTES: Record<VoiceUse, number> = {
  transcription: 1024 * 1024,
  speech: 16 * 1024 * 1024,
};

/** `fetch` whose answer bodies error out past `max` bytes (a hostile or broken provider). */
function cappedFetch(inner: typeof fetch, max: number): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (!res.body) return res;
    let total = 0;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          total += chunk.byteLength;
          if (total > max) controller.error(new Error(`answer larger than ${max} bytes`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/** The AI SDK (provider package and core), loaded on the first voice call. */
async function loadSdk() {
  const [ai, openai] = await Promise.all([import("ai"), import("@ai-sdk/openai")]);
  return { ai, createOpenAI: openai.createOpenAI };
}

/** The OpenAI provider client for `setup`'s endpoint, on its guarded, capped fetch. */
async function client(app: Pick<AppContext, "clock">, setup: VoiceSetup, use: VoiceUse) {
  const { ai, createOpenAI } = await loadSdk();
  const { fetch: guarded, headers } = providerClientOptions(
    setup.endpoint,
    voiceOptions(app).fetch,
  );
  const provider = createOpenAI({
    // Always explicit: left out, the SDK would read OPENAI_BASE_URL / OPENAI_API_KEY itself.
    baseURL: setup.endpoint.baseUrl ?? OPENAI_URL,
    apiKey: setup.endpoint.apiKey ?? "",
    fetch: cappedFetch(guarded, MAX_ANSWER_BYTES[use]),
    ...(headers ? { headers } : {}),
  });
  return { ai, provider };
}

/**
 * Run one provider call with the app's deadline (and the client's disconnect, `signal`): past
 * the deadline it is aborted and a 504; any other failure is a 502 naming the provider.
 */
async function bounded<T>(
  app: Pick<AppContext, "clock" | "config" | "log">,
  setup: VoiceSetup,
  use: VoiceUse,
  signal: AbortSignal | undefined,
  call: (sdk: Awaited<ReturnType<typeof client>>, abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { timeoutMs } = voiceOptions(app);
  const sdk = await client(app, setup, use); // loading the SDK is not the provider's time
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error("voice deadline")), timeoutMs);
  const abortSignal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  try {
    return await call(sdk, abortSignal);
  } catch (err) {
    throw voiceFailure(app, setup, use, err, deadline.signal.aborted ? timeoutMs : null);
  } finally {
    clearTimeout(timer);
  }
}

/** The 502 for an answer that is not what was asked for. */
export function garbageAnswer(
  setup: VoiceSetup,
  use: VoiceUse,
  cause?: unknown,
): UpstreamError {
  const what = use === "speech" ? "speech" : "transcription";
  return new UpstreamError(
    `${nameOf(setup.endpoint)} answered the ${what} request with something that is not ${
      use === "speech" ? "audio" : "a transcript"
    }`,
    502,
    `Check that "${setup.model}" is a ${what} model and that the provider speaks OpenAI's ` +
      `/audio/${use === "speech" ? "speech" : "transcriptions"} API.`,
    { cause },
  );
}

const nameOf = (e: ProviderEndpoint) => `${e.label}${e.baseUrl ? ` (${e.baseUrl})` : ""}`;

/** A provider failure as one clear error (key redacted; the router logs every 5xx). */
function voiceFailure(
  app: Pick<AppContext, "config" | "log">,
  setup: VoiceSetup,
  use: VoiceUse,
  err: unknown,
  timedOutAfterMs: number | null,
): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const what = use === "speech" ? "speech" : "transcription";
  if (timedOutAfterMs !== null) {
    return new UpstreamError(
      `${
        nameOf(setup.endpoint)
      } did not answer the ${what} request within ${+(timedOutAfterMs / 1000).toFixed(1)} s`,
      504,
      "The provider may be overloaded or still loading the model; try again in a moment.",
      { cause: err },
    );
  }
  const e = err as { name?: string; message?: string; statusCode?: number } | null;
  const status = e?.statusCode ?? 0;
  if (
    /JSONParseError|TypeValidationError|InvalidResponseData|NoTranscriptGenerated|NoSpeechGenerated/
      .test(e?.name ?? "") ||
    /answer larger than/.test(String(e?.message ?? err)) ||
    // A 2xx the client could not read (e.g. HTML where JSON belongs).
    (status >= 200 && status < 300)
  ) {
    return garbageAnswer(setup, use, err);
  }
  const failure = toProviderFailure(err, {
    endpoint: setup.endpoint,
    model: setup.model,
    configPath: app.config.configPath,
  });
  // The chat's hints speak of turns and the model menu; a voice call is set up elsewhere.
  const hint = failure.kind === "model_not_found"
    ? `Set another ${what} model in ${WHERE}.`
    : failure.hint && !/turn|conversation|model menu/i.test(failure.hint)
    ? failure.hint
    : `Check the voice settings in ${WHERE} and the provider's settings in Control Center › Providers.`;
  return new UpstreamError(failure.message, 502, hint, { cause: err });
}

/** Transcribe `audio` (bytes the caller checked are audio); the transcript, trimmed. */
export async function providerTranscribe(
  app: Pick<AppContext, "clock" | "config" | "db" | "log">,
  audio: Uint8Array,
  language: string | null,
  signal?: AbortSignal,
): Promise<string> {
  const setup = await voiceSetup(app, "transcription");
  const result = await bounded(
    app,
    setup,
    "transcription",
    signal,
    ({ ai, provider }, abort) =>
      ai.transcribe({
        model: provider.transcription(setup.model),
        audio,
        maxRetries: 0,
        abortSignal: abort,
        ...(language ? { providerOptions: { openai: { language } } } : {}),
      }),
  );
  if (typeof result.text !== "string") throw garbageAnswer(setup, "transcription");
  return result.text.trim();
}

/** Speak `text`: the audio bytes and the media type the provider's answer has. */
export async function providerSpeak(
  app: Pick<AppContext, "clock" | "config" | "db" | "log">,
  text: string,
  signal?: AbortSignal,
): Promise<{ audio: Uint8Array; mediaType: string }> {
  const setup = await voiceSetup(app, "speech");
  const speed = Math.min(4, Math.max(0.25, setup.rate));
  const result = await bounded(
    app,
    setup,
    "speech",
    signal,
    ({ ai, provider }, abort) =>
      ai.generateSpeech({
        model: provider.speech(setup.model),
        text,
        voice: setup.voice,
        outputFormat: "mp3",
        ...(speed !== 1 ? { speed } : {}),
        maxRetries: 0,
        abortSignal: abort,
      }),
  );
  return { audio: result.audio.uint8Array, mediaType: result.audio.mediaType };
}
