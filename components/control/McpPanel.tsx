// Control Center › MCP servers: each configured server with its state (connected with its
// tool count, connecting, not started, disabled, or the last error), and the add/edit form
// (stdio: command, args, env, working folder; HTTP: URL and headers; enabled; approval).
// Secrets arrive masked (GET /api/mcp/servers); sending a masked value back keeps it.
import type { ComponentChildren } from "preact";
import type { AppContext } from "../../lib/server/app_context.ts";
import {
  DEFAULT_CONNECT_TIMEOUT_SECONDS,
  DEFAULT_TOOL_TIMEOUT_SECONDS,
} from "../../lib/mcp/config.ts";
import type { McpServerStatus } from "../../lib/mcp/manager.ts";
import {
  Badge,
  Field,
  FormFoot,
  ListRow,
  RowButton,
  RowToggle,
  Section,
  StatusLine,
  type Tone,
} from "./parts.tsx";

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
    <ListRow
      attrs={{ "data-mcp-server": s.name, "data-status": s.enabled ? s.status : "disabled" }}
      name={s.name}
      tags={
        <>
          <span class="cc-chip">{s.transport}</span>
          {s.approval === "allow"
            ? <span class="cc-chip" title="Tool calls run without asking">auto-approve</span>
            : null}
          <Badge tone={state.tone}>{state.text}</Badge>
        </>
      }
      meta={
        <>
          <p class="cc-row-meta mono" title={target}>{target}</p>
          {s.last_error && s.enabled
            ? <p class="cc-row-error" data-mcp-error>{s.last_error}</p>
            : null}
        </>
      }
      actions={
        <>
          <RowToggle action="mcp-toggle" name={s.name} enabled={s.enabled} />
          <RowButton
            action="mcp-reload"
            name={s.name}
            label="Reconnect"
            disabled={!s.enabled}
          />
          <RowButton action="mcp-edit" name={s.name} label="Edit" />
        </>
      }
    />
  );
}

/**
 * A form field holding one text input: id `cc-mcp-<name>`, monospace with no autocomplete
 * or spellcheck (names, commands, paths).
 */
function McpInput(
  { name, label, hint, wide, autofocus, ...input }: {
    name: string;
    label: string;
    hint?: ComponentChildren;
    wide?: boolean;
    value: string;
    placeholder?: string;
    readOnly?: boolean;
    required?: boolean;
    pattern?: string;
    /** Whether the page script focuses this field when the form opens. */
    autofocus?: boolean;
  },
) {
  const id = `cc-mcp-${name}`;
  return (
    <Field id={id} label={label} hint={hint} wide={wide}>
      <input
        id={id}
        name={name}
        class="cc-input mono"
        autocomplete="off"
        spellcheck={false}
        data-cc-autofocus={autofocus ? "" : undefined}
        {...input}
      />
    </Field>
  );
}

/** A timeout in seconds; blank keeps the default shown as the placeholder. */
function McpSeconds(
  { name, label, max, value, fallback }: {
    name: string;
    label: string;
    max: number;
    value: string;
    fallback: number;
  },
) {
  const id = `cc-mcp-${name.replaceAll("_", "-")}`;
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        name={name}
        class="cc-input"
        type="number"
        min="1"
        max={String(max)}
        value={value}
        placeholder={String(fallback)}
      />
    </Field>
  );
}

/** A monospace textarea field, one entry per line. */
function McpLines(
  { name, label, hint, wide, rows, placeholder, value }: {
    name: string;
    label: string;
    hint?: ComponentChildren;
    wide?: boolean;
    rows: number;
    placeholder: string;
    value: string;
  },
) {
  const id = `cc-mcp-${name}`;
  return (
    <Field id={id} label={label} hint={hint} wide={wide}>
      <textarea
        id={id}
        name={name}
        class="cc-input mono"
        rows={rows}
        spellcheck={false}
        placeholder={placeholder}
        value={value}
      />
    </Field>
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
        <McpInput
          name="name"
          label="Name"
          hint="Tools appear as mcp__name__tool."
          value={s?.name ?? ""}
          readOnly={!!s}
          required
          pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}"
          autofocus={!s}
        />
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
        <McpInput
          name="command"
          label="Command"
          wide
          value={s?.command ?? ""}
          placeholder="npx"
          autofocus={!!s}
        />
        <div class="cc-grid">
          <McpLines
            name="args"
            label="Arguments"
            hint="One per line."
            rows={4}
            placeholder={ARGS_EXAMPLE}
            value={lines(s?.args ?? [])}
          />
          <McpLines
            name="env"
            label="Environment"
            hint={
              <>
                KEY=value per line; <code>{"${VAR}"}</code> reads the server's environment.
              </>
            }
            rows={4}
            placeholder="GITHUB_TOKEN=${GITHUB_TOKEN}"
            value={pairs(s?.env, "=")}
          />
        </div>
        <McpInput name="cwd" label="Working folder" hint="Optional." wide value={s?.cwd ?? ""} />
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
        <McpLines
          name="headers"
          label="Headers"
          hint="Name: value per line."
          wide
          rows={3}
          placeholder="Authorization: Bearer ${API_TOKEN}"
          value={pairs(s?.headers, ": ")}
        />
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
        <McpSeconds
          name="timeout"
          label="Call timeout (s)"
          max={86400}
          value={timeout}
          fallback={DEFAULT_TOOL_TIMEOUT_SECONDS}
        />
        <McpSeconds
          name="connect_timeout"
          label="Connect timeout (s)"
          max={3600}
          value={connect}
          fallback={DEFAULT_CONNECT_TIMEOUT_SECONDS}
        />
      </div>
      <label class="cc-toggle">
        <input type="checkbox" role="switch" name="enabled" checked={s?.enabled ?? true} />
        <span class="cc-toggle-track" aria-hidden="true" />
        <span class="cc-toggle-text">Enabled</span>
      </label>

      <FormFoot
        remove={s
          ? {
            question: (
              <>
                Remove <code>{s.name}</code> from the config?
              </>
            ),
            confirm: "Delete server",
            action: "mcp-delete",
            name: s.name,
          }
          : undefined}
        status="mcp-form"
        cancelAction="mcp-cancel"
        submit={s ? "Save and reconnect" : "Add and connect"}
      />
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
