// Control Center › Memory: the active profile's long-term notes, MEMORY.md (what it learned),
// USER.md (who you are) and SOUL.md (who the agent is), edited as whole files, each with its
// path and last change. Only the first budget characters of each reach the prompt; the counter
// says when a file runs past it.
import type { AppContext } from "../../lib/server/app_context.ts";
import { PROMPT_BUDGET } from "../../lib/agent/memory.ts";
import { type MemoryFileInfo, memoryFiles } from "../../lib/agent/memory_files.ts";
import { activeProfileName, profileHome } from "../../lib/agent/profiles.ts";
import { SOUL_BUDGET } from "../../lib/agent/soul.ts";
import { Section, StatusLine } from "./parts.tsx";

export interface MemoryData {
  memory: string;
  user: string;
  soul: string;
  budget: number;
  profile: string;
  files: MemoryFileInfo[];
}

export async function loadMemory(app: Pick<AppContext, "config" | "db">): Promise<MemoryData> {
  const profile = activeProfileName(app.db, app.config);
  const files = await memoryFiles(profileHome(app.config, profile));
  const text = (s: string) => files.find((f) => f.section === s)?.content ?? "";
  return {
    memory: text("memory"),
    user: text("user"),
    soul: text("soul"),
    budget: PROMPT_BUDGET,
    profile,
    files,
  };
}

/** "~/…/MEMORY.md · changed <time>" under a file's title. */
function FileMeta({ file }: { file?: MemoryFileInfo }) {
  if (!file) return null;
  return (
    <p class="cc-row-meta mono" data-memory-path>
      {file.path}
      {file.mtime
        ? (
          <>
            {" · changed "}
            <time dateTime={new Date(file.mtime * 1000).toISOString()} data-cc-localtime>
              {new Date(file.mtime * 1000).toISOString().slice(0, 16).replace("T", " ")}
            </time>
          </>
        )
        : " · not created yet"}
    </p>
  );
}

const NUMBER = new Intl.NumberFormat("en-US");

/** The counter under each file (lib/browser/control/extensions_panel.ts words it the same way). */
export function memoryCounterText(length: number, budget: number): string {
  return length > budget
    ? `${NUMBER.format(length)} characters: only the first ${
      NUMBER.format(budget)
    } reach the prompt`
    : `${NUMBER.format(length)} of ${NUMBER.format(budget)} characters`;
}

function MemoryFile(
  { section, title, description, content, budget, file }: {
    section: "memory" | "user" | "soul";
    title: string;
    description: string;
    content: string;
    budget: number;
    file?: MemoryFileInfo;
  },
) {
  const id = `cc-memory-${section}`;
  const over = content.length > budget;
  return (
    <Section hook={`memory-${section}`} title={title} description={description}>
      <FileMeta file={file} />
      <form class="cc-form" data-cc-form="memory" data-section={section}>
        <label class="visually-hidden" for={id}>{title}</label>
        <textarea
          id={id}
          name="content"
          class="cc-input cc-code mono"
          rows={9}
          spellcheck={false}
          placeholder={section === "soul"
            ? "Who the agent is, in your words: its name, voice and values."
            : "- One fact per line, as a bullet."}
          value={content}
          data-budget={budget}
          aria-describedby={`${id}-count`}
        />
        <div class="cc-form-foot">
          <span
            class="cc-counter"
            id={`${id}-count`}
            data-over={over ? "" : undefined}
            data-cc-counter
          >
            {memoryCounterText(content.length, budget)}
          </span>
          <StatusLine hook={`memory-${section}`} />
          <button type="submit" class="btn cc-btn cc-btn-primary">Save</button>
        </div>
      </form>
    </Section>
  );
}

export function MemoryPanel({ data }: { data: MemoryData }) {
  const file = (s: string) => data.files.find((f) => f.section === s);
  return (
    <>
      <MemoryFile
        section="memory"
        title="MEMORY.md"
        description="What the agent has learned about your projects and environment."
        content={data.memory}
        budget={data.budget}
        file={file("memory")}
      />
      <MemoryFile
        section="user"
        title="USER.md"
        description="Who you are and how you like to work."
        content={data.user}
        budget={data.budget}
        file={file("user")}
      />
      <MemoryFile
        section="soul"
        title="SOUL.md"
        description={`Who the agent is: its persona, read first into every conversation${
          data.profile === "default" ? "" : ` of the ${data.profile} profile`
        }. Project instructions live in AGENTS.md at a workspace's root.`}
        content={data.soul}
        budget={SOUL_BUDGET}
        file={file("soul")}
      />
    </>
  );
}
