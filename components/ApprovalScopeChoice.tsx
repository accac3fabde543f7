// The wide "always" of an approval card: every command of the category (its pattern keys), a
// second, explicit and quieter choice beside the narrow default (this exact command). The
// categories read as words in the page's language ("Always allow recursive deletes"), never as
// the policy's internal keys (lib/shared/rule_phrases.ts).
import { t } from "../lib/i18n/t.ts";
import { rulePhraseList } from "../lib/shared/rule_phrases.ts";

export interface AlwaysCategoryProps {
  keys: string[];
  disabled: boolean;
  onClick: () => void;
}

export function AlwaysCategory({ keys, disabled, onClick }: AlwaysCategoryProps) {
  const list = rulePhraseList(keys);
  return (
    <button
      type="button"
      class="btn btn-quiet"
      data-choice="always-pattern"
      disabled={disabled}
      title={t("approvals.allowAlwaysEveryTitle", { list })}
      onClick={onClick}
    >
      {t("approvals.allowAlwaysEvery", { list })}
    </button>
  );
}
