// A settled conversation, server-rendered in DESIGN.md's rhythm: user messages as compact
// right-aligned bubbles, the assistant's reply as prose, and everything the agent did in
// between (thinking, tool calls) folded into one quiet "Activity" disclosure per turn.
import type { StoredMessage } from "../lib/messages.ts";
import { contentText } from "../lib/messages.ts";
import ActivityGroup, { type ActivityTool } from "../islands/ActivityGroup.tsx";

/** One user message and the assistant/tool messages answering it. */
export interface Turn {
  user: StoredMessage | null;
  replies: StoredMessage[];
}

/** Split a transcript into turns; system messages are not shown. */
export function groupTurns(messages: StoredMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "user" || turns.length === 0) {
      turns.push({ user: m.role === "user" ? m : null, replies: m.role === "user" ? [] : [m] });
    } else turns.at(-1)!.replies.push(m);
  }
  return turns;
}

function activityOf(replies: StoredMessage[]): { tools: ActivityTool[]; thinking: string[] } {
  const tools: ActivityTool[] = [];
  const thinking: string[] = [];
  for (const m of replies) {
    if (m.role !== "assistant") continue;
    if (m.reasoning?.trim()) thinking.push(m.reasoning.trim());
    for (const call of m.tool_calls ?? []) {
      const args = call.function?.arguments ?? "";
      tools.push({
        id: call.id,
        name: call.function?.name ?? "tool",
        preview: args.length > 120 ? args.slice(0, 119) + "…" : args,
      });
    }
  }
  return { tools, thinking };
}

export function MessageList(
  { sessionId, messages }: { sessionId: string; messages: StoredMessage[] },
) {
  return (
    <ol class="turns">
      {groupTurns(messages).map((turn, i) => {
        const { tools, thinking } = activityOf(turn.replies);
        const answer = turn.replies
          .filter((m) => m.role === "assistant")
          .map((m) => contentText(m.content).trim())
          .filter(Boolean);
        return (
          <li class="turn" key={turn.user?.idx ?? `t${i}`}>
            {turn.user
              ? (
                <div class="msg msg-user" data-idx={turn.user.idx}>
                  <div class="msg-user-bubble">{contentText(turn.user.content)}</div>
                </div>
              )
              : null}
            {tools.length > 0 || thinking.length > 0
              ? (
                <ActivityGroup
                  sessionId={sessionId}
                  turnKey={String(turn.user?.idx ?? turn.replies[0].idx)}
                  tools={tools}
                  thinking={thinking}
                />
              )
              : null}
            {answer.length > 0
              ? (
                <div class="msg msg-assistant prose">
                  {answer.join("\n\n").split(/\n{2,}/).map((para, j) => <p key={j}>{para}</p>)}
                </div>
              )
              : null}
          </li>
        );
      })}
    </ol>
  );
}
