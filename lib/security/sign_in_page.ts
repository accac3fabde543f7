// The plain page a browser lands on when a sign-in through a provider fails or is refused: it
// says why and links back to /login. Invariants: the message is text (escaped), the page
// carries no script and sets no cookie.

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An HTML response explaining a refused sign-in. */
export function signInErrorPage(message: string, status: number): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in refused</title><link rel="stylesheet" href="/static/login.css"></head>
<body><main class="login-shell"><div class="login-card">
<h1 class="login-title">Sign-in refused</h1>
<p class="login-error" id="sign-in-refused" role="alert">${escapeHtml(message)}</p>
<a class="login-submit" href="/login">Back to sign-in</a>
</div></main></body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
