// Control Center › MCP servers: each configured server with its state (connected with its
// tool count, connecting, not started, disabled, or the last error), and the add/edit form
// (stdio: command, args, env, working folder; HTTP: URL and headers; enabled; approval).
// Secrets arrive masked (GET /api/mcp/servers); sending a masked value back keeps it.
import type { ComponentChildren, VNode } from "preact";
import type { AppContext } from "../../lib/server/app_context.ts";
import { t } from "../../lib/i18n/t.ts";
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
  if (!s.enabled) return { tone: "neutral", text: t("common.disabled") };
  switch (s.status) {
    case "connected":
      return { tone: "success", text: t("extensions.mcpConnected", { count: s.tool_count }) };
    case "connecting":
      return { tone: "warning", text: t("extensions.mcpConnecting") };
    case "error":
      return { tone: "error", text: t("common.error") };
    default:
      return { tone: "neutral", text: t("extensions.mcpNotStarted") };
  }
}

/** The arguments field's example: one argument per line. */
const ARGS_EXAMPLE = ["-y", "@modelcontextprotocol/server-filesystem", "/path"].join("\n");
/** Code samples the form shows as they are (commands, variables, URLs: never translated). */
const SAMPLE = {
  command: "npx",
  npx: "npx -y …",
  variable: "${VAR}",
  env: "GITHUB_TOKEN=${GITHUB_TOKEN}",
  url: "https://example.com/mcp",
  headers: "Authorization: Bearer ${API_TOKEN}",
};

/** The message `key` with markup (`nodes`' one entry) where it says `{<entry's name>}`. */
function tWith(key: string, nodes: Record<string, VNode>, values: Record<string, string> = {}) {
  const [slot, node] = Object.entries(nodes)[0];
  const [before, after = ""] = t(key, { ...values, [slot]: "\u0000" }).split("\u0000");
  return <>{before}{node}{after}</>;
}

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
            ? (
              <span class="cc-chip" title={t("extensions.mcpAutoApproveTitle")}>
                {t("extensions.mcpAutoApprove")}
              </span>
            )
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
            label={t("extensions.mcpReconnect")}
            disabled={!s.enabled}
          />
          <RowButton action="mcp-edit" name={s.name} label={t("common.edit")} />
        </>
      }
    />
  );
}

/**
 * A monospace form field, id `cc-mcp-<name>`, without spellcheck (names, commands, paths): one
 * text input (no autocomplete), or with `rows` a textarea holding one entry per line.
 */
function McpInput(
  { name, label, hint, wide, autofocus, rows, ...input }: {
    name: string;
    label: string;
    hint?: ComponentChildren;
    wide?: boolean;
    value: string;
    placeholder?: string;
    readOnly?: boolean;
    required?: boolean;
    pattern?: string;
    rows?: number;
    /** Whether the page script focuses this field when the form opens. */
    autofocus?: boolean;
  },
) {
  const id = `cc-mcp-${name}`;
  const common = { id, name, class: "cc-input mono", spellcheck: false };
  return (
    <Field id={id} label={label} hint={hint} wide={wide}>
      {rows ? <textarea {...common} rows={rows} {...input} /> : (
        <input
          {...common}
          autocomplete="off"
          data-cc-autofocus={autofocus ? "" : undefined}
          {...input}
        />
      )}
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

/** stdio or HTTP: the protocol names, shown as they are. */
function TransportChoice({ transport }: { transport: "stdio" | "http" }) {
  return (
    <fieldset class="cc-field cc-seg">
      <legend class="cc-label">{t("extensions.mcpTransport")}</legend>
      <label>
        <input type="radio" name="transport" value="stdio" checked={transport === "stdio"} />
        {/* i18n-ignore: a protocol name */}
        <span>stdio</span>
      </label>
      <label>
        <input type="radio" name="transport" value="http" checked={transport === "http"} />
        {/* i18n-ignore: a protocol name */}
        <span>HTTP</span>
      </label>
    </fieldset>
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
      aria-label={s ? t("extensions.mcpEditAria", { name: s.name }) : t("extensions.mcpAddAria")}
      novalidate
    >
      <h5 class="cc-subform-title">
        {s ? t("extensions.editTitle", { name: s.name }) : t("extensions.mcpAddTitle")}
      </h5>
      <div class="cc-grid">
        <McpInput
          name="name"
          label={t("common.name")}
          hint={t("extensions.mcpNameHint")}
          value={s?.name ?? ""}
          readOnly={!!s}
          required
          pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}"
          autofocus={!s}
        />
        <TransportChoice transport={transport} />
      </div>

      <div class="cc-transport" data-for="stdio">
        <McpInput
          name="command"
          label={t("extensions.mcpCommand")}
          wide
          value={s?.command ?? ""}
          placeholder={SAMPLE.command}
          autofocus={!!s}
        />
        <div class="cc-grid">
          <McpInput
            name="args"
            label={t("extensions.mcpArguments")}
            hint={t("extensions.mcpOnePerLine")}
            rows={4}
            placeholder={ARGS_EXAMPLE}
            value={lines(s?.args ?? [])}
          />
          <McpInput
            name="env"
            label={t("extensions.mcpEnvironment")}
            hint={tWith("extensions.mcpEnvHint", { variable: <code>{SAMPLE.variable}</code> })}
            rows={4}
            placeholder={SAMPLE.env}
            value={pairs(s?.env, "=")}
          />
        </div>
        <McpInput
          name="cwd"
          label={t("extensions.mcpWorkingFolder")}
          hint={t("extensions.mcpOptional")}
          wide
          value={s?.cwd ?? ""}
        />
      </div>

      <div class="cc-transport" data-for="http">
        <Field
          id="cc-mcp-url"
          label={t("extensions.mcpUrl")}
          hint={t("extensions.mcpUrlHint")}
          wide
        >
          <input
            id="cc-mcp-url"
            name="url"
            class="cc-input mono"
            type="url"
            value={s?.url ?? ""}
            placeholder={SAMPLE.url}
            autocomplete="off"
            spellcheck={false}
          />
        </Field>
        <McpInput
          name="headers"
          label={t("extensions.mcpHeaders")}
          hint={t("extensions.mcpHeadersHint")}
          wide
          rows={3}
          placeholder={SAMPLE.headers}
          value={pairs(s?.headers, ": ")}
        />
      </div>

      <div class="cc-grid cc-grid-3">
        <Field id="cc-mcp-approval" label={t("extensions.mcpToolCalls")}>
          <select id="cc-mcp-approval" name="approval" class="cc-input">
            <option value="ask" selected={(s?.approval ?? "ask") === "ask"}>
              {t("extensions.mcpAsk")}
            </option>
            <option value="allow" selected={s?.approval === "allow"}>
              {t("extensions.mcpAllow")}
            </option>
          </select>
        </Field>
        <McpSeconds
          name="timeout"
          label={t("extensions.mcpCallTimeout")}
          max={86400}
          value={timeout}
          fallback={DEFAULT_TOOL_TIMEOUT_SECONDS}
        />
        <McpSeconds
          name="connect_timeout"
          label={t("extensions.mcpConnectTimeout")}
          max={3600}
          value={connect}
          fallback={DEFAULT_CONNECT_TIMEOUT_SECONDS}
        />
      </div>
      <label class="cc-toggle">
        <input type="checkbox" role="switch" name="enabled" checked={s?.enabled ?? true} />
        <span class="cc-toggle-track" aria-hidden="true" />
        <span class="cc-toggle-text">{t("common.enabled")}</span>
      </label>

      <FormFoot
        remove={s
          ? {
            question: tWith("extensions.mcpRemoveQuestion", { name: <code>{s.name}</code> }),
            confirm: t("extensions.mcpDeleteServer"),
            action: "mcp-delete",
            name: s.name,
          }
          : undefined}
        status="mcp-form"
        cancelAction="mcp-cancel"
        submit={s ? t("extensions.mcpSaveReconnect") : t("extensions.mcpAddConnect")}
      />
    </form>
  );
}

export function McpPanel({ data }: { data: McpData }) {
  const editing = data.editing === "new" ? null : data.editing;
  return (
    <Section
      hook="mcp"
      title={t("extensions.mcpTitle")}
      description={t("extensions.mcpDescription")}
      actions={
        <>
          <button
            type="button"
            class="btn cc-btn"
            data-cc-action="mcp-reload-all"
            disabled={data.servers.every((s) => !s.enabled)}
          >
            {t("extensions.mcpReconnectAll")}
          </button>
          <button type="button" class="btn cc-btn cc-btn-primary" data-cc-action="mcp-new">
            {t("extensions.mcpAddServer")}
          </button>
        </>
      }
    >
      {data.servers.length === 0 && data.editing === null
        ? (
          <p class="cc-empty">
            {tWith("extensions.mcpEmpty", { command: <code>{SAMPLE.npx}</code> })}
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
