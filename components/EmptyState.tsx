// What the central column shows before the first message: a quiet invitation that says
// where the agent will work (workspace, model), so the first chat starts with context, and a
// few suggestions that fill the composer (lib/browser/pages/page_preferences.ts). The
// `hide_empty_state_*` preferences hide the suggestions or the whole welcome (static/page_prefs.css).
import type { ComponentChildren } from "preact";
import { t } from "../lib/i18n/t.ts";

export interface EmptyStateProps {
  workspace: string | null;
  model: string | null;
  projectName?: string | null;
  /** A notice above the invitation, e.g. that the requested chat no longer exists. */
  notice?: string | null;
  /** Set when no provider is usable: say so plainly, and how to configure one. */
  noProvider?: { configPath: string } | null;
}

/** The suggestion buttons, as catalog keys; a click puts the text in the composer. */
const SUGGESTIONS = ["prefs.suggestExplore", "prefs.suggestReview", "prefs.suggestTests"] as const;

export function EmptyState(
  { workspace, model, projectName, notice, noProvider }: EmptyStateProps,
) {
  return (
    <div class="empty-state">
      {notice ? <p class="notice" role="status">{notice}</p> : null}
      {noProvider
        ? (
          <p class="notice" role="status" data-notice="no-provider">
            <NoProviderText configPath={noProvider.configPath} />
          </p>
        )
        : null}
      <div class="empty-welcome">
        <div class="brand-mark brand-mark-lg" aria-hidden="true">H</div>
        <h2 class="empty-title">{t("shell.emptyTitle")}</h2>
        <p class="empty-lede">{t("shell.emptyLede")}</p>
        <EmptyContext workspace={workspace} model={model} projectName={projectName} />
      </div>
      <ul class="empty-suggestions" aria-label={t("prefs.suggestions")}>
        {SUGGESTIONS.map((key) => (
          <li key={key}>
            <button type="button" class="empty-suggestion" data-suggestion>{t(key)}</button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function EmptyContext(
  { workspace, model, projectName }: Pick<EmptyStateProps, "workspace" | "model" | "projectName">,
) {
  return (
    <dl class="empty-context">
      {projectName
        ? (
          <div>
            <dt>{t("shell.project")}</dt>
            <dd>{projectName}</dd>
          </div>
        )
        : null}
      <div>
        <dt>{t("shell.workspace")}</dt>
        <dd class="mono">{workspace ?? t("shell.notSet")}</dd>
      </div>
      <div>
        <dt>{t("shell.model")}</dt>
        <dd class="mono">{model ?? t("shell.providerDefault")}</dd>
      </div>
    </dl>
  );
}

/** Stands in for the config path while the message's marks are split out. */
const PATH = "\u0000";

/**
 * The no-provider sentence: one catalog message whose `<link>…</link>` (to /onboarding) and
 * `<code>…</code>` marks become elements; every piece goes in as text (escaped by Preact).
 */
function NoProviderText({ configPath }: { configPath: string }) {
  const parts = t("shell.noProvider", { configPath: PATH }).split(/<(link|code)>(.*?)<\/\1>/);
  const out: ComponentChildren[] = [];
  for (let i = 0; i < parts.length; i += 3) {
    out.push(parts[i]);
    if (i + 2 >= parts.length) break;
    const inner = parts[i + 2].replaceAll(PATH, configPath);
    out.push(parts[i + 1] === "link" ? <a href="/onboarding">{inner}</a> : <code>{inner}</code>);
  }
  return <>{out}</>;
}
