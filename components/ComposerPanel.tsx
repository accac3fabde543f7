// The composer's quiet popovers for command results: /help (the commands), /usage (the chat's
// tokens and cost), the /yolo warning and /reload-mcp's outcome. Browser-safe: rendered inside
// the Composer island, which decides what to show and when it closes.
import { commandSignature, type SlashCommand } from "../lib/browser/slash_commands.ts";
import { formatCost, formatTokens } from "../lib/browser/composer_state.ts";
import { Icon } from "./Icon.tsx";
import type { CommandPanel as PanelState } from "../lib/browser/composer/composer_commands.ts";

export interface ComposerPanelProps {
  state: PanelState;
  commands: readonly SlashCommand[];
  onClose(): void;
}

const TITLES: Record<PanelState["kind"], string> = {
  help: "Commands",
  usage: "Usage of this chat",
  yolo: "Approvals are off in this chat",
  mcp: "MCP servers reloaded",
};

export function ComposerPanel({ state, commands, onClose }: ComposerPanelProps) {
  return (
    <div
      class="composer-pop composer-panel"
      data-popover={state.kind}
      data-tone={state.kind === "yolo" ? "warning" : undefined}
      role="dialog"
      aria-label={TITLES[state.kind]}
    >
      <div class="cpanel-head">
        {state.kind === "yolo" ? <Icon name="alert" size={14} /> : null}
        <p class="cpanel-title">{TITLES[state.kind]}</p>
        <button type="button" class="pop-close" aria-label="Close" onClick={onClose}>
          <Icon name="x" size={13} />
        </button>
      </div>
      {state.kind === "help" ? <Help commands={commands} /> : null}
      {state.kind === "usage" ? <Usage session={state.session} /> : null}
      {state.kind === "yolo"
        ? (
          <p class="cpanel-text">
            Commands that normally ask first now run without asking. The hardline tier (like wiping
            the disk) stays blocked. Type <span class="mono">/yolo</span>{" "}
            again, or click the “Approvals off” chip, to turn approvals back on.
          </p>
        )
        : null}
      {state.kind === "mcp" ? <McpServers servers={state.servers} /> : null}
    </div>
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
      <p class="cpanel-foot">Any other /text is sent to the agent as written.</p>
    </>
  );
}

function Usage({ session }: { session: Record<string, unknown> }) {
  const n = (k: string) => Number(session[k] ?? 0);
  const rows: Array<[string, string]> = [
    ["Model", String(session.model ?? "provider default")],
    ["Input tokens", formatTokens(n("input_tokens"))],
    ["Output tokens", formatTokens(n("output_tokens"))],
    ["Estimated cost", formatCost(session.estimated_cost as number | null)],
    ["Messages", String(n("message_count"))],
  ];
  return (
    <dl class="usage-list">
      {rows.map(([k, v]) => (
        <div key={k} class="usage-row">
          <dt>{k}</dt>
          <dd class="mono" data-usage={k}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function McpServers({ servers }: { servers: Array<Record<string, unknown>> }) {
  if (servers.length === 0) return <p class="cpanel-text">No MCP servers are configured.</p>;
  return (
    <ul class="usage-list">
      {servers.map((s) => (
        <li key={String(s.name)} class="usage-row" data-status={String(s.status)}>
          <span class="mono">{String(s.name)}</span>
          <span>
            {s.status === "connected"
              ? `connected · ${Number(s.tool_count ?? 0)} tools`
              : s.last_error
              ? `${String(s.status)}: ${String(s.last_error)}`
              : String(s.status)}
          </span>
        </li>
      ))}
    </ul>
  );
}
