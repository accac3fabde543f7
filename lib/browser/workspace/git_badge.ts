// Browser-safe: imports nothing from Deno or the database.
// The workspace panel head's git badge (branch, ●changed, ↑ahead ↓behind), read from
// GET /api/git-info — the one source the page load uses too — whenever the panel shows, a run
// ends, or the person changed the repository or its files from the page (`hermes:git-changed`:
// a commit or other Git tab action, a rollback). Names enter the DOM as textContent only.
import { api } from "../api_client.ts";
import { el } from "../ui_menu.ts";
import { t } from "../../i18n/t.ts";

/**
 * GET /api/git-info's `git` (the original's shape; the badge reads the summary fields, the Git
 * tab the same with its page of files, lib/browser/workspace/git_view.ts).
 */
export type GitInfo = { is_git: false } | {
  is_git: true;
  branch: string;
  upstream: string;
  ahead: number;
  behind: number;
  totals: {
    changed: number;
    staged: number;
    unstaged: number;
    untracked: number;
    conflicts: number;
  };
  truncated: boolean;
};

/** Show the git state of `sessionId`'s workspace in `badge` (hidden outside a repository). */
export async function refreshGitBadge(badge: HTMLElement, sessionId: string): Promise<void> {
  try {
    const { git } = await api<{ git: GitInfo | null }>(
      "GET",
      `/api/git-info?session_id=${encodeURIComponent(sessionId)}`,
    );
    if (!git || !git.is_git) {
      badge.hidden = true;
      return;
    }
    const changed = git.totals.changed;
    const modified = changed - git.totals.untracked;
    const parts = [el("span", { class: "git-branch" }, git.branch)];
    if (changed > 0) {
      parts.push(
        el("span", { class: "git-dirty", "data-dirty-count": String(changed) }, `●${changed}`),
      );
    }
    if (git.ahead) parts.push(el("span", { class: "git-sync" }, `↑${git.ahead}`));
    if (git.behind) parts.push(el("span", { class: "git-sync" }, `↓${git.behind}`));
    badge.replaceChildren(...parts);
    badge.dataset.dirty = String(changed > 0);
    const counts = { branch: git.branch, modified, untracked: git.totals.untracked };
    badge.title = git.ahead || git.behind
      ? t("workspace.gitBadgeSync", { ...counts, ahead: git.ahead, behind: git.behind })
      : t("workspace.gitBadge", counts);
    badge.hidden = false;
  } catch {
    badge.hidden = true; // git state is a nicety; the tree reports real failures
  }
}
