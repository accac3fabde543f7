// The public, read-only page of a share link (`/share/<token>`): a whole HTML document with no
// scripts and no islands. Prose is rendered by lib/markdown/render.ts (raw HTML in model output
// is text, URLs vetted, images only inline data); everything else goes through Preact's
// escaping. Tool details appear only when the snapshot carries them.
import { KATEX_CSS_HREF, renderMarkdown } from "../../lib/markdown/render.ts";
import type { SharedTool, SharedTurn, ShareSnapshot } from "../../lib/sharing/share_snapshot.ts";
import type { ComponentChildren } from "preact";
import { currentDirection, currentLocale, formatDate, t } from "../../lib/i18n/t.ts";

/**
 * A workspace-relative image named a file of the owner's workspace: the public page has no
 * route to it, so it is dropped. Remote images become links (`remoteImages: "link"`).
 */
const rewriteUrl = (url: string, kind: "link" | "image") =>
  kind === "image" && !/^(data:|https?:)/i.test(url) ? null : url;

export function renderSharedProse(markdown: string): string {
  return renderMarkdown(markdown, { rewriteUrl, remoteImages: "link" });
}

function ShareDocument(
  { title, theme, math, children }: {
    title: string;
    theme: string;
    math: boolean;
    children: ComponentChildren;
  },
) {
  return (
    <html lang={currentLocale()} dir={currentDirection()} data-theme={theme}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content={theme === "system" ? "dark light" : theme} />
        <title>{title}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/static/style.css" />
        <link rel="stylesheet" href="/static/markdown.css" />
        <link rel="stylesheet" href="/static/transcript.css" />
        <link rel="stylesheet" href="/static/share.css" />
        {math ? <link rel="stylesheet" href={KATEX_CSS_HREF} /> : null}
      </head>
      <body class="share-body">{children}</body>
    </html>
  );
}

function ToolDetails({ tool }: { tool: SharedTool }) {
  return (
    <details class="share-tool" data-status={tool.status}>
      <summary>
        <span class="share-tool-name">{tool.name}</span>
        <span class="share-tool-target">{tool.target}</span>
      </summary>
      {tool.withheld ? <p class="share-tool-withheld">{t("share.filesWithheld")}</p> : (
        <>
          {tool.args ? <pre class="share-tool-args">{tool.args}</pre> : null}
          {tool.result ? <pre class="share-tool-result">{tool.result}</pre> : null}
          {tool.outputWithheld
            ? <p class="share-tool-withheld">{t("share.outputWithheld")}</p>
            : null}
        </>
      )}
    </details>
  );
}

function SharedTurnView({ turn, html }: { turn: SharedTurn; html: string[] }) {
  return (
    <div class="turn">
      {turn.user
        ? (
          <div class="msg msg-user">
            <div class="msg-user-bubble">
              {turn.user.text}
              {turn.user.attachments.length
                ? (
                  <span class="msg-attachments">
                    {turn.user.attachments.map((a, i) => (
                      <span class="msg-attachment" key={i}>{a}</span>
                    ))}
                  </span>
                )
                : null}
            </div>
          </div>
        )
        : null}
      {turn.tools.length
        ? (
          <div class="share-tools">
            {turn.tools.map((tool, i) => <ToolDetails key={i} tool={tool} />)}
          </div>
        )
        : turn.toolCount
        ? (
          <p class="share-tools-hidden">
            {t("share.toolsHidden", { count: turn.toolCount })}
          </p>
        )
        : null}
      {html.map((h, i) => (
        <div
          key={i}
          class="msg msg-assistant prose"
          // deno-lint-ignore react-no-danger
          dangerouslySetInnerHTML={{ __html: h }}
        />
      ))}
    </div>
  );
}

/** The shared conversation: its title, when it was shared, every turn of the snapshot. */
export function SharedPage(
  { snapshot, createdAt, theme }: { snapshot: ShareSnapshot; createdAt: number; theme: string },
) {
  const html = snapshot.turns.map((turn) => turn.segments.map(renderSharedProse));
  const math = html.some((segs) => segs.some((h) => h.includes('class="katex')));
  const when = formatDate(createdAt * 1000, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return (
    <ShareDocument
      title={t("share.documentTitle", { title: snapshot.title })}
      theme={theme}
      math={math}
    >
      <main class="share-main">
        <header class="share-header">
          <p class="share-kicker">{t("share.kicker")}</p>
          <h1 class="share-title">{snapshot.title}</h1>
          <p class="share-meta">{t("share.snapshotTaken", { when })}</p>
        </header>
        <div class="turns">
          {snapshot.turns.map((turn, i) => <SharedTurnView key={i} turn={turn} html={html[i]} />)}
        </div>
      </main>
    </ShareDocument>
  );
}

/** The answer to an unknown, revoked or expired token: the same words for all three. */
export function ShareNotFound({ theme }: { theme: string }) {
  return (
    <ShareDocument title={t("share.notFoundTitle")} theme={theme} math={false}>
      <main class="share-main share-missing">
        <h1 class="share-title">{t("share.notFoundHeading")}</h1>
        <p class="share-meta">{t("share.notFoundHint")}</p>
      </main>
    </ShareDocument>
  );
}
