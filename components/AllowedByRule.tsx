// A tool card's note that its command ran without asking because a grant covered it: the
// terminal tool opens such a result with "[allowed by rule `…`]" (lib/shared/allowed_by_rule.ts).
// Shown as plain words in the page's language ("allowed by rule: recursive deletes"), never the
// raw note with its backticks and internal keys; the output itself is shown beside it.
import { t } from "../lib/i18n/t.ts";
import { readAllowedNote } from "../lib/shared/allowed_by_rule.ts";
import { rulePhraseList } from "../lib/shared/rule_phrases.ts";

/** The rule named at the start of a tool result, in words, or null when there is none. */
export function allowedRule(result: string | null): string | null {
  const note = readAllowedNote(result);
  if (!note) return null;
  return note.grant.kind === "command"
    ? t("approval_rules.thisCommand")
    : rulePhraseList(note.grant.keys);
}

export function AllowedByRule({ result }: { result: string | null }) {
  const rule = allowedRule(result);
  if (!rule) return null;
  // The rule is its own phrase inside the sentence: split the message where it goes.
  const [before, after = ""] = t("approvals.allowedByRule", { rule: "\u0001" }).split("\u0001");
  return (
    <span class="tool-rule" title={t("approvals.allowedByRuleTitle")}>
      {before}
      <bdi class="tool-rule-name">{rule}</bdi>
      {after}
    </span>
  );
}
