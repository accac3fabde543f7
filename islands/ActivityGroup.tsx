// One assistant turn's internals (thinking, tool calls) behind a single quiet disclosure,
// collapsed by default. The open/closed choice is remembered per chat and per turn in
// localStorage, so leaving a chat and coming back shows each turn the way it was left.
import { useEffect, useState } from "preact/hooks";

export interface ActivityTool {
  id: string;
  name: string;
  /** Short, already-truncated preview of the arguments. */
  preview: string;
}

export interface ActivityGroupProps {
  sessionId: string;
  /** Stable key of the turn within the chat (its user message index). */
  turnKey: string;
  tools: ActivityTool[];
  thinking: string[];
}

/** Storage key of one turn's disclosure state. */
export function activityStorageKey(sessionId: string, turnKey: string): string {
  return `hermes:activity:${sessionId}:${turnKey}`;
}

function readOpen(key: string): boolean {
  try {
    return globalThis.localStorage?.getItem(key) === "open";
  } catch {
    return false; // storage disabled: every group starts collapsed
  }
}

function writeOpen(key: string, open: boolean): void {
  try {
    if (open) globalThis.localStorage?.setItem(key, "open");
    else globalThis.localStorage?.removeItem(key);
  } catch { /* storage disabled or full: the choice lasts for this page only */ }
}

/** `Activity: 4 tools` — terse, no tool names, no second count (DESIGN.md). */
export function activitySummary(tools: number): string {
  if (tools === 0) return "Activity: thinking";
  return `Activity: ${tools} ${tools === 1 ? "tool" : "tools"}`;
}

export default function ActivityGroup({ sessionId, turnKey, tools, thinking }: ActivityGroupProps) {
  const key = activityStorageKey(sessionId, turnKey);
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(readOpen(key)), [key]);

  return (
    <details
      class="activity"
      open={open}
      data-turn={turnKey}
      onToggle={(e) => {
        // Opened by the browser itself (find in page): keep state and storage in step.
        const now = e.currentTarget.open;
        if (now === open) return;
        setOpen(now);
        writeOpen(key, now);
      }}
    >
      <summary
        onClick={(e) => {
          // Toggle through state, remembering the choice at once (the native toggle event
          // comes a task later, after a quick reload could already have dropped it).
          e.preventDefault();
          setOpen(!open);
          writeOpen(key, !open);
        }}
      >
        {activitySummary(tools.length)}
      </summary>
      <div class="activity-body">
        {thinking.map((t, i) => <p class="activity-thinking" key={`r${i}`}>{t}</p>)}
        {tools.map((t) => (
          <div class="tool-row" key={t.id}>
            <span class="tool-name mono">{t.name}</span>
            <span class="tool-preview mono">{t.preview}</span>
          </div>
        ))}
      </div>
    </details>
  );
}
