// Browser-safe (lib/browser): imports nothing from Deno or the database.
// "Sign in with a passkey" on /login, loaded on demand by lib/browser/pages/passkeys.ts: asks
// the server for a challenge, lets the authenticator sign it, posts the assertion; the server
// answers with the session cookie and the page moves on to `next`.
import { startAuthentication } from "@simplewebauthn/browser";

/**
 * The login form's translated message `name` (routes/login.tsx puts them in data-msg-*
 * attributes: /login ships no catalog), with `{status}` filled in.
 */
function message(name: string, status?: number): string {
  const text = document.getElementById("login-form")?.dataset[name] ?? "";
  return status === undefined ? text : text.replace("{status}", String(status));
}

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => ({})) as Record<string, unknown>;
  if (!res.ok) throw new Error(String(data.error ?? message("msgFailed", res.status)));
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
        ? message("msgPasskeyCancelled")
        : (err as Error).message;
    }
    button.disabled = false;
  }
}
