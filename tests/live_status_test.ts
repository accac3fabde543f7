// liveStatus(): the collapsed Activity row of a running turn says what is happening now.
// The English catalog, as the page would ship it: these browser modules say their text via t().
import "../lib/i18n/catalog.ts";
import { strictEqual } from "node:assert/strict";
import { liveStatus } from "../lib/shared/live_status.ts";
import type { ToolView } from "../lib/shared/transcript_turns.ts";

const tool = (name: string, target: string, status: ToolView["status"]): ToolView => ({
  id: name + target,
  name,
  target,
  args: "",
  argsClipped: false,
  status,
  result: null,
  resultChars: 0,
  duration: null,
});

Deno.test("liveStatus() names the running tool, the wait, or thinking", () => {
  strictEqual(liveStatus([], false), null, "a finished turn has no live line");
  strictEqual(liveStatus([], true), "Thinking");
  strictEqual(
    liveStatus([tool("read_file", "calc.py", "completed")], true),
    "Thinking",
    "between tools the model is thinking",
  );
  strictEqual(
    liveStatus([tool("terminal", "python3 -m pytest", "running")], true),
    "Running `python3 -m pytest`",
  );
  strictEqual(liveStatus([tool("read_file", "calc.py", "running")], true), "Reading calc.py");
  strictEqual(liveStatus([tool("patch", "calc.py", "pending")], true), "Editing calc.py");
  strictEqual(
    liveStatus([tool("terminal", "rm -rf build", "awaiting_approval")], true),
    "Waiting for your approval",
  );
  strictEqual(liveStatus([tool("mcp__gh__issues", "", "running")], true), "Using mcp__gh__issues");
  const long = liveStatus([tool("terminal", "echo " + "x".repeat(200), "running")], true)!;
  strictEqual(long.length, "Running ``".length + 60);
});
