// The stored transcript (OpenAI-style rows) turned into the AI SDK's ModelMessage list that is
// sent to a provider. Invariants: every assistant tool call is followed by exactly one result
// (a run cut off mid-tool gets a synthetic "no result" so the next request is valid); orphan
// tool results and empty assistant rows are dropped; the stored transcript is never changed.
import type { ModelMessage } from "ai";
import type { StoredMessage } from "../sessions/messages.ts";
import { resolveAttachment } from "../workspace/uploads.ts";
import { sniffImage } from "../workspace/mime.ts";
import {
  BlockedUrlError,
  checkUrl,
  classifyAddress,
  describeUrl,
  type HostResolver,
  isMetadataHostname,
  parseIpv4,
} from "../security/url_guard.ts";

type AssistantPart =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };
type UserPart =
  | { type: "text"; text: string }
  | { type: "image"; image: Uint8Array | URL; mediaType?: string };

/** Where a session's uploaded files live (only files inside it are ever read). */
export interface AttachmentRoot {
  stateDir: string;
  sessionId: string;
}

const MAX_INLINE_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_INLINE_TEXT_BYTES = 200 * 1024;

/** The reference and display fields of an attachment (a name/path string or an upload row). */
export function attachmentFields(a: unknown): { ref: string; name: string; mime: string } {
  if (typeof a === "string") return { ref: a, name: a.split("/").pop() || a, mime: "" };
  const o = (a ?? {}) as Record<string, unknown>;
  const ref = String(o.path ?? o.filename ?? o.name ?? "");
  return {
    ref,
    name: String(o.filename ?? o.name ?? ref.split("/").pop() ?? "file"),
    mime: typeof o.mime === "string" ? o.mime : "",
  };
}

/** UTF-8 text of `bytes`, or null when they do not look like text (NUL bytes, invalid UTF-8). */
function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : String(content);
  return content.map((p) => (p && typeof p === "object" && "text" in p ? String(p.text) : "")).join(
    "",
  );
}

/** Parse tool-call arguments; invalid JSON becomes `{}` plus the raw text, never a throw. */
export function parseToolArgs(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === "object" && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== "string" || raw.trim() === "") return {};
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? v : { value: v };
  } catch {
    return { _raw_arguments: raw };
  }
}

/**
 * An `image_url` part (stored, or imported from another machine) as the provider will see it.
 * `data:` images are decoded here, so nothing is fetched for them. A remote URL is passed on
 * only when its host — as written AND as it resolves now — is not this machine, its network
 * or a metadata service: the provider would fetch it (a local one from here), and the SDK's
 * own download goes through the SSRF guard again (lib/providers/model_stream.ts, pinned to
 * the checked address). Anything else becomes a note for the model, never a request.
 */
export async function imageUrlPart(
  raw: string,
  resolve?: HostResolver,
): Promise<UserPart | null> {
  const part = staticImageUrlPart(raw);
  if (part?.type !== "image" || !(part.image instanceof URL)) return part;
  const url = part.image;
  try {
    await checkUrl(url, { allowPrivate: false, resolve, signal: AbortSignal.timeout(3000) });
  } catch (err) {
    const why = err instanceof BlockedUrlError
      ? err.message.replace(/^Refusing [^:]*: /, "")
      : "its host could not be resolved";
    return { type: "text", text: `[Image ${describeUrl(url)} not sent: ${why}]` };
  }
  return part;
}

function staticImageUrlPart(raw: string): UserPart | null {
  const data = raw.match(/^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]*)$/i);
  if (data) {
    if (data[2].length > (MAX_INLINE_IMAGE_BYTES * 4) / 3 + 4) return null;
    try {
      const bytes = Uint8Array.from(atob(data[2].replace(/\s+/g, "")), (c) => c.charCodeAt(0));
      return { type: "image", image: bytes, mediaType: data[1].toLowerCase() };
    } catch {
      return null;
    }
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const refused = (why: string): UserPart => ({
    type: "text",
    text: `[Image ${describeUrl(url)} not sent: ${why}]`,
  });
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return url.protocol === "data:" ? null : refused("only http(s) and data: images are sent");
  }
  if (url.username || url.password) return refused("credentials in URLs are not allowed");
  const host = url.hostname.replace(/\.$/, "").toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || isMetadataHostname(host)) {
    return refused("its host is this machine or a metadata service");
  }
  if (parseIpv4(host) || host.includes(":")) {
    const { cls, why } = classifyAddress(host);
    if (cls !== "public") return refused(`its host is ${why}`);
  }
  return { type: "image", image: url };
}

async function userContent(m: StoredMessage, root?: AttachmentRoot): Promise<string | UserPart[]> {
  const parts: UserPart[] = [];
  if (Array.isArray(m.content)) {
    for (const p of m.content as Array<Record<string, unknown>>) {
      if (p?.type === "text" && typeof p.text === "string") {
        parts.push({ type: "text", text: p.text });
      } else if (p?.type === "image_url") {
        const url = (p.image_url as { url?: string } | undefined)?.url;
        const part = typeof url === "string" ? await imageUrlPart(url) : null;
        if (part) parts.push(part);
      }
    }
  } else if (m.content) {
    parts.push({ type: "text", text: String(m.content) });
  }
  const notes: string[] = [];
  for (const a of (m.attachments ?? []) as unknown[]) {
    const att = attachmentFields(a);
    const path = root
      ? await resolveAttachment(root.stateDir, root.sessionId, att.ref).catch(() => null)
      : null;
    const bytes = path ? await Deno.readFile(path).catch(() => null) : null;
    if (!bytes) {
      notes.push(`[Attached file ${att.name} is no longer available]`);
      continue;
    }
    const image = sniffImage(bytes.subarray(0, 64));
    if (image && bytes.length <= MAX_INLINE_IMAGE_BYTES) {
      parts.push({ type: "image", image: bytes, mediaType: image });
      continue;
    }
    const text = bytes.length <= MAX_INLINE_TEXT_BYTES ? asText(bytes) : null;
    if (text !== null) {
      notes.push(`[Attached file ${att.name}]\n\`\`\`\n${text}\n\`\`\``);
    } else {
      notes.push(
        `[Attached file ${att.name} (${
          att.mime || "binary"
        }, ${bytes.length} bytes): its contents ` +
          `cannot be shown here]`,
      );
    }
  }
  if (notes.length) parts.push({ type: "text", text: notes.join("\n") });
  if (parts.every((p) => p.type === "text")) {
    return parts.map((p) => (p as { text: string }).text).join("\n");
  }
  return parts;
}

/**
 * Convert stored messages to provider messages. Reasoning is not sent back (providers do not
 * need it and it costs tokens); system rows are skipped (the system prompt is separate).
 */
export async function toModelMessages(
  stored: StoredMessage[],
  root?: AttachmentRoot,
): Promise<ModelMessage[]> {
  const out: ModelMessage[] = [];
  const open = new Map<string, string>(); // tool_call_id → tool name, awaiting a result
  const closeOpen = () => {
    if (open.size === 0) return;
    out.push({
      role: "tool",
      content: [...open].map(([toolCallId, toolName]) => ({
        type: "tool-result" as const,
        toolCallId,
        toolName,
        output: {
          type: "text" as const,
          value: "[no result: the run was interrupted before this tool finished]",
        },
      })),
    });
    open.clear();
  };
  for (const m of stored) {
    if (m.role === "system") continue;
    if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      const name = open.get(id);
      if (name === undefined) continue; // orphan result
      open.delete(id);
      out.push({
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: id,
          toolName: m.name ?? name,
          output: { type: "text", value: text(m.content) },
        }],
      });
      continue;
    }
    closeOpen();
    if (m.role === "user") {
      out.push({ role: "user", content: await userContent(m, root) } as ModelMessage);
      continue;
    }
    const parts: AssistantPart[] = [];
    const body = text(m.content);
    if (body) parts.push({ type: "text", text: body });
    for (const tc of m.tool_calls ?? []) {
      const name = tc.function?.name ?? "unknown";
      parts.push({
        type: "tool-call",
        toolCallId: tc.id,
        toolName: name,
        input: parseToolArgs(tc.function?.arguments),
      });
      open.set(tc.id, name);
    }
    if (parts.length === 0) continue;
    out.push({ role: "assistant", content: parts });
  }
  closeOpen();
  return out;
}

/** Approximate size of a message list in characters (for token estimates). */
export function messagesChars(messages: ModelMessage[]): number {
  let n = 0;
  for (const m of messages) {
    if (typeof m.content === "string") n += m.content.length;
    else {
      for (const p of m.content as Array<Record<string, unknown>>) {
        if (typeof p.text === "string") n += p.text.length;
        else if (p.type === "tool-call") n += JSON.stringify(p.input ?? {}).length + 20;
        else if (p.type === "tool-result") {
          const o = p.output as { value?: unknown };
          n += typeof o?.value === "string"
            ? o.value.length
            : JSON.stringify(o?.value ?? "").length;
        } else if (p.type === "image") n += 4000; // images cost roughly 1k tokens
      }
    }
  }
  return n;
}
