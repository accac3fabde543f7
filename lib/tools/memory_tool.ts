// The `memory` tool: the agent adds, replaces and removes `- ` entries of MEMORY.md (what it
// learned) and USER.md (who the user is). Invariants: replace/remove name an entry by its exact
// text (or a unique part of it) and fail clearly otherwise; each file stays within its budget.
import { z } from "zod";
import { editMemory, memoryEntries, PROMPT_BUDGET } from "../agent/memory.ts";
import { defineTool, type ToolDefinition } from "./types.ts";

export function memoryTool(stateDir: string): ToolDefinition {
  return defineTool({
    name: "memory",
    description: 'Save what should be remembered in later sessions. target "memory": facts ' +
      'you learned (environment, project conventions, lessons); target "user": who the user ' +
      'is and their preferences. action "add" appends an entry (content); "replace" swaps ' +
      'the entry containing old_text for content; "remove" deletes the entry containing ' +
      `old_text. Entries are one line each; each file holds up to ${PROMPT_BUDGET} characters.`,
    parameters: z.object({
      action: z.enum(["add", "replace", "remove"]),
      target: z.enum(["memory", "user"]),
      content: z.string().max(2000).optional().describe("The entry text (add, replace)"),
      old_text: z.string().max(2000).optional().describe(
        "The existing entry, or a unique part of it (replace, remove)",
      ),
    }),
    async execute({ action, target, content, old_text }) {
      if ((action === "add" || action === "replace") && !content?.trim()) {
        return { output: `memory ${action} needs content`, isError: true };
      }
      if ((action === "replace" || action === "remove") && !old_text?.trim()) {
        return { output: `memory ${action} needs old_text (the entry to change)`, isError: true };
      }
      try {
        const edit = action === "add"
          ? { action, content: content! }
          : action === "replace"
          ? { action, old_text: old_text!, content: content! }
          : { action, old_text: old_text! };
        const text = await editMemory(stateDir, target, edit);
        const entries = memoryEntries(text);
        const file = target === "memory" ? "MEMORY.md" : "USER.md";
        return {
          output: `${file} updated (${text.length}/${PROMPT_BUDGET} characters). Entries:\n` +
            (entries.length ? entries.map((e) => `- ${e}`).join("\n") : "(none)"),
        };
      } catch (err) {
        return { output: (err as Error).message, isError: true };
      }
    },
  });
}
