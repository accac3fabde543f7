// The wide "always" of an approval card: every command of the category (its pattern keys), a
// second, explicit and quieter choice beside the narrow default (this exact command).
import { t } from "../lib/i18n/t.ts";

export interface AlwaysCategoryProps {
  keys: string[];
  disabled: boolean;
  onClick: () => void;
}

export function AlwaysCategory({ keys, disabled, onClick }: AlwaysCategoryProps) {
  const list = keys.filter(Boolean).join(", ");
  // The keys are code inside the sentence: split the message where they go.
  const [before, after] = t("approvals.allowAlwaysEvery", { list: "\u0001" }).split("\u0001");
  return (
    <button
      type="button"
      class="btn btn-quiet"
      data-choice="always-pattern"
      disabled={disabled}
      title={t("approvals.allowAlwaysEveryTitle", { list })}
      onClick={onClick}
    >
      {before}
      <code>{list}</code>
      {after}
    </button>
  );
}
