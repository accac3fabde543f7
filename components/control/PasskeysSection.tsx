// Control Center › System › Passkeys: the registered passkeys (name, created, last used) with
// Add and Remove. Shown only while a password is set (passkeys sit beside it, never replace
// it). The WebAuthn ceremony runs in lib/browser/pages/passkeys.ts, which loads
// @simplewebauthn/browser only when Add is pressed.
import type { PasskeyInfo } from "../../lib/security/passkeys.ts";
import { t } from "../../lib/i18n/t.ts";
import { ConfirmAction, ListRow, Section, StatusLine } from "./parts.tsx";

function when(seconds: number | null): string {
  if (seconds === null) return t("control.never");
  const time = new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 16);
  return t("control.utcTime", { time });
}

export function PasskeysSection(
  { passkeys, authEnabled }: { passkeys: PasskeyInfo[]; authEnabled: boolean },
) {
  if (!authEnabled) {
    return (
      <Section
        hook="passkeys"
        title={t("control.passkeys")}
        description={t("control.passkeysNoPassword")}
      />
    );
  }
  return (
    <Section
      hook="passkeys"
      title={t("control.passkeys")}
      description={t("control.passkeysHint")}
    >
      {passkeys.length === 0
        ? <p class="cc-block-desc" data-passkey-empty>{t("control.passkeysEmpty")}</p>
        : (
          <ul class="cc-rows" data-passkey-list>
            {passkeys.map((p) => (
              <ListRow
                attrs={{ "data-passkey-id": p.id }}
                name={p.name}
                meta={
                  <p class="cc-row-meta">
                    {t("control.passkeyMeta", {
                      added: when(p.created_at),
                      used: when(p.last_used_at),
                    })}
                  </p>
                }
                actions={
                  <ConfirmAction
                    label={t("control.removeAsk")}
                    question={t("control.passkeyRemoveQuestion", { name: p.name })}
                    confirm={t("control.passkeyRemove")}
                    action="passkey-remove"
                    data={{ "passkey-id": p.id }}
                  />
                }
              />
            ))}
          </ul>
        )}
      <form class="cc-form" data-passkey-form novalidate>
        <div class="cc-form-foot">
          <input
            class="cc-input"
            name="name"
            maxLength={100}
            placeholder={t("control.passkeyNamePlaceholder")}
            aria-label={t("control.passkeyName")}
          />
          <StatusLine hook="passkeys" />
          <button type="submit" class="btn cc-btn cc-btn-primary" data-passkey-add>
            {t("control.passkeyAdd")}
          </button>
        </div>
      </form>
    </Section>
  );
}
