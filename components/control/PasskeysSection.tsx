// Control Center › System › Passkeys: the registered passkeys (name, created, last used) with
// Add and Remove. Shown only while a password is set (passkeys sit beside it, never replace
// it). The WebAuthn ceremony runs in lib/browser/pages/passkeys.ts, which loads
// @simplewebauthn/browser only when Add is pressed.
import type { PasskeyInfo } from "../../lib/security/passkeys.ts";
import { ConfirmAction, ListRow, Section, StatusLine } from "./parts.tsx";

function when(seconds: number | null): string {
  if (seconds === null) return "never";
  return new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function PasskeysSection(
  { passkeys, authEnabled }: { passkeys: PasskeyInfo[]; authEnabled: boolean },
) {
  if (!authEnabled) {
    return (
      <Section
        hook="passkeys"
        title="Passkeys"
        description="Set a password first: passkeys are a second way to sign in beside it."
      />
    );
  }
  return (
    <Section
      hook="passkeys"
      title="Passkeys"
      description="Sign in with this device's fingerprint, face or security key instead of typing the password."
    >
      {passkeys.length === 0
        ? <p class="cc-block-desc" data-passkey-empty>No passkeys yet.</p>
        : (
          <ul class="cc-rows" data-passkey-list>
            {passkeys.map((p) => (
              <ListRow
                attrs={{ "data-passkey-id": p.id }}
                name={p.name}
                meta={
                  <p class="cc-row-meta">
                    added {when(p.created_at)} · last used {when(p.last_used_at)}
                  </p>
                }
                actions={
                  <ConfirmAction
                    label="Remove…"
                    question={`Remove the passkey "${p.name}"? It can no longer sign in.`}
                    confirm="Remove passkey"
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
            placeholder="Name (e.g. Work laptop)"
            aria-label="Passkey name"
          />
          <StatusLine hook="passkeys" />
          <button type="submit" class="btn cc-btn cc-btn-primary" data-passkey-add>
            Add a passkey
          </button>
        </div>
      </form>
    </Section>
  );
}
