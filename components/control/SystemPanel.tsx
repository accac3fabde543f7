// Control Center › System: what is running (version, uptime, where config and state live),
// whether terminal commands run in the bubblewrap sandbox, the login password (set, change,
// remove — unless the environment sets it) and the way to Insights.
import type { VNode } from "preact";
import type { AppContext } from "../../lib/server/app_context.ts";
import { formatNumber, t } from "../../lib/i18n/t.ts";
import type { SandboxStatus } from "../../lib/sandbox/command_runner.ts";
import type { PublicSettings } from "../../lib/settings/settings.ts";
import denoConfig from "../../deno.json" with { type: "json" };
import { Badge, ConfirmAction, Field, NewPasswordInput, Section, StatusLine } from "./parts.tsx";
import { listPasskeys, type PasskeyInfo } from "../../lib/security/passkeys.ts";
import { PasskeysSection } from "./PasskeysSection.tsx";
import { sql } from "../../lib/storage/db.ts";

export interface SystemData {
  /** The release (deno.json "version"), or null for a development checkout. */
  version: string | null;
  runtime: string;
  startedAt: number;
  uptimeSeconds: number;
  sessions: number;
  activeStreams: number;
  sandbox: SandboxStatus;
  /** The owner's extra read-only paths inside the sandbox (config.yaml `sandbox.read_paths`). */
  sandboxReadPaths: readonly string[];
  configPath: string;
  stateDir: string;
  password: Pick<PublicSettings, "password_set" | "password_from_env" | "auth_enabled">;
  /** Registered passkeys (components/control/PasskeysSection.tsx). */
  passkeys: PasskeyInfo[];
}

/** The panel's data, loaded (awaited) before the panel renders: the panel only draws it. */
export async function loadSystem(
  app: Pick<AppContext, "db" | "clock" | "config" | "startedAt" | "tools">,
  settings: PublicSettings,
): Promise<SystemData> {
  const counts = await app.db.get<{ n: number; active: number }>(
    sql`SELECT (SELECT count(*) FROM sessions) AS n,
          (SELECT count(*) FROM streams WHERE status = 'running') AS active`,
  );
  const version = (denoConfig as { version?: unknown }).version;
  return {
    version: typeof version === "string" ? version : null,
    runtime: `Deno ${Deno.version.deno}`,
    startedAt: app.startedAt,
    uptimeSeconds: Math.max(0, app.clock() - app.startedAt),
    sessions: Number(counts?.n ?? 0),
    activeStreams: Number(counts?.active ?? 0),
    sandbox: await app.tools.commands.status(),
    sandboxReadPaths: app.tools.commands.readPaths ?? [],
    configPath: app.config.configPath,
    stateDir: app.config.stateDir,
    password: {
      password_set: settings.password_set,
      password_from_env: settings.password_from_env,
      auth_enabled: settings.auth_enabled,
    },
    passkeys: await listPasskeys(app),
  };
}

/** 8_100 → "2 h 15 min" (in the page's language); whole units only, the two largest. */
export function formatUptime(seconds: number): string {
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return t("extensions.uptimeDays", { days, hours });
  if (hours > 0) return t("extensions.uptimeHours", { hours, minutes });
  if (minutes > 0) return t("extensions.uptimeMinutes", { minutes });
  return t("extensions.uptimeSeconds", { seconds: s });
}

/** The message `key` with markup (`nodes`' one entry) where it says `{<entry's name>}`. */
function tWith(key: string, nodes: Record<string, VNode>) {
  const [slot, node] = Object.entries(nodes)[0];
  const [before, after = ""] = t(key, { [slot]: "\u0000" }).split("\u0000");
  return <>{before}{node}{after}</>;
}

function PasswordForm({ p }: { p: SystemData["password"] }) {
  if (p.password_from_env) {
    return (
      <p class="cc-block-desc">
        {/* i18n-ignore: an environment variable's name */}
        {tWith("extensions.passwordFromEnv", { variable: <code>HERMES_WEBUI_PASSWORD</code> })}
      </p>
    );
  }
  return (
    <>
      <form class="cc-form" data-cc-form="password" novalidate>
        <div class="cc-grid">
          <Field
            id="cc-password"
            label={p.password_set ? t("extensions.passwordNew") : t("extensions.password")}
          >
            <NewPasswordInput id="cc-password" name="password" required />
          </Field>
          <Field id="cc-password-confirm" label={t("extensions.passwordRepeat")}>
            <NewPasswordInput id="cc-password-confirm" name="confirm" required />
          </Field>
        </div>
        <div class="cc-form-foot">
          {p.password_set
            ? (
              <ConfirmAction
                label={t("extensions.passwordRemoveAsk")}
                question={t("extensions.passwordRemoveQuestion")}
                confirm={t("extensions.passwordRemove")}
                action="password-clear"
              />
            )
            : null}
          <StatusLine hook="password" />
          <button type="submit" class="btn cc-btn cc-btn-primary">
            {p.password_set ? t("extensions.passwordChange") : t("extensions.passwordSet")}
          </button>
        </div>
      </form>
    </>
  );
}

export function SystemPanel({ data }: { data: SystemData }) {
  const started = new Date(data.startedAt * 1000).toISOString();
  return (
    <>
      <Section hook="about" title={t("extensions.systemAbout")}>
        <dl class="cc-facts" data-cc-facts>
          <div>
            <dt>{t("extensions.systemVersion")}</dt>
            <dd data-fact="version">
              {data.version
                ? t("extensions.systemRelease", { version: data.version })
                : t("extensions.systemDevBuild")}
              <span class="cc-fact-aside">{data.runtime}</span>
            </dd>
          </div>
          <div>
            <dt>{t("extensions.systemUptime")}</dt>
            <dd data-fact="uptime">
              <span data-cc-uptime={String(data.startedAt)}>
                {formatUptime(data.uptimeSeconds)}
              </span>
              <span class="cc-fact-aside">
                {tWith("extensions.systemSince", {
                  time: (
                    <time dateTime={started} data-cc-localtime>
                      {t("extensions.systemUtc", { time: started.replace("T", " ").slice(0, 16) })}
                    </time>
                  ),
                })}
              </span>
            </dd>
          </div>
          <div>
            <dt>{t("extensions.systemConversations")}</dt>
            <dd data-fact="sessions">
              {formatNumber(data.sessions)}
              <span class="cc-fact-aside">
                {t("extensions.systemRunning", { count: data.activeStreams })}
              </span>
            </dd>
          </div>
          <div>
            <dt>{t("extensions.systemConfigFile")}</dt>
            <dd class="mono cc-break">{data.configPath}</dd>
          </div>
          <div>
            <dt>{t("extensions.systemStateFolder")}</dt>
            <dd class="mono cc-break">{data.stateDir}</dd>
          </div>
        </dl>
      </Section>

      <Section hook="sandbox" title={t("extensions.systemSandbox")}>
        <p class="cc-sandbox" data-sandbox={data.sandbox.bubblewrap ? "on" : "off"}>
          <Badge tone={data.sandbox.bubblewrap ? "success" : "warning"}>
            {data.sandbox.bubblewrap
              ? t("extensions.systemSandboxOn")
              : t("extensions.systemSandboxOff")}
          </Badge>
          <span class="cc-block-desc">{data.sandbox.message}</span>
        </p>
        {data.sandbox.warning
          ? (
            <p class="cc-sandbox" data-sandbox="root">
              <Badge tone="warning">{t("extensions.systemRoot")}</Badge>
              <span class="cc-block-desc">{data.sandbox.warning}</span>
            </p>
          )
          : null}
        {data.sandbox.bubblewrap
          ? (
            <dl class="cc-facts cc-sandbox-plan" data-sandbox-plan>
              <div>
                <dt>{t("extensions.systemSandboxUser")}</dt>
                <dd>{data.sandbox.uid_model}</dd>
              </div>
              <div>
                <dt>{t("extensions.systemSandboxSees")}</dt>
                <dd>{data.sandbox.sees}</dd>
              </div>
              <div>
                <dt>{t("extensions.systemSandboxReadPaths")}</dt>
                <dd class={data.sandboxReadPaths.length ? "mono cc-break" : ""}>
                  {data.sandboxReadPaths.length
                    ? data.sandboxReadPaths.join(", ")
                    : t("extensions.systemSandboxReadPathsNone")}
                </dd>
              </div>
            </dl>
          )
          : null}
      </Section>

      <Section
        hook="password"
        title={t("extensions.password")}
        description={data.password.auth_enabled
          ? t("extensions.passwordOn")
          : t("extensions.passwordOff")}
      >
        <PasswordForm p={data.password} />
      </Section>

      <PasskeysSection passkeys={data.passkeys} authEnabled={data.password.auth_enabled} />

      <Section
        hook="insights"
        title={t("extensions.usageTitle")}
        description={t("extensions.usageDescription")}
        actions={
          <a class="btn cc-btn" href="/insights" data-cc-link>{t("extensions.usageOpen")}</a>
        }
      />
    </>
  );
}
