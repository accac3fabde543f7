// One tool call as a quiet debug row (DESIGN.md "Tool card"): icon, name, short target and
// status; arguments and result only behind expansion, the result clamped, and the whole text
// (when the page carries a clipped copy) fetched on "Show full output". Rendered inside the
// Activity disclosure, never as a chat message.
import { useEffect, useRef, useState } from "preact/hooks";
import { AllowedByRule } from "./AllowedByRule.tsx";
import { withoutAllowedNote } from "../lib/shared/allowed_by_rule.ts";
import type { ToolView } from "../lib/shared/transcript_model.ts";
import type { ToolCallStatus } from "../lib/shared/chat_events.ts";
import { Icon, type IconName } from "./Icon.tsx";
import { DelegateChildren } from "./DelegateChildren.tsx";
import { RollbackButton, UNDOABLE_TOOLS } from "./RollbackButton.tsx";
import { DiffSlot } from "./transcript/DiffSlot.tsx";
import { formatNumber, t } from "../lib/i18n/t.ts";
import { islandDisplay } from "../lib/browser/transcript_display.ts";

/**
 * How a tool name reads on its card: MCP tools (`mcp__<server>__<tool>`) show the tool with
 * its server beside it, like any other tool; built-ins read as they are.
 */
export function toolLabel(name: string): { tool: string; server: string | null } {
  const m = name.match(/^mcp__(.+?)__(.+)$/);
  return m ? { tool: m[2], server: m[1] } : { tool: name, server: null };
}

/** The icon family of a tool name (built-ins by name; MCP tools are `server.tool`). */
export function toolIcon(name: string): IconName {
  if (name === "terminal") return "terminal";
  if (name === "read_file") return "file";
  if (name === "write_file" || name === "patch") return "edit";
  if (name === "list_directory") return "folder";
  if (name === "search_files") return "search";
  if (name === "todo") return "list";
  if (name === "clarify") return "question";
  if (name === "memory" || name === "skill") return "memory";
  if (name === "delegate") return "gitBranch";
  if (/[.:]|__/.test(name)) return "plug";
  return "tool";
}

/** Catalog keys of the status labels (resolved at render). */
const STATUS_LABEL: Record<ToolCallStatus, string> = {
  pending: "activity.statusQueued",
  awaiting_approval: "activity.statusNeedsApproval",
  running: "activity.statusRunning",
  completed: "activity.statusDone",
  error: "activity.statusFailed",
  denied: "activity.statusDenied",
};

/** "850 ms", "2.1 s", "42 s" in the active locale's digits. */
function duration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "";
  const whole = (n: number) => formatNumber(n, { useGrouping: false });
  if (s < 1) return t("activity.durationMs", { value: whole(Math.max(1, Math.round(s * 1000))) });
  const value = s < 10
    ? formatNumber(s, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    : whole(Math.round(s));
  return t("activity.durationSeconds", { value });
}

/** Lines of a result shown before "Show more" (CSS clamps at the same height). */
const CLAMP_LINES = 12;

interface FullText {
  args: string;
  result: string | null;
}

/** The call's whole arguments and result, from the session's recorded tool calls. */
async function loadFull(sessionId: string, id: string): Promise<FullText> {
  const res = await fetch(
    `/api/session?session_id=${encodeURIComponent(sessionId)}&msg_limit=1`,
    { headers: { accept: "application/json" }, credentials: "same-origin" },
  );
  if (!res.ok) throw new Error(t("activity.sessionLoadFailed", { status: String(res.status) }));
  const body = await res.json() as {
    session: { tool_calls?: Array<{ tool_call_id: string; args: unknown; result: string | null }> };
  };
  const rec = body.session.tool_calls?.find((r) => r.tool_call_id === id);
  if (!rec) throw new Error(t("activity.fullOutputGone"));
  return {
    args: typeof rec.args === "string" ? rec.args : JSON.stringify(rec.args, null, 2),
    result: rec.result,
  };
}

export function ToolCard({ tool, sessionId }: { tool: ToolView; sessionId: string }) {
  const [open, setOpen] = useState(false);
  // `terminal_auto_expand_on_output`: a command's output arriving while the card is folded
  // opens it, once; a card that already had its output (history) stays as it was.
  const hadOutput = useRef(tool.result !== null);
  const autoExpand = islandDisplay.value.terminalAutoExpand;
  useEffect(() => {
    if (hadOutput.current || tool.result === null) return;
    hadOutput.current = true;
    if (autoExpand && tool.name === "terminal") setOpen(true);
  });
  const [more, setMore] = useState(false);
  const [full, setFull] = useState<FullText | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const result = full?.result ?? tool.result;
  const args = full?.args ?? tool.args;
  const clipped = !full && (tool.argsClipped || tool.resultChars > (tool.result?.length ?? 0));
  const long = (result?.split("\n").length ?? 0) > CLAMP_LINES || (result?.length ?? 0) > 1200;

  async function showFull() {
    setMore(true);
    if (loading) return;
    setLoading(true);
    setError(null);
    try {
      setFull(await loadFull(sessionId, tool.id));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setLoading(false);
    }
  }

  const status = tool.status;
  const label = toolLabel(tool.name);
  return (
    <div
      class="tool-card"
      data-status={status}
      data-tool={tool.name}
      data-open={open ? "" : undefined}
    >
      <button
        type="button"
        class="tool-head"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <Icon name={toolIcon(tool.name)} size={14} class="tool-icon" />
        <span class="tool-name" dir="auto">{label.tool}</span>
        {label.server
          ? (
            <span
              class="tool-server"
              title={t("activity.mcpServer", { server: label.server })}
              dir="auto"
            >
              {label.server}
            </span>
          )
          : null}
        <span class="tool-target" title={tool.target} dir="auto">{tool.target}</span>
        <AllowedByRule result={tool.result} />
        <span class="tool-status" data-status={status}>
          {status === "running" || status === "pending"
            ? <span class="spinner" aria-hidden="true" />
            : null}
          <span class="tool-status-label">{t(STATUS_LABEL[status])}</span>
          {tool.duration !== null && status !== "running"
            ? <span class="tool-duration">{duration(tool.duration)}</span>
            : null}
        </span>
      </button>
      {tool.name === "delegate"
        ? <DelegateChildren tool={tool} sessionId={sessionId} open={open} Card={ToolCard} />
        : null}
      {open
        ? (
          <div class="tool-detail">
            {args
              ? (
                <div class="tool-section">
                  <div class="tool-label">{t("activity.arguments")}</div>
                  <pre
                    class="tool-pre"
                    data-clamp={more ? undefined : ""}
                    dir="auto"
                  >{args}{!full && tool.argsClipped ? "\n…" : ""}</pre>
                </div>
              )
              : null}
            <div class="tool-section">
              <div class="tool-label">{t("activity.result")}</div>
              {result === null
                ? (
                  <p class="tool-empty">
                    {status === "running" ? t("activity.resultRunning") : t("activity.noResult")}
                  </p>
                )
                : (
                  <pre
                    class="tool-pre tool-result"
                    data-clamp={more ? undefined : ""}
                    dir="auto"
                  >{withoutAllowedNote(result) || t("activity.emptyResult")}</pre>
                )}
            </div>
            {clipped
              ? (
                <button type="button" class="tool-more" disabled={loading} onClick={showFull}>
                  {loading
                    ? t("common.loading")
                    : tool.resultChars > (tool.result?.length ?? 0)
                    ? t("activity.showFullOutput", { count: tool.resultChars })
                    : t("activity.showFullArguments")}
                </button>
              )
              : long
              ? (
                <button type="button" class="tool-more" onClick={() => setMore(!more)}>
                  {more ? t("activity.showLess") : t("activity.showMore")}
                </button>
              )
              : null}
            {error ? <p class="tool-error" role="alert" dir="auto">{error}</p> : null}
            {(tool.name === "write_file" || tool.name === "patch") && status === "completed"
              ? <DiffSlot sessionId={sessionId} toolCallId={tool.id} />
              : null}
            {UNDOABLE_TOOLS.has(tool.name) && (status === "completed" || status === "error")
              ? (
                <div class="tool-undo">
                  <RollbackButton
                    sessionId={sessionId}
                    toolCallId={tool.id}
                    label={t("activity.undoChange")}
                  />
                </div>
              )
              : null}
          </div>
        )
        : null}
    </div>
  );
}
