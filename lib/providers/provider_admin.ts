// Providers the user manages: list (keys masked), create/update and delete, written to
// config.yaml in the shape lib/providers/provider_config.ts reads (`providers.<id>`,
// `custom_providers[]`, and `model.*` for the active provider). Invariants: a key or header
// value is only ever returned masked, and a mask sent back keeps the stored secret; a base_url
// passes the SSRF guard before it is written; every edit goes through the comment-keeping writer.
import { type Document, isMap, isScalar, isSeq, type YAMLMap, type YAMLSeq } from "yaml";
import { z } from "zod";
import { type AppConfig, expandEnvRefs } from "../settings/config.ts";
import {
  type ConfigHost,
  detachAliases,
  editConfig,
  setMasked,
} from "../settings/config_writer.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { isMaskedSecret } from "../security/secrets.ts";
import { checkEndpointUrl } from "../security/url_guard.ts";
import { isEchoedMask, maskMap, maskValue } from "../mcp/config.ts";
import { KNOWN_PROVIDERS, type ProviderEndpoint, resolveProviders } from "./provider_config.ts";
import { admitProbe, planProbeTargets, type ProbeIo, runProbe } from "../models/model_probes.ts";

/** One provider as the Providers panel and `GET /api/providers` show it. */
export interface ProviderRow {
  /** "openai" … "custom", or "custom:<name>" for a named OpenAI-compatible endpoint. */
  id: string;
  display_name: string;
  kind: "builtin" | "custom";
  protocol: ProviderEndpoint["protocol"];
  /** Named in config.yaml. */
  configured: boolean;
  /** The provider new conversations use. */
  active: boolean;
  /** Resolves to an endpoint a turn can be sent to. */
  usable: boolean;
  has_key: boolean;
  needs_key: boolean;
  /** The stored key, masked (a `${ENV}` reference is shown as written); null when none stored. */
  api_key: string | null;
  key_source: "config_yaml" | "environment" | "none";
  /** The environment variable consulted when no key is stored. */
  key_env: string | null;
  base_url: string | null;
  default_base_url: string | null;
  /** Extra headers, values masked. */
  headers: Record<string, string>;
  /** Models known for it (the configured list; the active one adds its default model). */
  models: Array<{ id: string; label: string }>;
  models_total: number;
  /** The `models:` list as written in config.yaml (what the edit form shows). */
  config_models: string[];
  /** Managed from this console (every listed provider is). */
  configurable: true;
  is_custom: boolean;
}

export interface ProvidersList {
  providers: ProviderRow[];
  active_provider: string | null;
  default_model: string | null;
  issue: string | null;
}

type Obj = Record<string, unknown>;
const asObj = (
  v: unknown,
): Obj => (v && typeof v === "object" && !Array.isArray(v) ? v as Obj : {});
const asStr = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
const strMap = (v: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(asObj(v)).filter(([, h]) => typeof h === "string" || typeof h === "number")
      .map(([k, h]) => [k, String(h)]),
  );
const strList = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map((m) => typeof m === "string" ? m : asStr(asObj(m).id) ?? "").filter(Boolean)
    : [];

/** Custom provider names: shown in menus and part of the id `custom:<name>`. */
export const CUSTOM_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
const HEADER_NAME_RE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
/** Keys and header values: one line of visible characters (a newline would forge YAML/HTTP). */
const ONE_TOKEN_RE = /^[\x21-\x7e]+$/;
const HEADER_VALUE_RE = /^[\x20-\x7e]*$/;

/** The body of `POST /api/providers` (and of Test connection, for values not yet saved). */
export const providerBodySchema = z.strictObject({
  provider: z.string().trim().min(1).max(200),
  /** For `provider: "custom"`: the name of a named custom endpoint (`custom_providers`). */
  name: z.string().trim().max(64).optional(),
  base_url: z.string().trim().max(2048).nullable().optional(),
  api_key: z.string().trim().max(4096).refine(
    (k) => k === "" || isMaskedSecret(k) || ONE_TOKEN_RE.test(k),
    {
      message: "an API key is one line of visible characters, without spaces or newlines",
    },
  ).nullable().optional(),
  headers: z.record(
    z.string().regex(HEADER_NAME_RE, "a header name is letters, digits and -_.!#$%&'*+^`|~"),
    z.string().max(4096).regex(HEADER_VALUE_RE, "a header value is one line of text"),
  ).refine((h) => Object.keys(h).length <= 32, { message: "at most 32 headers" }).optional(),
  models: z.array(z.string().trim().min(1).max(200)).max(500).optional(),
});
export type ProviderBody = z.infer<typeof providerBodySchema>;

/** Where a provider lives in the file: a built-in id, or a named `custom_providers` entry. */
export type ProviderRef = { kind: "builtin"; id: string } | { kind: "custom"; name: string };

/** Parse an id (`openai`, `custom:<name>`) or `{provider: "custom", name}` into a reference. */
export function providerRef(provider: string, name?: string): ProviderRef {
  const id = provider.trim();
  if (name !== undefined && name !== "") {
    if (id !== "custom") {
      throw new ValidationError(
        `Invalid field "name": only a "custom" provider has a name`,
        "name",
      );
    }
    return customRef(name);
  }
  if (id.toLowerCase().startsWith("custom:")) return customRef(id.slice(7));
  const lower = id.toLowerCase();
  if (!(lower in KNOWN_PROVIDERS)) throw new NotFoundError(`Unknown provider "${id}"`);
  return { kind: "builtin", id: lower };
}

function customRef(raw: string): ProviderRef {
  const name = raw.trim();
  if (!CUSTOM_NAME_RE.test(name)) {
    throw new ValidationError(
      `Invalid field "name": "${name}" must be 1-64 letters, digits, spaces, ".", "_" or "-"`,
      "name",
    );
  }
  return { kind: "custom", name };
}

export const refId = (r: ProviderRef) => r.kind === "builtin" ? r.id : `custom:${r.name}`;

/** The raw `model` section (a bare `model: <id>` string is its default). */
function modelSection(file: Obj): Obj {
  return typeof file.model === "string" ? { default: file.model } : asObj(file.model);
}

/** The id config.yaml makes active (explicit `model.provider`, or "custom" for a bare base_url). */
function activeIdOf(file: Obj): string | undefined {
  const m = modelSection(file);
  return asStr(m.provider)?.toLowerCase() ?? (asStr(m.base_url) ? "custom" : undefined);
}

function customEntries(file: Obj): Obj[] {
  return Array.isArray(file.custom_providers) ? file.custom_providers.map(asObj) : [];
}

function keyFromEnv(env: Readonly<Record<string, string>>, name: string | undefined) {
  return name ? asStr(env[name]) : undefined;
}

function modelFields(models: string[], configModels: string[]) {
  return {
    models: models.map((id) => ({ id, label: id })),
    models_total: models.length,
    config_models: configModels,
    configurable: true as const,
  };
}

/** Every known provider (configured or not) and every named custom endpoint, active first. */
export function listProviders(config: AppConfig): ProvidersList {
  const resolved = resolveProviders(config);
  const file = config.file;
  const env = config.env;
  const providers = asObj(file.providers);
  const model = modelSection(file);
  const activeId = resolved.activeProviderId ?? activeIdOf(file) ?? null;
  const rows: ProviderRow[] = [];

  for (const [id, known] of Object.entries(KNOWN_PROVIDERS)) {
    const section = asObj(providers[id]);
    const isActive = activeIdOf(file) === id;
    const configured = id in providers || isActive;
    if (id === "custom" && !configured) continue;
    const storedKey = (isActive ? asStr(model.api_key) : undefined) ?? asStr(section.api_key);
    const keyEnv = asStr(section.key_env) ?? known.keyEnv;
    const endpoint = resolved.endpoints.find((e) => e.id === id);
    const baseUrl = (isActive ? asStr(model.base_url) : undefined) ?? asStr(section.base_url);
    rows.push({
      id,
      display_name: known.label,
      kind: "builtin",
      protocol: known.protocol,
      configured,
      active: activeId === id,
      usable: !!endpoint,
      has_key: !!endpoint?.apiKey ||
        !!(storedKey && expandEnvRefs(storedKey, env).trim()) || !!keyFromEnv(env, keyEnv),
      needs_key: known.needsKey,
      api_key: storedKey ? maskValue(storedKey) : null,
      key_source: storedKey ? "config_yaml" : keyFromEnv(env, keyEnv) ? "environment" : "none",
      key_env: keyEnv ?? null,
      base_url: baseUrl ?? known.baseUrl ?? null,
      default_base_url: known.baseUrl ?? null,
      headers: maskMap(strMap(section.headers)),
      ...modelFields(endpoint?.models ?? strList(section.models), strList(section.models)),
      is_custom: false,
    });
  }

  for (const c of customEntries(file)) {
    const name = asStr(c.name);
    if (!name) continue;
    const id = `custom:${name}`;
    const endpoint = resolved.endpoints.find((e) => e.id === id);
    const storedKey = asStr(c.api_key);
    const keyEnv = asStr(c.key_env);
    rows.push({
      id,
      display_name: name,
      kind: "custom",
      protocol: "openai-compatible",
      configured: true,
      active: activeId === id.toLowerCase() || activeId === id,
      usable: !!endpoint,
      has_key: !!endpoint?.apiKey,
      needs_key: false,
      api_key: storedKey ? maskValue(storedKey) : null,
      key_source: storedKey ? "config_yaml" : keyFromEnv(env, keyEnv) ? "environment" : "none",
      key_env: keyEnv ?? null,
      base_url: asStr(c.base_url) ?? null,
      default_base_url: null,
      headers: maskMap(strMap(c.headers)),
      ...modelFields(strList(c.models), strList(c.models)),
      is_custom: true,
    });
  }

  const rank = (r: ProviderRow) => r.active ? 0 : r.configured ? 1 : r.has_key ? 2 : 3;
  rows.sort((a, b) => rank(a) - rank(b));
  return {
    providers: rows,
    active_provider: activeId,
    default_model: resolved.defaultModel,
    issue: resolved.issue ?? null,
  };
}

/** The row of one provider, or a 404 when it is neither built in nor configured. */
export function getProvider(config: AppConfig, provider: string): ProviderRow {
  const id = refId(providerRef(provider));
  const row = listProviders(config).providers.find((r) => r.id === id);
  if (!row) throw new NotFoundError(`Unknown provider "${provider}"`);
  return row;
}

/** A base_url the console will send a key to: http(s), no credentials, not a refused address. */
export async function checkBaseUrl(raw: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`Invalid field "base_url": "${raw}" is not a URL`, "base_url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ValidationError(`Invalid field "base_url": must be an http(s) URL`, "base_url");
  }
  await checkEndpointUrl(raw, "base_url");
}

function ensureMap(doc: Document, path: string[], configPath: string): void {
  const node = doc.getIn(path, true);
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) {
    doc.setIn(path, doc.createNode({}));
  } else if (!isMap(node)) {
    throw new ValidationError(
      `"${path.join(".")}" in ${configPath} must be a mapping; it was not changed`,
    );
  } else if ((node as YAMLMap).items.length === 0) (node as YAMLMap).flow = false;
}

/** Write the fields of `body` under `base` (api_key and base_url at `where(field)`). */
function writeFields(
  doc: Document,
  base: (string | number)[],
  body: ProviderBody,
  where: (field: "api_key" | "base_url") => (string | number)[],
): void {
  if (body.base_url !== undefined) {
    if (!body.base_url) doc.deleteIn(where("base_url"));
    else doc.setIn(where("base_url"), body.base_url);
  }
  if (body.api_key !== undefined) {
    const path = where("api_key");
    if (!body.api_key) doc.deleteIn(path);
    else if (isMaskedSecret(body.api_key) && typeof doc.getIn(path) !== "string") {
      throw new ValidationError(
        `Invalid field "api_key": paste the key itself (no key is stored to keep)`,
        "api_key",
      );
    } else setMasked(doc, path, body.api_key);
  }
  if (body.headers !== undefined) {
    const path = [...base, "headers"];
    if (Object.keys(body.headers).length === 0) doc.deleteIn(path);
    else {
      if (!isMap(doc.getIn(path, true))) doc.setIn(path, doc.createNode({}));
      const map = doc.getIn(path, true) as YAMLMap;
      for (const p of [...map.items]) {
        const k = String(isScalar(p.key) ? p.key.value : p.key);
        if (!(k in body.headers)) doc.deleteIn([...path, k]);
      }
      for (const [k, v] of Object.entries(body.headers)) {
        setMasked(doc, [...path, k], v, { isMasked: isEchoedMask });
      }
    }
  }
  if (body.models !== undefined) {
    if (body.models.length === 0) doc.deleteIn([...base, "models"]);
    else doc.setIn([...base, "models"], doc.createNode([...new Set(body.models)]));
  }
}

function findCustom(doc: Document, name: string): number {
  const seq = doc.get("custom_providers", true);
  if (!isSeq(seq)) return -1;
  return (seq as YAMLSeq).items.findIndex((item) => {
    const n = isMap(item) ? (item as YAMLMap).get("name") : undefined;
    return typeof n === "string" && n.trim() === name;
  });
}

/**
 * Create or update a provider. Absent fields are kept; `null`/"" removes one; a masked key
 * or header value sent back keeps the stored secret. For the active provider, a key or
 * base_url already set under `model` is updated there (that is where it is read first).
 */
export async function saveProvider(
  host: ConfigHost,
  body: ProviderBody,
): Promise<{ id: string; created: boolean }> {
  const ref = providerRef(body.provider, body.name);
  if (body.base_url) await checkBaseUrl(body.base_url);
  const configPath = host.config.configPath;
  const created = await editConfig(host, (doc) => {
    if (ref.kind === "builtin") {
      detachAliases(doc, ["providers", ref.id]);
      ensureMap(doc, ["providers"], configPath);
      const base = ["providers", ref.id];
      const existed = doc.hasIn(base);
      if (!isMap(doc.getIn(base, true))) doc.setIn(base, doc.createNode({}));
      const raw = doc.toJS() as Obj;
      const active = activeIdOf(asObj(raw)) === ref.id;
      const model = modelSection(asObj(raw));
      if (active && isMap(doc.get("model", true))) detachAliases(doc, ["model"]);
      writeFields(
        doc,
        base,
        body,
        (field) =>
          active && isMap(doc.get("model", true)) && model[field] !== undefined
            ? ["model", field]
            : [...base, field],
      );
      // Everything went under `model`: leave no empty `providers.<id>` behind.
      const entry = doc.getIn(base, true);
      if (!existed && active && isMap(entry) && (entry as YAMLMap).items.length === 0) {
        doc.deleteIn(base);
        const section = doc.get("providers", true);
        if (isMap(section) && (section as YAMLMap).items.length === 0) doc.delete("providers");
        return false;
      }
      return !existed;
    }
    let index = findCustom(doc, ref.name);
    const existed = index >= 0;
    if (!existed) {
      if (!body.base_url) {
        throw new ValidationError(
          `Invalid field "base_url": a custom provider needs one`,
          "base_url",
        );
      }
      const seq = doc.get("custom_providers", true);
      if (seq !== undefined && !isSeq(seq) && !(isScalar(seq) && seq.value === null)) {
        throw new ValidationError(
          `"custom_providers" in ${configPath} must be a list; it was not changed`,
        );
      }
      if (!isSeq(seq)) doc.set("custom_providers", doc.createNode([]));
      (doc.get("custom_providers", true) as YAMLSeq).flow = false;
      (doc.get("custom_providers", true) as YAMLSeq).add(doc.createNode({ name: ref.name }));
      index = findCustom(doc, ref.name);
    } else if (body.base_url === null || body.base_url === "") {
      throw new ValidationError(
        `Invalid field "base_url": a custom provider needs one`,
        "base_url",
      );
    }
    detachAliases(doc, ["custom_providers", index]);
    const base = ["custom_providers", index];
    writeFields(doc, base, body, (field) => [...base, field]);
    return !existed;
  });
  return { id: refId(ref), created };
}

/** Remove a provider from config.yaml: 404 when not configured, 409 for the active one. */
export async function deleteProvider(host: ConfigHost, provider: string): Promise<string> {
  const ref = providerRef(provider);
  const id = refId(ref);
  const active = activeIdOf(host.config.file);
  if (active !== undefined && active === id.toLowerCase()) {
    throw new ConflictError(
      `Provider "${id}" is the active provider: choose another default model first`,
    );
  }
  await editConfig(host, (doc) => {
    if (ref.kind === "builtin") {
      if (!doc.hasIn(["providers", ref.id])) {
        throw new NotFoundError(`Provider "${id}" is not configured`);
      }
      detachAliases(doc, ["providers", ref.id]);
      doc.deleteIn(["providers", ref.id]);
      return;
    }
    const index = findCustom(doc, ref.name);
    if (index < 0) throw new NotFoundError(`Provider "${id}" is not configured`);
    detachAliases(doc, ["custom_providers", index]);
    doc.deleteIn(["custom_providers", index]);
    const seq = doc.get("custom_providers", true);
    if (isSeq(seq) && (seq as YAMLSeq).items.length === 0) doc.delete("custom_providers");
  });
  return id;
}

/**
 * The endpoint "Test connection" probes: the saved provider with the form's unsaved values
 * laid over it (a masked key means the stored one). The base_url is checked like a write.
 */
export async function endpointForTest(
  config: AppConfig,
  body: ProviderBody,
): Promise<ProviderEndpoint> {
  const ref = providerRef(body.provider, body.name);
  const id = refId(ref);
  if (body.base_url) await checkBaseUrl(body.base_url);
  const resolved = resolveProviders(config);
  const saved = resolved.endpoints.find((e) => e.id === id);
  const known = ref.kind === "builtin" ? KNOWN_PROVIDERS[ref.id] : undefined;
  const stored = ref.kind === "builtin"
    ? asObj(asObj(config.file.providers)[ref.id])
    : customEntries(config.file).find((c) => asStr(c.name) === ref.name) ?? {};
  const expand = (v: string | undefined) =>
    v === undefined ? undefined : asStr(expandEnvRefs(v, config.env));
  const baseUrl = (body.base_url || saved?.baseUrl || expand(asStr(stored.base_url))) ??
    known?.baseUrl;
  if (!baseUrl && known?.protocol === "openai-compatible") {
    throw new ValidationError(`Invalid field "base_url": give the endpoint's base URL`, "base_url");
  }
  const keyEnv = asStr(stored.key_env) ?? known?.keyEnv;
  // Stored secrets (and `${ENV}` values) go only to the stored endpoint: a test against a URL
  // typed in the form sends only what was typed with it.
  const savedUrl = saved?.baseUrl ?? expand(asStr(stored.base_url)) ?? known?.baseUrl;
  const trusted = !body.base_url || body.base_url === savedUrl;
  const typed = (v: string) => trusted ? expandEnvRefs(v, config.env) : v;
  const apiKey = body.api_key && !isMaskedSecret(body.api_key)
    ? asStr(typed(body.api_key))
    : body.api_key === "" || body.api_key === null || !trusted
    ? undefined
    : saved?.apiKey ?? expand(asStr(stored.api_key)) ?? keyFromEnv(config.env, keyEnv);
  const storedHeaders = strMap(stored.headers);
  const headers = body.headers === undefined
    ? (trusted ? saved?.headers ?? storedHeaders : {})
    : Object.fromEntries(
      Object.entries(body.headers).filter(([k, v]) => trusted || !isEchoedMask(v, storedHeaders[k]))
        .map(([k, v]) => [
          k,
          isEchoedMask(v, storedHeaders[k])
            ? expandEnvRefs(storedHeaders[k], config.env)
            : typed(v),
        ]),
    );
  return {
    id,
    protocol: known?.protocol ?? "openai-compatible",
    label: known?.label ?? (ref.kind === "custom" ? ref.name : id),
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(headers && Object.keys(headers).length ? { headers } : {}),
    models: [],
    userConfigured: true,
  };
}

/** What a connection test (or a live model list) found. */
export type ConnectionResult =
  | { ok: true; models: Array<{ id: string; label: string }> }
  | { ok: false; error: string; unreachable: boolean };

/**
 * Ask the endpoint for its model list through the guarded probe of the model catalog
 * (lib/models/model_probes.ts): same URL rules, same SSRF checks, same size limits.
 */
export async function probeEndpoint(
  endpoint: ProviderEndpoint,
  io: ProbeIo = {},
  timeoutMs = 10_000,
): Promise<ConnectionResult> {
  const [target] = planProbeTargets({
    active: null,
    activeProviderId: null,
    defaultModel: null,
    endpoints: [endpoint],
  });
  const signal = AbortSignal.timeout(timeoutMs);
  const result = await admitProbe(target, io, signal) ?? await runProbe(target, io, signal);
  if (result.status === "ok") {
    return { ok: true, models: result.models.map((m) => ({ id: m.id, label: m.label || m.id })) };
  }
  if (result.status === "aborted") {
    return { ok: false, error: `No answer within ${timeoutMs / 1000} s`, unreachable: true };
  }
  return { ok: false, error: result.error, unreachable: result.unreachable };
}
