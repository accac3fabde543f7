// A tool card's note that its command ran without asking because a grant covered it: the
// terminal tool opens such a result with "[allowed by rule `…`]" (lib/tools/terminal.ts).
import { t } from "../lib/i18n/t.ts";

const RULE = /^\[allowed by rule `([^`\n]{1,300})`\]/;

/** The rule named at the start of a tool result, or null. */
export function allowedRule(result: string | null): string | null {
  return result ? RULE.exec(result)?.[1] ?? null : null;
}

export function AllowedByRule({ result }: { result: string | null }) {
  const rule = allowedRule(result);
  if (!rule) return null;
  // The rule is code inside the sentence: split the message where it goes.
  const [before, after] = t("approvals.allowedByRule", { rule: "\u0001" }).split("\u0001");
  return (
    <span class="tool-rule" title={t("approvals.allowedByRuleTitle")}>
      {before}
      <code>{rule}</code>
      {after}
    </span>
  );
}
