// Control Center › Memory: the active profile's long-term notes, MEMORY.md (what it learned),
// USER.md (who you are) and SOUL.md (who the agent is), edited as whole files, each with its
// path and last change. Only the first budget characters of each reach the prompt; the counter
// says when a file runs past it.
import type { AppContext } from "../../lib/server/app_context.ts";
import { t } from "../../lib/i18n/t.ts";
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
  const profile = await activeProfileName(app.db, app.config);
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
  const iso = file.mtime ? new Date(file.mtime * 1000).toISOString() : "";
  // The message holds the time as `{time}`: the text around it, then the <time> element.
  const [before, after = ""] = t("extensions.memoryChanged", { time: "\u0000" }).split("\u0000");
  return (
    <p class="cc-row-meta mono" data-memory-path>
      {file.path}
      {" · "}
      {iso
        ? (
          <>
            {before}
            <time dateTime={iso} data-cc-localtime>{iso.slice(0, 16).replace("T", " ")}</time>
            {after}
          </>
        )
        : t("extensions.memoryNotCreated")}
    </p>
  );
}

/** The counter under each file (lib/browser/control/extensions_panel.ts words it the same way). */
export function memoryCounterText(length: number, budget: number): string {
  return length > budget
    ? t("extensions.memoryOverBudget", { length, budget })
    : t("extensions.memoryCounter", { length, budget });
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
            ? t("extensions.memorySoulPlaceholder")
            : t("extensions.memoryPlaceholder")}
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
          <button type="submit" class="btn cc-btn cc-btn-primary">{t("common.save")}</button>
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
        // i18n-ignore: a file's name
        title="MEMORY.md"
        description={t("extensions.memoryDescription")}
        content={data.memory}
        budget={data.budget}
        file={file("memory")}
      />
      <MemoryFile
        section="user"
        // i18n-ignore: a file's name
        title="USER.md"
        description={t("extensions.memoryUserDescription")}
        content={data.user}
        budget={data.budget}
        file={file("user")}
      />
      <MemoryFile
        section="soul"
        // i18n-ignore: a file's name
        title="SOUL.md"
        description={data.profile === "default"
          ? t("extensions.memorySoulDescription")
          : t("extensions.memorySoulProfileDescription", { profile: data.profile })}
        content={data.soul}
        budget={SOUL_BUDGET}
        file={file("soul")}
      />
    </>
  );
}
