// The composer's quiet popovers for command results: /help (the commands), /usage (the chat's
// tokens and cost), the /yolo warning and /reload-mcp's outcome. Browser-safe: rendered inside
// the Composer island, which decides what to show and when it closes.
import { commandSignature, type SlashCommand } from "../lib/browser/slash_commands.ts";
import { formatCost, formatTokens, textAround } from "../lib/browser/composer_state.ts";
import { Icon } from "./Icon.tsx";
import { formatNumber, t } from "../lib/i18n/t.ts";
import type { CommandPanel as PanelState } from "../lib/browser/composer/composer_commands.ts";

export interface ComposerPanelProps {
  state: PanelState;
  commands: readonly SlashCommand[];
  onClose(): void;
}

const TITLES: Record<PanelState["kind"], string> = {
  help: "composer.commands",
  usage: "composer.panelUsage",
  yolo: "composer.panelYolo",
  mcp: "composer.panelMcp",
};

export function ComposerPanel({ state, commands, onClose }: ComposerPanelProps) {
  const title = t(TITLES[state.kind]);
  return (
    <div
      class="composer-pop composer-panel"
      data-popover={state.kind}
      data-tone={state.kind === "yolo" ? "warning" : undefined}
      role="dialog"
      aria-label={title}
    >
      <div class="cpanel-head">
        {state.kind === "yolo" ? <Icon name="alert" size={14} /> : null}
        <p class="cpanel-title">{title}</p>
        <button type="button" class="pop-close" aria-label={t("common.close")} onClick={onClose}>
          <Icon name="x" size={13} />
        </button>
      </div>
      {state.kind === "help" ? <Help commands={commands} /> : null}
      {state.kind === "usage" ? <Usage session={state.session} /> : null}
      {state.kind === "yolo" ? <YoloWarning /> : null}
      {state.kind === "mcp" ? <McpServers servers={state.servers} /> : null}
    </div>
  );
}

function YoloWarning() {
  const [before, after] = textAround("composer.yoloBody", "command");
  return (
    <p class="cpanel-text">
      {before}
      {/* i18n-ignore: the command name, typed as is */}
      <span class="mono">/yolo</span>
      {after}
    </p>
  );
}

function Help({ commands }: { commands: readonly SlashCommand[] }) {
  return (
    <>
      <dl class="help-list">
        {commands.map((c) => (
          <div key={c.name} class="help-row">
            <dt class="mono">{commandSignature(c)}</dt>
            <dd>{c.summary}</dd>
          </div>
        ))}
      </dl>
      <p class="cpanel-foot">{t("composer.helpFoot")}</p>
    </>
  );
}

function Usage({ session }: { session: Record<string, unknown> }) {
  const n = (k: string) => Number(session[k] ?? 0);
  // [data-usage hook (the row's English name), label key, value]
  const rows: Array<[string, string, string]> = [
    ["Model", "composer.usageModel", String(session.model ?? t("composer.usageProviderDefault"))],
    ["Input tokens", "composer.usageInputTokens", formatTokens(n("input_tokens"))],
    ["Output tokens", "composer.usageOutputTokens", formatTokens(n("output_tokens"))],
    ["Estimated cost", "composer.usageCost", formatCost(session.estimated_cost as number | null)],
    ["Messages", "composer.usageMessages", formatNumber(n("message_count"))],
  ];
  return (
    <dl class="usage-list">
      {rows.map(([hook, label, v]) => (
        <div key={hook} class="usage-row">
          <dt>{t(label)}</dt>
          <dd class="mono" data-usage={hook}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const mcpStatus = (s: Record<string, unknown>) =>
  t("composer.mcpStatus", { status: String(s.status) });

function McpServers({ servers }: { servers: Array<Record<string, unknown>> }) {
  if (servers.length === 0) return <p class="cpanel-text">{t("composer.mcpNone")}</p>;
  return (
    <ul class="usage-list">
      {servers.map((s) => (
        <li key={String(s.name)} class="usage-row" data-status={String(s.status)}>
          <span class="mono">{String(s.name)}</span>
          <span>
            {s.status === "connected"
              ? t("composer.mcpConnected", { count: Number(s.tool_count ?? 0) })
              : s.last_error
              ? t("composer.mcpFailed", { status: mcpStatus(s), error: String(s.last_error) })
              : mcpStatus(s)}
          </span>
        </li>
      ))}
    </ul>
  );
}
