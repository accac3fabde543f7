// Control Center › MCP servers: each configured server with its state (connected with its
// tool count, connecting, not started, disabled, or the last error), and the add/edit form
// (stdio: command, args, env, working folder; HTTP: URL and headers; enabled; approval).
// Secrets arrive masked (GET /api/mcp/servers); sending a masked value back keeps it.
import type { AppContext } from "../../lib/app_context.ts";
import {
  DEFAULT_CONNECT_TIMEOUT_SECONDS,
  DEFAULT_TOOL_TIMEOUT_SECONDS,
} from "../../lib/mcp/config.ts";
import type { McpServerStatus } from "../../lib/mcp/manager.ts";
import { Badge, ConfirmAction, Field, Section, StatusLine, type Tone } from "./parts.tsx";

export interface McpData {
  servers: McpServerStatus[];
  /** The form open below the list: a server being edited, a new one, or none. */
  editing: McpServerStatus | "new" | null;
}

export function loadMcp(app: Pick<AppContext, "mcp">, edit: string | null): McpData {
  const servers = app.mcp.status();
  const editing = edit === null
    ? null
    : edit === ""
    ? "new"
    : servers.find((s) => s.name === edit) ?? "new";
  return { servers, editing };
}

/** The state a person reads: what the row's badge says, in which tone. */
export function mcpState(s: McpServerStatus): { tone: Tone; text: string } {
  if (!s.enabled) return { tone: "neutral", text: "Disabled" };
  switch (s.status) {
    case "connected":
      return {
        tone: "success",
        text: `Connected · ${s.tool_count} tool${s.tool_count === 1 ? "" : "s"}`,
      };
    case "connecting":
      return { tone: "warning", text: "Connecting…" };
    case "error":
      return { tone: "error", text: "Error" };
    default:
      return { tone: "neutral", text: "Not started" };
  }
}

/** The arguments field's example: one argument per line. */
const ARGS_EXAMPLE = ["-y", "@modelcontextprotocol/server-filesystem", "/path"].join("\n");

const lines = (items: string[]) => items.join("\n");
const pairs = (map: Record<string, string> | undefined, sep: string) =>
  Object.entries(map ?? {}).map(([k, v]) => `${k}${sep}${v}`).join("\n");

function ServerRow({ s }: { s: McpServerStatus }) {
  const state = mcpState(s);
  const target = s.transport === "http" ? s.url : [s.command, ...(s.args ?? [])].join(" ");
  return (
    <li class="cc-row" data-mcp-server={s.name} data-status={s.enabled ? s.status : "disabled"}>
      <div class="cc-row-main">
        <div class="cc-row-title">
          <span class="mono cc-row-name">{s.name}</span>
          <span class="cc-chip">{s.transport}</span>
          {s.approval === "allow"
            ? <span class="cc-chip" title="Tool calls run without asking">auto-approve</span>
            : null}
          <Badge tone={state.tone}>{state.text}</Badge>
        </div>
        <p class="cc-row-meta mono" title={target}>{target}</p>
        {s.last_error && s.enabled
          ? <p class="cc-row-error" data-mcp-error>{s.last_error}</p>
          : null}
      </div>
      <div class="cc-row-actions">
        <label class="cc-toggle cc-toggle-small" title={s.enabled ? "Disable" : "Enable"}>
          <input
            type="checkbox"
            role="switch"
            data-cc-action="mcp-toggle"
            data-name={s.name}
            checked={s.enabled}
            aria-label={`${s.name} enabled`}
          />
          <span class="cc-toggle-track" aria-hidden="true" />
        </label>
        <button
          type="button"
          class="btn cc-btn cc-btn-quiet"
          data-cc-action="mcp-reload"
          data-name={s.name}
          disabled={!s.enabled}
          aria-label={`Reconnect ${s.name}`}
        >
          Reconnect
        </button>
        <button
          type="button"
          class="btn cc-btn cc-btn-quiet"
          data-cc-action="mcp-edit"
          data-name={s.name}
          aria-label={`Edit ${s.name}`}
        >
          Edit
        </button>
      </div>
    </li>
  );
}

function ServerForm({ s }: { s: McpServerStatus | null }) {
  const transport = s?.transport ?? "stdio";
  const timeout = s && s.timeout !== DEFAULT_TOOL_TIMEOUT_SECONDS ? String(s.timeout) : "";
  const connect = s && s.connect_timeout !== DEFAULT_CONNECT_TIMEOUT_SECONDS
    ? String(s.connect_timeout)
    : "";
  return (
    <form
      class="cc-form cc-subform"
      data-cc-form="mcp-save"
      data-mode={s ? "edit" : "new"}
      data-transport={transport}
      aria-label={s ? `Edit MCP server ${s.name}` : "Add an MCP server"}
      novalidate
    >
      <h5 class="cc-subform-title">{s ? `Edit ${s.name}` : "Add a server"}</h5>
      <div class="cc-grid">
        <Field id="cc-mcp-name" label="Name" hint="Tools appear as mcp__name__tool.">
          <input
            id="cc-mcp-name"
            name="name"
            class="cc-input mono"
            value={s?.name ?? ""}
            readOnly={!!s}
            required
            pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}"
            autocomplete="off"
            spellcheck={false}
            data-cc-autofocus={s ? undefined : ""}
          />
        </Field>
        <fieldset class="cc-field cc-seg">
          <legend class="cc-label">Transport</legend>
          <label>
            <input type="radio" name="transport" value="stdio" checked={transport === "stdio"} />
            <span>stdio</span>
          </label>
          <label>
            <input type="radio" name="transport" value="http" checked={transport === "http"} />
            <span>HTTP</span>
          </label>
        </fieldset>
      </div>

      <div class="cc-transport" data-for="stdio">
        <Field id="cc-mcp-command" label="Command" wide>
          <input
            id="cc-mcp-command"
            name="command"
            class="cc-input mono"
            value={s?.command ?? ""}
            placeholder="npx"
            autocomplete="off"
            spellcheck={false}
            data-cc-autofocus={s ? "" : undefined}
          />
        </Field>
        <div class="cc-grid">
          <Field id="cc-mcp-args" label="Arguments" hint="One per line.">
            <textarea
              id="cc-mcp-args"
              name="args"
              class="cc-input mono"
              rows={4}
              spellcheck={false}
              placeholder={ARGS_EXAMPLE}
              value={lines(s?.args ?? [])}
            />
          </Field>
          <Field
            id="cc-mcp-env"
            label="Environment"
            hint={
              <>
                KEY=value per line; <code>{"${VAR}"}</code> reads the server's environment.
              </>
            }
          >
            <textarea
              id="cc-mcp-env"
              name="env"
              class="cc-input mono"
              rows={4}
              spellcheck={false}
              placeholder="GITHUB_TOKEN=${GITHUB_TOKEN}"
              value={pairs(s?.env, "=")}
            />
          </Field>
        </div>
        <Field id="cc-mcp-cwd" label="Working folder" hint="Optional." wide>
          <input
            id="cc-mcp-cwd"
            name="cwd"
            class="cc-input mono"
            value={s?.cwd ?? ""}
            autocomplete="off"
            spellcheck={false}
          />
        </Field>
      </div>

      <div class="cc-transport" data-for="http">
        <Field id="cc-mcp-url" label="URL" hint="A Streamable HTTP endpoint." wide>
          <input
            id="cc-mcp-url"
            name="url"
            class="cc-input mono"
            type="url"
            value={s?.url ?? ""}
            placeholder="https://example.com/mcp"
            autocomplete="off"
            spellcheck={false}
          />
        </Field>
        <Field id="cc-mcp-headers" label="Headers" hint="Name: value per line." wide>
          <textarea
            id="cc-mcp-headers"
            name="headers"
            class="cc-input mono"
            rows={3}
            spellcheck={false}
            placeholder="Authorization: Bearer ${API_TOKEN}"
            value={pairs(s?.headers, ": ")}
          />
        </Field>
      </div>

      <div class="cc-grid cc-grid-3">
        <Field id="cc-mcp-approval" label="Tool calls">
          <select id="cc-mcp-approval" name="approval" class="cc-input">
            <option value="ask" selected={(s?.approval ?? "ask") === "ask"}>
              Ask before running
            </option>
            <option value="allow" selected={s?.approval === "allow"}>Run without asking</option>
          </select>
        </Field>
        <Field id="cc-mcp-timeout" label="Call timeout (s)">
          <input
            id="cc-mcp-timeout"
            name="timeout"
            class="cc-input"
            type="number"
            min="1"
            max="86400"
            value={timeout}
            placeholder={String(DEFAULT_TOOL_TIMEOUT_SECONDS)}
          />
        </Field>
        <Field id="cc-mcp-connect-timeout" label="Connect timeout (s)">
          <input
            id="cc-mcp-connect-timeout"
            name="connect_timeout"
            class="cc-input"
            type="number"
            min="1"
            max="3600"
            value={connect}
            placeholder={String(DEFAULT_CONNECT_TIMEOUT_SECONDS)}
          />
        </Field>
      </div>
      <label class="cc-toggle">
        <input type="checkbox" role="switch" name="enabled" checked={s?.enabled ?? true} />
        <span class="cc-toggle-track" aria-hidden="true" />
        <span class="cc-toggle-text">Enabled</span>
      </label>

      <div class="cc-form-foot">
        {s
          ? (
            <ConfirmAction
              label="Delete…"
              question={
                <>
                  Remove <code>{s.name}</code> from the config?
                </>
              }
              confirm="Delete server"
              action="mcp-delete"
              data={{ name: s.name }}
            />
          )
          : null}
        <StatusLine hook="mcp-form" />
        <button type="button" class="btn cc-btn" data-cc-action="mcp-cancel">Cancel</button>
        <button type="submit" class="btn cc-btn cc-btn-primary">
          {s ? "Save and reconnect" : "Add and connect"}
        </button>
      </div>
    </form>
  );
}

export function McpPanel({ data }: { data: McpData }) {
  const editing = data.editing === "new" ? null : data.editing;
  return (
    <Section
      hook="mcp"
      title="Servers"
      description="Model Context Protocol servers give the agent more tools. They start on first use."
      actions={
        <>
          <button
            type="button"
            class="btn cc-btn"
            data-cc-action="mcp-reload-all"
            disabled={data.servers.every((s) => !s.enabled)}
          >
            Reconnect all
          </button>
          <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="mcp-new">
            Add server
          </button>
        </>
      }
    >
      {data.servers.length === 0 && data.editing === null
        ? (
          <p class="cc-empty">
            No MCP servers yet. Add one (a command like <code>npx -y …</code> or an HTTP URL).
          </p>
        )
        : null}
      {data.servers.length > 0
        ? (
          <ul class="cc-rows" data-cc-list="mcp">
            {data.servers.map((s) => <ServerRow key={s.name} s={s} />)}
          </ul>
        )
        : null}
      {data.editing !== null ? <ServerForm s={editing} /> : null}
      <StatusLine hook="mcp" />
    </Section>
  );
}
