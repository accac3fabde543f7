// Control Center › System: what is running (version, uptime, where config and state live),
// whether terminal commands run in the bubblewrap sandbox, the login password (set, change,
// remove — unless the environment sets it) and the way to Insights.
import type { AppContext } from "../../lib/server/app_context.ts";
import type { SandboxStatus } from "../../lib/sandbox/command_runner.ts";
import type { PublicSettings } from "../../lib/settings/settings.ts";
import denoConfig from "../../deno.json" with { type: "json" };
import { Badge, ConfirmAction, Field, NewPasswordInput, Section, StatusLine } from "./parts.tsx";
import { listPasskeys, type PasskeyInfo } from "../../lib/security/passkeys.ts";
import { PasskeysSection } from "./PasskeysSection.tsx";

export interface SystemData {
  /** The release (deno.json "version"), or null for a development checkout. */
  version: string | null;
  runtime: string;
  startedAt: number;
  uptimeSeconds: number;
  sessions: number;
  activeStreams: number;
  sandbox: SandboxStatus;
  configPath: string;
  stateDir: string;
  password: Pick<PublicSettings, "password_set" | "password_from_env" | "auth_enabled">;
  /** Registered passkeys (components/control/PasskeysSection.tsx). */
  passkeys: PasskeyInfo[];
}

export async function loadSystem(
  app: Pick<AppContext, "db" | "clock" | "config" | "startedAt" | "tools">,
  settings: PublicSettings,
): Promise<SystemData> {
  const { n } = app.db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number };
  const { active } = app.db.prepare(
    "SELECT count(*) AS active FROM streams WHERE status = 'running'",
  ).get() as { active: number };
  const version = (denoConfig as { version?: unknown }).version;
  return {
    version: typeof version === "string" ? version : null,
    runtime: `Deno ${Deno.version.deno}`,
    startedAt: app.startedAt,
    uptimeSeconds: Math.max(0, app.clock() - app.startedAt),
    sessions: n,
    activeStreams: active,
    sandbox: await app.tools.commands.status(),
    configPath: app.config.configPath,
    stateDir: app.config.stateDir,
    password: {
      password_set: settings.password_set,
      password_from_env: settings.password_from_env,
      auth_enabled: settings.auth_enabled,
    },
    passkeys: listPasskeys(app),
  };
}

/** 8_100 → "2 h 15 min"; whole units only, the two largest. */
export function formatUptime(seconds: number): string {
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

function PasswordForm({ p }: { p: SystemData["password"] }) {
  if (p.password_from_env) {
    return (
      <p class="cc-block-desc">
        Set by <code>HERMES_WEBUI_PASSWORD</code>; change or unset it in the environment.
      </p>
    );
  }
  return (
    <>
      <form class="cc-form" data-cc-form="password" novalidate>
        <div class="cc-grid">
          <Field id="cc-password" label={p.password_set ? "New password" : "Password"}>
            <NewPasswordInput id="cc-password" name="password" required />
          </Field>
          <Field id="cc-password-confirm" label="Repeat it">
            <NewPasswordInput id="cc-password-confirm" name="confirm" required />
          </Field>
        </div>
        <div class="cc-form-foot">
          {p.password_set
            ? (
              <ConfirmAction
                label="Remove password…"
                question="Anyone who can reach this address can then use the console."
                confirm="Remove password"
                action="password-clear"
              />
            )
            : null}
          <StatusLine hook="password" />
          <button type="submit" class="btn cc-btn cc-btn-primary">
            {p.password_set ? "Change password" : "Set password"}
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
      <Section hook="about" title="About">
        <dl class="cc-facts" data-cc-facts>
          <div>
            <dt>Version</dt>
            <dd data-fact="version">
              Hermes Console {data.version ?? "(development build)"}
              <span class="cc-fact-aside">{data.runtime}</span>
            </dd>
          </div>
          <div>
            <dt>Uptime</dt>
            <dd data-fact="uptime">
              <span data-cc-uptime={String(data.startedAt)}>
                {formatUptime(data.uptimeSeconds)}
              </span>
              <span class="cc-fact-aside">
                since{" "}
                <time dateTime={started} data-cc-localtime>
                  {started.replace("T", " ").slice(0, 16)} UTC
                </time>
              </span>
            </dd>
          </div>
          <div>
            <dt>Conversations</dt>
            <dd data-fact="sessions">
              {data.sessions}
              <span class="cc-fact-aside">
                {data.activeStreams} running now
              </span>
            </dd>
          </div>
          <div>
            <dt>Config file</dt>
            <dd class="mono cc-break">{data.configPath}</dd>
          </div>
          <div>
            <dt>State folder</dt>
            <dd class="mono cc-break">{data.stateDir}</dd>
          </div>
        </dl>
      </Section>

      <Section hook="sandbox" title="Sandbox">
        <p class="cc-sandbox" data-sandbox={data.sandbox.bubblewrap ? "on" : "off"}>
          <Badge tone={data.sandbox.bubblewrap ? "success" : "warning"}>
            Bubblewrap sandbox {data.sandbox.bubblewrap ? "on" : "off"}
          </Badge>
          <span class="cc-block-desc">{data.sandbox.message}</span>
        </p>
        {data.sandbox.warning
          ? (
            <p class="cc-sandbox" data-sandbox="root">
              <Badge tone="warning">Runs as root</Badge>
              <span class="cc-block-desc">{data.sandbox.warning}</span>
            </p>
          )
          : null}
      </Section>

      <Section
        hook="password"
        title="Password"
        description={data.password.auth_enabled
          ? "The console asks for a password before anything else."
          : "No password: anyone who can reach this address can use the console."}
      >
        <PasswordForm p={data.password} />
      </Section>

      <PasskeysSection passkeys={data.passkeys} authEnabled={data.password.auth_enabled} />

      <Section
        hook="insights"
        title="Usage"
        description="Tokens, costs and activity over time, per model."
        actions={<a class="btn cc-btn" href="/insights" data-cc-link>Open Insights</a>}
      />
    </>
  );
}
