// The `skill` tool: loads a skill's instructions (SKILL.md body) on demand, or one of its
// supporting files. Invariants: only enabled skills load; a supporting file is resolved with
// the workspace guard inside the skill's own folder, so no path can leave it.
import { z } from "zod";
import type { AppConfig } from "../settings/config.ts";
import { readSkill, skillFiles, splitFrontMatter } from "../agent/skills.ts";
import { resolveInWorkspace } from "../workspace/workspace_paths.ts";
import { defineTool, type ToolDefinition } from "./types.ts";

const MAX_FILE_CHARS = 100_000;

export function skillTool(config: AppConfig): ToolDefinition {
  return defineTool({
    name: "skill",
    description: "Load a skill: step-by-step instructions for a kind of task, listed under " +
      "Skills in the system prompt. Call with the skill's `name` before starting a matching " +
      "task, then follow what it says. Pass `file` to read one of the skill's supporting files.",
    parameters: z.object({
      name: z.string().min(1).max(64).describe("The skill's name, as listed"),
      file: z.string().min(1).max(1024).optional().describe(
        "A supporting file inside the skill's folder (relative path)",
      ),
    }),
    async execute({ name, file }) {
      let skill;
      try {
        skill = await readSkill(config, name);
      } catch (err) {
        return {
          output: `${(err as Error).message}. Use a name listed under Skills.`,
          isError: true,
        };
      }
      if (!skill.enabled) return { output: `Skill "${name}" is disabled`, isError: true };
      if (file) {
        let path: string;
        try {
          path = await resolveInWorkspace(skill.dir, file);
        } catch {
          return { output: `Skill "${name}" has no file "${file}"`, isError: true };
        }
        let text = await Deno.readTextFile(path);
        if (text.length > MAX_FILE_CHARS) {
          text = `${text.slice(0, MAX_FILE_CHARS)}\n[… truncated: ${text.length} characters]`;
        }
        return { output: text };
      }
      const files = await skillFiles(skill.dir);
      const body = splitFrontMatter(skill.content).body.trim();
      const extra = files.length
        ? `\n\n[Supporting files (read with skill name="${name}" file=…): ${files.join(", ")}]`
        : "";
      return { output: `# Skill: ${name}\n\n${body}${extra}` };
    },
  });
}
