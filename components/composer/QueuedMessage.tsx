// The messages waiting while an answer runs (several may wait, sent one per finished answer in
// order): each with its text (or file count), an Edit button that takes it back into the draft
// and a Remove button. Rendered inside the Composer island.
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { Icon } from "../Icon.tsx";
import { t } from "../../lib/i18n/t.ts";

export function QueuedMessage({ model: m }: { model: ComposerModel }) {
  const list = m.modes.all.value;
  if (!list.length) return null;
  return (
    <ol class="composer-queue" aria-label={t("composer.queuedMessages")}>
      {list.map((q, i) => (
        <li class="composer-queued" data-queued="" key={i}>
          <span class="queued-label">{i === 0 ? t("composer.queued") : `${i + 1}.`}</span>
          <span class="queued-text">
            {q.text || t("composer.queuedFiles", { count: q.attachments.length })}
          </span>
          {i === 0 ? <span class="queued-when">{t("composer.queuedWhen")}</span> : null}
          <button
            type="button"
            class="queued-edit"
            data-action="edit-queued"
            aria-label={t("composer.editQueued", { n: i + 1 })}
            title={t("composer.takeBack")}
            onClick={() => m.takeBackAt(i)}
          >
            {t("common.edit")}
          </button>
          <button
            type="button"
            class="attachment-remove"
            data-action="remove-queued"
            aria-label={t("composer.removeQueued", { n: i + 1 })}
            title={t("common.remove")}
            onClick={() => m.removeQueued(i)}
          >
            <Icon name="x" size={12} />
          </button>
        </li>
      ))}
    </ol>
  );
}
