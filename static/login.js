// Login page behaviour: post the password with fetch, show errors in place, then go on to the
// (server-validated) `next` path. Without this script the form still works as a plain post.
// Its words come translated from routes/login.tsx, in the form's data-msg-* attributes.
const form = document.getElementById("login-form");
const input = document.getElementById("login-password");
const error = document.getElementById("login-error");
const submit = document.getElementById("login-submit");

/** The form's translated message `name` (data-msg-<name>), `{status}` filled in. */
function message(name, status) {
  const text = form?.dataset[name] ?? "";
  return status === undefined ? text : text.replace("{status}", String(status));
}

/** Only same-site relative paths: the server validated it, this re-checks defensively. */
function nextPath() {
  const next = form?.dataset.next ?? "/";
  const safe = /^\/(?![\/\\])/.test(next) && !next.includes("\\") &&
    ![...next].some((c) => c.charCodeAt(0) < 0x20);
  return safe ? next : "/";
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  submit.disabled = true;
  form.setAttribute("aria-busy", "true");
  try {
    const res = await fetch("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ password: input.value }),
    });
    if (res.ok) {
      location.replace(nextPath());
      return;
    }
    const body = await res.json().catch(() => ({}));
    error.textContent = res.status === 401
      ? message("msgInvalid")
      : body.error ?? message("msgFailed", res.status);
    input.select();
  } catch {
    error.textContent = message("msgUnreachable");
  } finally {
    submit.disabled = false;
    form.removeAttribute("aria-busy");
  }
});
