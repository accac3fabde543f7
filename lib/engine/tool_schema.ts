// A tool's parameters as the model sees them: its zod schema rendered as JSON Schema. Its own
// file so that the run bookkeeping (tool_runner.ts, loaded at start by the run manager) does
// not pull zod onto the start path; only the agent loop needs this. Invariant: a schema zod
// cannot render becomes an open object, never a thrown turn.
import { z } from "zod";
import type { ToolDefinition } from "../tools/types.ts";

/** The JSON schema of a tool's parameters, as sent to the model. */
export function toolInputSchema(def: ToolDefinition): Record<string, unknown> {
  try {
    const schema = z.toJSONSchema(def.parameters, {
      io: "input",
      unrepresentable: "any",
    }) as Record<
      string,
      unknown
    >;
    delete schema.$schema;
    return schema;
  } catch {
    return { type: "object", properties: {}, additionalProperties: true };
  }
}
