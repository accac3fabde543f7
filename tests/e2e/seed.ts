// A lived-in console for UI tests and screenshots: projects in their colours and sessions
// spread over Pinned / Today / Yesterday / This week / Older, one with a short transcript.
// Times are relative to `now` so groups are deterministic for any clock. Also a lone chat from
// a list of messages, for tests that need only that.
import type { Db } from "../../lib/storage/db.ts";
import { createSession, moveSession, pinSession } from "../../lib/sessions/sessions.ts";
import { createProject } from "../../lib/sessions/projects.ts";
import { appendMessages, type NewMessage } from "../../lib/sessions/messages.ts";
import type { TestApp } from "../helpers.ts";

const HOUR = 3600;
const DAY = 24 * HOUR;

export interface SeededConsole {
  projects: { api: string; docs: string };
  /** The session with a transcript (tool calls, reasoning, an answer). */
  withTranscript: string;
  pinned: string;
  /** Title → id of every seeded session. */
  byTitle: Record<string, string>;
}

/** Seed `db`; `now` is epoch seconds, `workspace` the sessions' workspace. */
export async function seedConsole(
  db: Db,
  now: number,
  workspace: string,
): Promise<SeededConsole> {
  const at = (t: number) => () => t;
  const api = await createProject(db, at(now - 30 * DAY), { name: "api-server", color: "#86C08B" });
  const docs = await createProject(db, at(now - 29 * DAY), { name: "docs", color: "#7BA7D9" });
  const byTitle: Record<string, string> = {};
  const session = async (title: string, age: number, project?: string, chat = true) => {
    const t = now - age;
    const s = await createSession(db, at(t), {
      workspace,
      title,
      model: "gpt-5-mini",
      model_provider: "openai",
    });
    if (chat) {
      await appendMessages(db, at(t), s.session_id, [
        { role: "user", content: `About ${title.toLowerCase()}` },
        { role: "assistant", content: "Done." },
      ]);
    }
    if (project) await moveSession(db, s.session_id, project);
    byTitle[title] = s.session_id;
    return s.session_id;
  };

  const pinned = await session("Release checklist for v2.4", 12 * DAY, api.project_id);
  await pinSession(db, at(now), pinned, true);
  const withTranscript = await session("Fix flaky upload test", 40 * 60, api.project_id, false);
  await session("Explain the approval queue", 3 * HOUR);
  await session("Draft the migration guide", 5 * HOUR, docs.project_id);
  await session("Profile slow session list", DAY + HOUR, api.project_id);
  await session("Rename config keys", DAY + 3 * HOUR);
  await session("Sketch MCP server settings", 3 * DAY);
  await session("Review PR #812: streaming resume", 4 * DAY, api.project_id);
  await session("Changelog wording", 9 * DAY, docs.project_id);
  await session("Dockerfile for arm64", 21 * DAY);
  await session("Benchmark sqlite WAL", 45 * DAY);

  const t = now - 40 * 60;
  await appendMessages(db, at(t + 5), withTranscript, [
    {
      role: "user",
      content: "The upload test fails about one run in ten. Can you find out why?",
    },
    {
      role: "assistant",
      content: "",
      reasoning: "Flaky uploads usually mean a race on the temp file name. Check the handler.",
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "read_file", arguments: '{"path":"lib/upload.ts"}' },
        },
        {
          id: "c2",
          type: "function",
          function: {
            name: "terminal",
            arguments: '{"command":"deno test -A tests/upload_test.ts"}',
          },
        },
        {
          id: "c3",
          type: "function",
          function: { name: "search_files", arguments: '{"pattern":"Date.now()"}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "export async function saveUpload(...)" },
    { role: "tool", tool_call_id: "c2", content: "ok | 11 passed | 1 failed" },
    { role: "tool", tool_call_id: "c3", content: "lib/upload.ts:42" },
    {
      role: "assistant",
      content:
        "The collision comes from `saveUpload()` naming files with `Date.now()`: two uploads " +
        "in the same millisecond get the same name, and the second overwrites the first.\n\n" +
        "I changed it to append `-N` until the name is free, as the API contract asks, and " +
        "the test now passes 200 runs in a row.",
    },
  ]);
  return {
    projects: { api: api.project_id, docs: docs.project_id },
    withTranscript,
    pinned,
    byTitle,
  };
}

/**
 * Seed a test app's console (see `seedConsole`) at its clock, in its workspace; with
 * `dark`, first save the dark theme so screenshots do not depend on the OS scheme.
 */
export async function seedApp(app: TestApp, opts: { dark?: boolean } = {}): Promise<SeededConsole> {
  if (opts.dark) await app.call("POST", "/api/settings", { theme: "dark" });
  return await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
}

/** One chat titled `title` in the test app's workspace holding `messages`; returns its id. */
export async function seedChat(
  app: TestApp,
  title: string,
  messages: NewMessage[],
): Promise<string> {
  const { session_id } = await createSession(app.ctx.db, app.ctx.clock, {
    workspace: app.workspace,
    title,
  });
  await appendMessages(app.ctx.db, app.ctx.clock, session_id, messages);
  return session_id;
}

/** An assistant message with no prose that calls `name` with `args` (a JSON string) as `id`. */
export function toolCallMessage(id: string, name: string, args: string): NewMessage {
  return {
    role: "assistant",
    content: "",
    tool_calls: [{ id, type: "function", function: { name, arguments: args } }],
  };
}
