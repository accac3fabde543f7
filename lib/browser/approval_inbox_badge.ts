// Browser-safe: imports nothing from Deno or the database.
// The approval inbox badge in the sidebar footer: how many agents wait on the person, across
// every session (GET /api/approval/inbox, re-read every few seconds while the page is visible
// and after each chat event). The panel itself loads on first click.
import { api } from "./api_client.ts";
import { formatNumber, t } from "../i18n/t.ts";

const POLL_MS = 4000;
const badge = () => document.querySelector<HTMLButtonElement>("[data-approval-inbox]");

interface Counts {
  count: number;
  sessions: number;
}

function show(c: Counts): void {
  const b = badge();
  if (!b) return;
  b.hidden = c.count === 0;
  const n = b.querySelector<HTMLElement>("[data-approval-inbox-count]");
  if (n) n.textContent = formatNumber(c.count);
  const text = b.querySelector<HTMLElement>("[data-approval-inbox-text]");
  if (text) text.textContent = t("sidebar.agentsWaiting", { count: c.sessions });
  // The name starts with the visible text, count included (WCAG 2.5.3 Label in Name).
  b.setAttribute(
    "aria-label",
    t("a11y.approvalInboxName", {
      count: formatNumber(c.count),
      label: t("sidebar.agentsWaitingOpen", { count: c.sessions }),
    }),
  );
}

async function poll(): Promise<void> {
  if (document.visibilityState !== "visible") return;
  try {
    show(await api<Counts>("GET", "/api/approval/inbox", undefined, { background: true }));
  } catch { /* signed out or offline: the next poll tries again */ }
}

/** Wire the badge when the page has one (lib/browser/pages/chat_chrome.ts calls it once). */
export function installApprovalBadge(): void {
  if (!badge()) return;
  badge()!.addEventListener("click", () => {
    void import("./approval_inbox_panel.ts").then((m) => m.openApprovalInbox(show));
  });
  void poll();
  setInterval(() => void poll(), POLL_MS);
  document.addEventListener("visibilitychange", () => void poll());
}
