// The `clarify` tool: ask the user a question (optionally offering choices) and wait for the
// answer, which becomes the tool result. The engine's ToolContext.askClarify (lib/approvals/clarify.ts)
// emits the `clarify` event and settles on answer, timeout or cancellation.
import { z } from "zod";
import { NO_ANSWER_PREFIX } from "../approvals/clarify.ts";
import { defineTool, type ToolDefinition } from "./types.ts";

export function clarifyTool(): ToolDefinition {
  return defineTool({
    name: "clarify",
    description: "Ask the user a clarifying question and wait for the answer. Use it only when " +
      "you cannot reasonably proceed without their input (an ambiguous requirement, a choice " +
      "with real consequences). Offer up to 6 short choices when the answer is one of a few " +
      "options; the user may still answer freely.",
    parameters: z.object({
      question: z.string().min(1).max(2000),
      choices: z.array(z.string().min(1).max(200)).max(6).optional(),
    }),
    async execute(args, ctx) {
      const answer = await ctx.askClarify(args.question, args.choices);
      if (answer.startsWith(NO_ANSWER_PREFIX)) return { output: answer };
      return { output: `The user answered: ${answer}` };
    },
  });
}
