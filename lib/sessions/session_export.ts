// Session export (JSON, Markdown, HTML, a JSONL trace: lib/sessions/session_trace.ts) and import. Invariants: a JSON export imported back
// yields the same messages (order, content, timestamps, every extra field) and metadata,
// under a new id; HTML exports escape all message text, so a transcript cannot inject markup.
import { z } from "zod";
import type { AsyncQueries } from "../storage/db.ts";
import { ValidationError } from "../errors.ts";
import type { Clock } from "../ids.ts";
import { contentText, type StoredMessage } from "./messages.ts";
import { restoreSession } from "./session_copies.ts";
import { sessionToTrace } from "./session_trace.ts";
import {
  type FullSession,
  fullSession,
  type SessionRow,
  type SessionToolCall,
} from "./sessions.ts";

export type ExportFormat = "json" | "md" | "html" | "jsonl";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["json", "md", "html", "jsonl"];

/** Marks a file as ours; import also accepts any object with a `messages` array. */
export const EXPORT_MARKER = "hermes-console-session";

export interface ExportFile {
  filename: string;
  contentType: string;
  body: string;
}

/** Render a session in `format` as a downloadable file named `hermes-<sid>.<ext>`. */
export async function exportSession(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
  format: ExportFormat,
): Promise<ExportFile> {
  const session = await fullSession(db, sessionId);
  const filename = `hermes-${session.session_id}.${format}`;
  if (format === "md") {
    return { filename, contentType: "text/markdown; charset=utf-8", body: toMarkdown(session) };
  }
  if (format === "html") {
    return { filename, contentType: "text/html; charset=utf-8", body: toHtml(session) };
  }
  if (format === "jsonl") {
    return {
      filename,
      contentType: "application/x-ndjson; charset=utf-8",
      body: sessionToTrace(session, clock()),
    };
  }
  const doc = { format: EXPORT_MARKER, version: 1, exported_at: clock(), ...session };
  return {
    filename,
    contentType: "application/json; charset=utf-8",
    body: JSON.stringify(doc, null, 2),
  };
}

function isoTime(epochSeconds: number | null | undefined): string {
  if (typeof epochSeconds !== "number" || !Number.isFinite(epochSeconds)) return "";
  return new Date(epochSeconds * 1000).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

const ROLE_LABEL: Record<string, string> = {
  user: "User",
  assistant: "Assistant",
  tool: "Tool result",
  system: "System",
};

function fence(text: string, lang = ""): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function toolCallArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

function metaLines(s: SessionRow): string[] {
  return [
    `Session: ${s.session_id}`,
    `Model: ${s.model ?? "default"}${s.model_provider ? ` (${s.model_provider})` : ""}`,
    `Workspace: ${s.workspace}`,
    `Created: ${isoTime(s.created_at)}`,
    `Messages: ${s.message_count}`,
    `Tokens: ${s.input_tokens} in / ${s.output_tokens} out` +
    (s.estimated_cost != null ? ` · $${s.estimated_cost.toFixed(4)}` : ""),
  ];
}

function markdownMessage(m: StoredMessage): string {
  const label = ROLE_LABEL[m.role] ?? m.role;
  const name = m.role === "tool" && m.name ? ` · ${m.name}` : "";
  const parts = [`## ${label}${name} · ${isoTime(m.timestamp)}`];
  if (m.reasoning) {
    parts.push(`<details><summary>Reasoning</summary>\n\n${m.reasoning}\n\n</details>`);
  }
  const text = contentText(m.content);
  if (text) parts.push(m.role === "tool" ? fence(text) : text);
  for (const a of m.attachments ?? []) {
    const att = a as { name?: string; filename?: string; path?: string };
    parts.push(`📎 ${att.filename ?? att.name ?? att.path ?? "attachment"}`);
  }
  for (const tc of m.tool_calls ?? []) {
    parts.push(
      `**Tool call** \`${tc.function?.name}\`\n\n${
        fence(toolCallArgs(tc.function?.arguments ?? ""), "json")
      }`,
    );
  }
  return parts.join("\n\n");
}

/** A readable Markdown transcript (message text is Markdown already, so it is kept as is). */
export function toMarkdown(s: FullSession): string {
  const head = [`# ${s.title}`, "", ...metaLines(s).map((l) => `- ${l}`), "", "---", ""];
  return head.join("\n") + s.messages.map(markdownMessage).join("\n\n---\n\n") + "\n";
}

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

const HTML_STYLE = `
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1f2328;background:#fff}
h1{font-size:1.5rem;margin:0 0 .5rem}
.meta{color:#59636e;font-size:.85rem;margin:0 0 1.5rem;padding:0;list-style:none}
.msg{border:1px solid #d1d9e0;border-radius:8px;margin:0 0 1rem;padding:.75rem 1rem}
.msg.user{background:#f6f8fa}
.msg header{font-weight:600;font-size:.8rem;color:#59636e;margin-bottom:.4rem}
.text,pre{white-space:pre-wrap;word-wrap:break-word;margin:0}
pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:.5rem;border-radius:6px;margin-top:.5rem}
details{margin:.25rem 0 .5rem;color:#59636e}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}.msg{border-color:#30363d}.msg.user,pre{background:#161b22}}
`;

function htmlMessage(m: StoredMessage): string {
  const label = ROLE_LABEL[m.role] ?? m.role;
  const name = m.role === "tool" && m.name ? ` · ${m.name}` : "";
  const out = [
    `<section class="msg ${escapeHtml(m.role)}">`,
    `<header>${escapeHtml(label + name)} · ${escapeHtml(isoTime(m.timestamp))}</header>`,
  ];
  if (m.reasoning) {
    out.push(
      `<details><summary>Reasoning</summary><div class="text">${
        escapeHtml(m.reasoning)
      }</div></details>`,
    );
  }
  const text = contentText(m.content);
  if (text) {
    out.push(
      m.role === "tool"
        ? `<pre>${escapeHtml(text)}</pre>`
        : `<div class="text">${escapeHtml(text)}</div>`,
    );
  }
  for (const tc of m.tool_calls ?? []) {
    out.push(
      `<pre>${
        escapeHtml(`${tc.function?.name}(${toolCallArgs(tc.function?.arguments ?? "")})`)
      }</pre>`,
    );
  }
  out.push("</section>");
  return out.join("\n");
}

/** A self-contained HTML page: no scripts, every piece of text escaped. */
export function toHtml(s: FullSession): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(s.title)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<h1>${escapeHtml(s.title)}</h1>
<ul class="meta">${metaLines(s).map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>
${s.messages.map(htmlMessage).join("\n")}
</body>
</html>
`;
}

const ImportMessage = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
  timestamp: z.number().finite().optional(),
  tool_calls: z.array(z.looseObject({})).nullable().optional(),
  tool_call_id: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  reasoning: z.string().nullable().optional(),
  attachments: z.array(z.unknown()).nullable().optional(),
});

const ImportToolCall = z.object({
  tool_call_id: z.string().min(1),
  turn_id: z.string().nullable().optional(),
  name: z.string(),
  args: z.unknown().optional(),
  status: z.string(),
  result: z.string().nullable().optional(),
  started_at: z.number().finite(),
  duration: z.number().finite().nullable().optional(),
});

/** The import body: a JSON export of ours, or any object with a `messages` array. */
export const ImportBody = z.looseObject({
  messages: z.array(ImportMessage, { error: "messages must be an array of messages" }),
  title: z.string().nullable().optional(),
  workspace: z.string().nullable().optional(),
  model: z.string().nullable().optional(),
  model_provider: z.string().nullable().optional(),
  created_at: z.number().finite().optional(),
  updated_at: z.number().finite().optional(),
  pinned: z.boolean().optional(),
  archived: z.boolean().optional(),
  project_id: z.string().nullable().optional(),
  parent_session_id: z.string().nullable().optional(),
  input_tokens: z.number().int().nonnegative().optional(),
  output_tokens: z.number().int().nonnegative().optional(),
  estimated_cost: z.number().finite().nullable().optional(),
  tool_calls: z.array(ImportToolCall).optional(),
});
export type ImportBody = z.infer<typeof ImportBody>;

/** Fields that describe the copy being exported, not the conversation: never imported. */
const NOT_MESSAGE_FIELDS = new Set(["idx"]);

/** Normalize imported messages: positions 0..n-1, null fields dropped, extras kept. */
export function importedMessages(body: ImportBody, now: number): StoredMessage[] {
  return body.messages.map((raw, i) => {
    const msg: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) {
      if (v !== null && v !== undefined && !NOT_MESSAGE_FIELDS.has(k)) msg[k] = v;
    }
    msg.content = raw.content ?? "";
    msg.timestamp = raw.timestamp ?? now;
    msg.idx = i;
    return msg as StoredMessage;
  });
}

export interface ImportContext {
  db: AsyncQueries;
  clock: Clock;
  /** The workspace to use: the imported one when trusted, else the default. */
  workspace: string;
  /** Whether `project_id` names an existing project (unknown ones are dropped). */
  projectExists(id: string): Promise<boolean>;
  /** Whether `parent_session_id` names an existing session (else the link is dropped). */
  sessionExists(id: string): Promise<boolean>;
}

/** Create a new session from an import body, in one transaction. */
export async function importSession(ctx: ImportContext, body: ImportBody): Promise<SessionRow> {
  if (!Array.isArray(body.messages)) {
    throw new ValidationError("messages must be an array", "messages");
  }
  const projectId = body.project_id && await ctx.projectExists(body.project_id)
    ? body.project_id
    : null;
  const parent = body.parent_session_id && await ctx.sessionExists(body.parent_session_id)
    ? body.parent_session_id
    : null;
  const toolCalls = (body.tool_calls ?? []).map((c) => ({
    ...c,
    turn_id: c.turn_id ?? null,
    result: c.result ?? null,
    duration: c.duration ?? null,
  })) as SessionToolCall[];
  return await restoreSession(
    ctx.db,
    ctx.clock,
    {
      workspace: ctx.workspace,
      title: body.title ?? undefined,
      model: body.model,
      model_provider: body.model_provider,
      created_at: body.created_at,
      updated_at: body.updated_at,
      pinned: body.pinned,
      archived: body.archived,
      project_id: projectId,
      parent_session_id: parent,
      input_tokens: body.input_tokens,
      output_tokens: body.output_tokens,
      estimated_cost: body.estimated_cost,
    },
    importedMessages(body, ctx.clock()),
    toolCalls,
  );
}
