// Browser-safe (lib/browser): imports nothing from Deno or the database.
// "Sign in with a passkey" on /login, loaded on demand by lib/browser/pages/passkeys.ts: asks
// the server for a challenge, lets the authenticator sign it, posts the assertion; the server
// answers with the session cookie and the page moves on to `next`.
import { startAuthentication } from "@simplewebauthn/browser";

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => ({})) as Record<string, unknown>;
  if (!res.ok) throw new Error(String(data.error ?? `Sign-in failed (HTTP ${res.status})`));
  return data;
}

/** Run the sign-in ceremony; errors are written to the page's #login-error. */
export async function signInWithPasskey(button: HTMLButtonElement): Promise<void> {
  const error = document.getElementById("login-error");
  if (error) error.textContent = "";
  button.disabled = true;
  try {
    const optionsJSON = await post("/api/auth/passkey/options", {});
    const response = await startAuthentication({ optionsJSON: optionsJSON as never });
    await post("/api/auth/passkey/login", { response });
    const next = button.dataset.next ?? "/";
    location.assign(next.startsWith("/") && !next.startsWith("//") ? next : "/");
  } catch (err) {
    if (error) {
      error.textContent = (err as Error).name === "NotAllowedError"
        ? "Passkey sign-in was cancelled."
        : (err as Error).message;
    }
    button.disabled = false;
  }
}
