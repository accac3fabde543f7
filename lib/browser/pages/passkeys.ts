// Browser-safe page script (lib/browser/pages): imports nothing from Deno or the database.
// Passkey buttons: "Add a passkey" and "Remove passkey" in the Control Center (System tab) and
// "Sign in with a passkey" on /login (which loads this one script only when passkeys exist).
// It has no static imports: the WebAuthn code (@simplewebauthn/browser) loads on first use.

function init(): void {
  document.addEventListener("submit", (e) => {
    const form = (e.target as Element | null)?.closest<HTMLFormElement>("form[data-passkey-form]");
    if (!form) return;
    e.preventDefault();
    void import("../passkey_manage.ts").then((m) => m.addPasskey(form));
  });
  document.addEventListener("click", (e) => {
    const target = e.target as Element | null;
    const remove = target?.closest<HTMLButtonElement>('button[data-cc-action="passkey-remove"]');
    if (remove) {
      void import("../passkey_manage.ts").then((m) => m.removePasskey(remove));
      return;
    }
    const login = target?.closest<HTMLButtonElement>("button[data-passkey-login]");
    if (login) {
      e.preventDefault();
      void import("../passkey_login.ts").then((m) => m.signInWithPasskey(login));
    }
  });
}

if (typeof document !== "undefined") init();
