// Control Center › Memory: the agent's long-term notes, MEMORY.md (what it learned) and
// USER.md (who you are), edited as whole files. Only the first PROMPT_BUDGET characters of
// each reach the prompt; the counter says when a file runs past it.
import type { AppContext } from "../../lib/server/app_context.ts";
import { PROMPT_BUDGET, readMemory } from "../../lib/agent/memory.ts";
import { Section, StatusLine } from "./parts.tsx";

export interface MemoryData {
  memory: string;
  user: string;
  budget: number;
}

export async function loadMemory(app: Pick<AppContext, "config">): Promise<MemoryData> {
  const [memory, user] = await Promise.all([
    readMemory(app.config.stateDir, "memory"),
    readMemory(app.config.stateDir, "user"),
  ]);
  return { memory, user, budget: PROMPT_BUDGET };
}

const NUMBER = new Intl.NumberFormat("en-US");

/** The counter under each file (lib/browser/pages/extensions_panel.ts words it the same way). */
export function memoryCounterText(length: number, budget: number): string {
  return length > budget
    ? `${NUMBER.format(length)} characters: only the first ${
      NUMBER.format(budget)
    } reach the prompt`
    : `${NUMBER.format(length)} of ${NUMBER.format(budget)} characters`;
}

function MemoryFile(
  { section, title, description, content, budget }: {
    section: "memory" | "user";
    title: string;
    description: string;
    content: string;
    budget: number;
  },
) {
  const id = `cc-memory-${section}`;
  const over = content.length > budget;
  return (
    <Section hook={`memory-${section}`} title={title} description={description}>
      <form class="cc-form" data-cc-form="memory" data-section={section}>
        <label class="visually-hidden" for={id}>{title}</label>
        <textarea
          id={id}
          name="content"
          class="cc-input cc-code mono"
          rows={9}
          spellcheck={false}
          placeholder="- One fact per line, as a bullet."
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
  return (
    <>
      <MemoryFile
        section="memory"
        title="MEMORY.md"
        description="What the agent has learned about your projects and environment."
        content={data.memory}
        budget={data.budget}
      />
      <MemoryFile
        section="user"
        title="USER.md"
        description="Who you are and how you like to work."
        content={data.user}
        budget={data.budget}
      />
    </>
  );
}
