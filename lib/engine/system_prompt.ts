// The system prompt of a run, assembled from ordered sections: who the agent is, where it
// works, the tools it has, project context files, and the user's own instructions from
// config.yaml. Skills and memory add their sections to SECTIONS. Invariants: deterministic for
// the same inputs (tests assert its contents); a failing section is skipped, never fatal;
// context files are capped so one huge file cannot crowd out the conversation.
import type { EngineHost } from "./engine_host.ts";
import { memoryPromptSection } from "../agent/memory.ts";
import { sessionSkillsSection } from "../agent/skills.ts";
import { personalityPromptSection } from "../agent/personalities.ts";
import { configForProfile, profileHome, sessionProfile } from "../agent/profiles.ts";
import { soulPromptSection } from "../agent/soul.ts";
import { contextFilesPromptSection } from "../agent/project_context.ts";
import { taskSkillsSection } from "../tasks/task_skills.ts";

/** What sections may look at. `session` is the compact session row. */
export interface PromptInput {
  app: EngineHost;
  session: { session_id: string; workspace: string; model: string | null; title: string };
  /** Names and one-line descriptions of the tools offered this run. */
  tools: Array<{ name: string; description: string }>;
  model: string;
  /** Epoch seconds (the app clock), for the date line. */
  now: number;
}

export type PromptSection = (input: PromptInput) => string | null | Promise<string | null>;

export { CONTEXT_FILES, MAX_CONTEXT_FILE_CHARS } from "../agent/project_context.ts";

const identity: PromptSection = ({ model }) =>
  `You are Hermes, a capable assistant running in Hermes Console, a self-hosted web console ` +
  `(model: ${model}). You help with software and general tasks. Be direct and accurate; ` +
  `format answers in Markdown; say so when you are unsure instead of guessing.`;

const environment: PromptSection = ({ session, now }) => {
  const date = new Date(now * 1000).toISOString().slice(0, 10);
  return `Today is ${date}. The session's workspace (your working directory) is ` +
    `${session.workspace}. Paths you give to file tools are relative to it; you cannot leave it.`;
};

const toolGuide: PromptSection = ({ tools }) => {
  if (tools.length === 0) return "No tools are available in this session; answer from knowledge.";
  const lines = tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`);
  return `You can call these tools:\n${lines.join("\n")}\n` +
    `Use tools to look things up rather than guessing about files. Commands that could do ` +
    `damage may need the user's approval; if a call is denied, do not retry it — explain and ` +
    `ask how to proceed.`;
};

const contextFiles: PromptSection = ({ session }) => contextFilesPromptSection(session.workspace);

const userInstructions: PromptSection = ({ app }) => {
  const file = app.config.file as Record<string, unknown>;
  const agent = (file.agent && typeof file.agent === "object" ? file.agent : {}) as Record<
    string,
    unknown
  >;
  const text = agent.system_prompt ?? file.system_prompt;
  return typeof text === "string" && text.trim()
    ? `## Instructions from the user\n${text.trim()}`
    : null;
};

/** The session's profile home: where its SOUL.md, MEMORY.md, USER.md and skills live. */
async function profileHomeOf(app: EngineHost, sessionId: string): Promise<string> {
  return profileHome(app.config, await sessionProfile(app.db, sessionId));
}

/** Ordered sections. Other subsystems (skills, memory) append theirs here. */
export const SECTIONS: PromptSection[] = [
  identity,
  ({ app, session }) => personalityPromptSection(app.db, app.config.file, session.session_id),
  environment,
  toolGuide,
  contextFiles,
  userInstructions,
  async ({ app, session }) => soulPromptSection(await profileHomeOf(app, session.session_id)),
  async ({ app, session, tools }) =>
    memoryPromptSection(await profileHomeOf(app, session.session_id), {
      toolOffered: tools.some((t) => t.name === "memory"),
    }),
  async ({ app, session, tools }) =>
    sessionSkillsSection(
      {
        db: app.db,
        config: configForProfile(app.config, await sessionProfile(app.db, session.session_id)),
      },
      session.session_id,
      { toolOffered: tools.some((t) => t.name === "skill") },
    ),
  ({ app, session }) => taskSkillsSection(app, session.session_id),
];

/**
 * Assemble the system prompt for one run of `session`. `opts.tools` lists the tools offered,
 * `opts.model` the model id, `opts.now` the time (defaults: none, the session's model, app clock).
 */
export async function buildSystemPrompt(
  app: EngineHost,
  session: PromptInput["session"],
  opts: Partial<Pick<PromptInput, "tools" | "model" | "now">> = {},
): Promise<string> {
  const input: PromptInput = {
    app,
    session,
    tools: opts.tools ?? [],
    model: opts.model ?? session.model ?? "unknown",
    now: opts.now ?? app.clock(),
  };
  const out: string[] = [];
  for (const section of SECTIONS) {
    try {
      const text = await section(input);
      if (text && text.trim()) out.push(text.trim());
    } catch (err) {
      input.app.log.warn("system prompt section failed", { error: String(err) });
    }
  }
  return out.join("\n\n");
}
