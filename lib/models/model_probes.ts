// Live discovery of one provider's model list: which URL to ask (OpenAI-style `/models`, Ollama
// `/api/tags`, Anthropic `/v1/models`), with which headers, and how to read the answer.
// Invariants: every request passes the SSRF guard (private addresses only for endpoints the user
// configured); an api key goes only to its own endpoint and never into an error message; a
// model list over 16 MB or 5000 entries is cut, never buffered without bound.
import {
  KNOWN_PROVIDERS,
  type ProviderEndpoint,
  type ResolvedProviders,
} from "../providers/provider_config.ts";
import { lookupModelInfo, type ModelInfo } from "./known_models.ts";
import {
  BlockedUrlError,
  checkUrl,
  describeUrl,
  guardedFetch,
  type HostResolver,
} from "../security/url_guard.ts";

export type ProbeKind = "openai" | "ollama" | "anthropic" | "openrouter";

/** One model-list request of one provider group. */
export interface ProbeTarget {
  /** The endpoint id, i.e. the group this probe feeds. */
  providerId: string;
  kind: ProbeKind;
  url: string;
  headers: Record<string, string>;
  /** Loopback/private addresses allowed: the user configured this endpoint. */
  allowPrivate: boolean;
  /** Probed in the serial custom chain (user-run servers) rather than in parallel (hosted APIs). */
  serial: boolean;
  /** Set when the provider needs a credential it lacks: refused before any I/O. */
  missingKey?: string;
}

/** What a finished probe learned. `aborted`: its signal fired before an answer. */
export type ProbeResult =
  | { status: "ok"; models: ModelInfo[] }
  | { status: "error"; error: string; unreachable: boolean }
  | { status: "aborted" };

export interface ProbeIo {
  fetch?: typeof fetch;
  resolve?: HostResolver;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_MODELS = 5000;
const USER_RUN = new Set(["custom", "ollama", "lmstudio"]);

const trimSlash = (s: string) => s.replace(/\/+$/, "");

/** `base` + "/" + `path`, keeping the base URL's query (`…/v1?team=a` → `…/v1/models?team=a`). */
function endpointUrl(base: string, path: string, query: Record<string, string> = {}): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return `${trimSlash(base)}/${path}`; // refused later by the SSRF check, with its message
  }
  url.pathname = `${trimSlash(url.pathname)}/${path}`;
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

function targetFor(e: ProviderEndpoint, serial: boolean): ProbeTarget {
  const known = KNOWN_PROVIDERS[e.id];
  // The endpoint's own headers first: the credential set below always wins over them.
  const headers: Record<string, string> = { ...e.headers, accept: "application/json" };
  let kind: ProbeKind = "openai";
  let url: string;
  if (e.protocol === "anthropic") {
    kind = "anthropic";
    url = endpointUrl(e.baseUrl ?? "https://api.anthropic.com/v1", "models", { limit: "1000" });
    if (e.apiKey) headers["x-api-key"] = e.apiKey;
    headers["anthropic-version"] = "2023-06-01";
  } else {
    if (e.id === "ollama") {
      kind = "ollama";
      url = endpointUrl(trimSlash(e.baseUrl ?? known.baseUrl!).replace(/\/v1$/, ""), "api/tags");
    } else {
      if (e.id === "openrouter") kind = "openrouter";
      const base = e.baseUrl ?? known?.baseUrl ??
        (e.protocol === "openai" ? "https://api.openai.com/v1" : "");
      url = endpointUrl(base, "models");
    }
    if (e.apiKey) headers.authorization = `Bearer ${e.apiKey}`;
  }
  return {
    providerId: e.id,
    kind,
    url,
    headers,
    allowPrivate: e.userConfigured,
    serial,
    ...(known?.needsKey && !e.apiKey ? { missingKey: known.keyEnv ?? "an api key" } : {}),
  };
}

/**
 * Every probe of a rebuild, in §4.11 order: the serial chain first — the active endpoint's
 * base_url, the plain `custom` provider, each named custom provider in config order, then
 * Ollama and LM Studio — and then the hosted APIs, which are probed in parallel.
 */
export function planProbeTargets(resolved: ResolvedProviders): ProbeTarget[] {
  const active = resolved.active;
  const isSerial = (e: ProviderEndpoint) =>
    USER_RUN.has(e.id) || e.id.startsWith("custom:") ||
    (e === active && !!e.baseUrl && e.baseUrl !== KNOWN_PROVIDERS[e.id]?.baseUrl);
  const rank = (e: ProviderEndpoint) =>
    e === active
      ? 0
      : e.id === "custom"
      ? 1
      : e.id.startsWith("custom:")
      ? 2
      : e.id === "ollama"
      ? 3
      : e.id === "lmstudio"
      ? 4
      : 5;
  const serial = resolved.endpoints.filter(isSerial);
  const ordered = serial.map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i).map(({ e }) => e);
  return [
    ...ordered.map((e) => targetFor(e, true)),
    ...resolved.endpoints.filter((e) => !isSerial(e)).map((e) => targetFor(e, false)),
  ];
}

/**
 * The per-rebuild memo key: the complete request URL (slashes and query kept) plus the
 * credential sent, since the same URL with another key can answer differently.
 */
export function probeKey(t: ProbeTarget): string {
  return `${t.url}\n${t.headers.authorization ?? t.headers["x-api-key"] ?? ""}`;
}

/**
 * The per-endpoint authentication and SSRF checks, run before the memo is consulted so a
 * request that would be refused is refused every time. Null when the probe may proceed.
 */
export async function admitProbe(
  t: ProbeTarget,
  io: ProbeIo,
  signal: AbortSignal,
): Promise<ProbeResult | null> {
  if (t.missingKey) {
    return { status: "error", error: `No api key: set ${t.missingKey}`, unreachable: false };
  }
  try {
    await checkUrl(t.url, { allowPrivate: t.allowPrivate, resolve: io.resolve, signal });
    return null;
  } catch (err) {
    return failure(err, t, signal);
  }
}

function failure(err: unknown, t: ProbeTarget, signal: AbortSignal): ProbeResult {
  if (signal.aborted) return { status: "aborted" };
  if (err instanceof BlockedUrlError) {
    return { status: "error", error: err.message, unreachable: false };
  }
  const where = describeUrl(new URL(t.url));
  const e = err as { message?: string; code?: string; cause?: { message?: string } };
  const text = `${e.message ?? ""} ${e.cause?.message ?? ""}`;
  if (e.code === "ENOTFOUND" || /Cannot resolve host|getaddrinfo|dns/i.test(text)) {
    return { status: "error", error: `Cannot resolve the host of ${where}`, unreachable: true };
  }
  const reason = /refused/i.test(text)
    ? "connection refused"
    : /certificate|tls|ssl|handshake/i.test(text)
    ? "TLS certificate or handshake error"
    : /reset|closed|broken pipe|EOF/i.test(text)
    ? "connection closed"
    : "connection failed";
  return { status: "error", error: `Cannot reach ${where}: ${reason}`, unreachable: true };
}

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new SyntaxError(`the model list is larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) (bytes.set(c, at), at += c.byteLength);
  return new TextDecoder().decode(bytes);
}

/** Run one probe: request the list under `signal` (its slice) and read it into models. */
export async function runProbe(
  t: ProbeTarget,
  io: ProbeIo,
  signal: AbortSignal,
): Promise<ProbeResult> {
  let res: Response;
  try {
    res = await guardedFetch(t.url, { headers: t.headers }, {
      allowPrivate: t.allowPrivate,
      resolve: io.resolve,
      fetch: io.fetch,
      signal,
    });
  } catch (err) {
    return failure(err, t, signal);
  }
  const where = describeUrl(new URL(t.url));
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    const hint = res.status === 401 || res.status === 403 ? " (check the api key)" : "";
    return {
      status: "error",
      error: `${where} answered HTTP ${res.status}${hint}`,
      unreachable: false,
    };
  }
  try {
    const models = parseModelList(t, JSON.parse(await readLimited(res)));
    return { status: "ok", models };
  } catch (err) {
    if (signal.aborted) return { status: "aborted" };
    const why = err instanceof SyntaxError ? err.message : "unexpected shape";
    return {
      status: "error",
      error: `${where} did not answer with a model list: ${why}`,
      unreachable: false,
    };
  }
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" ? v as Obj : {});
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const num = (v: unknown) => (typeof v === "number" && v > 0 ? Math.floor(v) : undefined);

/** OpenAI's list mixes embedding, audio and image models into chat ones: keep chat models. */
function isOpenAiChatModel(id: string): boolean {
  return /^(gpt-|o\d|chatgpt-)/.test(id) &&
    !/(audio|realtime|transcribe|tts|search|image|embedding|instruct|moderation)/.test(id);
}

/** Read a provider's model-list JSON into picker entries, annotated from the static table. */
export function parseModelList(t: ProbeTarget, body: unknown): ModelInfo[] {
  const root = obj(body);
  const items: unknown[] = Array.isArray(body)
    ? body
    : Array.isArray(root.data)
    ? root.data
    : Array.isArray(root.models)
    ? root.models
    : [];
  if (!Array.isArray(body) && !Array.isArray(root.data) && !Array.isArray(root.models)) {
    throw new TypeError("no data or models array");
  }
  const out: ModelInfo[] = [];
  const seen = new Set<string>();
  for (const raw of items) {
    if (out.length >= MAX_MODELS) break;
    const item = obj(raw);
    const id = typeof raw === "string" ? raw : str(item.id) ?? str(item.name) ?? str(item.model);
    if (!id || seen.has(id)) continue;
    if (t.kind === "openai" && t.providerId === "openai" && !isOpenAiChatModel(id)) continue;
    seen.add(id);
    const known = lookupModelInfo(id);
    const arch = obj(item.architecture);
    const inputs = Array.isArray(arch.input_modalities) ? arch.input_modalities : undefined;
    const params = Array.isArray(item.supported_parameters) ? item.supported_parameters : undefined;
    const context = num(item.context_length) ?? num(item.max_model_len) ??
      num(item.context_window) ?? num(item.max_input_tokens) ?? known?.context_window;
    const tools = params ? params.includes("tools") : known?.supports_tools;
    const vision = inputs ? inputs.includes("image") : known?.supports_vision;
    out.push({
      id,
      label: str(item.display_name) ?? (t.kind === "openrouter" ? str(item.name) : undefined) ??
        known?.label ?? id,
      ...(context ? { context_window: context } : {}),
      ...(tools !== undefined ? { supports_tools: tools } : {}),
      ...(vision !== undefined ? { supports_vision: vision } : {}),
    });
  }
  return out;
}
