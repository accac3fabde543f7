// The Control Center's Standing approvals tab: every rule "Always allow" left behind
// (lib/approvals/standing_rules.ts), newest first — an exact command with its workspace, or a
// whole category in words, never its internal key — when it was made, and a Remove button per
// rule that ends it at once (lib/browser/control/standing_rules_panel.ts). Command text and
// paths are the agent's and the person's: each sits in its own bidi isolate.
import type { AppContext } from "../../lib/server/app_context.ts";
import { listStandingRules, type StandingRule } from "../../lib/approvals/standing_rules.ts";
import { capitalized, hasRulePhrase, rulePhrase } from "../../lib/shared/rule_phrases.ts";
import { t } from "../../lib/i18n/t.ts";
import { Section, StatusLine, withNode } from "./parts.tsx";

export interface StandingRulesData {
  rules: StandingRule[];
}

export async function loadStandingRules(app: AppContext): Promise<StandingRulesData> {
  return { rules: await listStandingRules(app) };
}

const iso = (at: number) => new Date(at * 1000).toISOString();

/** A time the page script rewrites in the reader's zone (UTC until it does). */
function When({ at }: { at: number }) {
  return (
    <time dateTime={iso(at)} data-cc-localtime="">
      {t("control.utcTime", { time: iso(at).slice(0, 16).replace("T", " ") })}
    </time>
  );
}

/** How a rule is named to a person (the row, its Remove button, the status after removal). */
export function ruleName(rule: StandingRule): string {
  if (rule.kind === "command") {
    return rule.command.length > 80 ? `${rule.command.slice(0, 79)}…` : rule.command;
  }
  if (hasRulePhrase(rule.pattern_key)) return capitalized(rulePhrase(rule.pattern_key));
  return rule.description ?? rule.pattern_key;
}

function RuleRow({ rule }: { rule: StandingRule }) {
  const name = ruleName(rule);
  const phrased = rule.kind === "category" && hasRulePhrase(rule.pattern_key);
  return (
    <li class="cc-row cc-rule" data-rule-id={rule.id} data-kind={rule.kind}>
      <div class="cc-row-main">
        <div class="cc-row-title">
          {rule.kind === "command"
            ? <code class="cc-rule-command" dir="auto">{rule.command}</code>
            : <span class={phrased ? "cc-rule-name" : "cc-rule-name mono"}>{name}</span>}
        </div>
        <p class="cc-row-meta cc-rule-meta">
          <span class="cc-rule-kind">
            {rule.kind === "command"
              ? t("approval_rules.kindCommand")
              : t("approval_rules.kindCategory")}
          </span>
          {" · "}
          {rule.kind === "command"
            ? withNode(
              "approval_rules.inWorkspace",
              "workspace",
              <bdi class="mono">{rule.workspace}</bdi>,
            )
            : t("approval_rules.everyWorkspace")}
          {" · "}
          {rule.created_at !== null
            ? withNode("approval_rules.addedAt", "time", <When at={rule.created_at} />)
            : t("approval_rules.addedUnknown")}
          {phrased || rule.kind === "command" ? null : <>{" · "}{t("approval_rules.asWritten")}</>}
        </p>
      </div>
      <div class="cc-row-actions">
        <button
          type="button"
          class="btn cc-btn cc-btn-quiet"
          data-cc-action="rule-remove"
          data-rule-id={rule.id}
          data-rule-name={name}
          aria-label={t("approval_rules.removeLabel", { rule: `\u2068${name}\u2069` })}
        >
          {t("common.remove")}
        </button>
      </div>
    </li>
  );
}

export function StandingRulesPanel({ data }: { data: StandingRulesData }) {
  return (
    <Section
      hook="rules"
      title={t("approval_rules.sectionTitle")}
      description={t("approval_rules.sectionHint")}
    >
      {data.rules.length === 0
        ? <p class="cc-empty" data-cc-empty="rules" tabindex={-1}>{t("approval_rules.empty")}</p>
        : (
          <ul class="cc-rows" data-cc-list="rules">
            {data.rules.map((r) => <RuleRow key={r.id} rule={r} />)}
          </ul>
        )}
      <StatusLine hook="rules" />
    </Section>
  );
}
