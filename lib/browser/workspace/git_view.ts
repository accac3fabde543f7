// Browser-safe: imports nothing from Deno or the database.
// The workspace panel's Git tab: branch switch/create, fetch/pull/push, the changed files in three
// groups (staged, changes, untracked; paged 500 at a time), a per-file diff whose hunks stage or
// unstage one by one, discard (confirmed), the commit box (git_commit_box.ts: commit, commit the
// ticked files, a message written by the model) and a short log. A switch with local changes
// offers to stash them (/api/git/stash-checkout). Everything goes through /api/git/*; text is
// set with textContent only (file names and diffs are workspace data).
import { api, ApiError } from "../api_client.ts";
import type { PanelView } from "./panel_views.ts";
import type { GitInfo } from "./git_badge.ts";
import { el } from "../ui_menu.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import { t } from "../../i18n/t.ts";
import { buildCommitBox, resetCommitBox, selectBox, syncCommitBox } from "./git_commit_box.ts";

const STYLESHEET = "/static/git_panel.css";

interface GitFile {
  path: string;
  old_path: string | null;
  status: string;
  staged: boolean;
  unstaged: boolean;
  untracked: boolean;
  conflict: boolean;
}

/** The Git tab's answer: the badge's summary and a page of the changed files. */
type Status =
  | { is_git: false }
  | (Extract<GitInfo, { is_git: true }> & {
    files: GitFile[];
    offset: number;
    limit: number;
    total: number;
  });

interface Diff {
  path: string;
  kind: "staged" | "unstaged" | "untracked";
  binary: boolean;
  too_large: boolean;
  additions: number;
  deletions: number;
  hunks: Array<{ index: number; header: string; lines: string[] }>;
}

interface Branches {
  current: string;
  detached: boolean;
  head: string | null;
  local: Array<{ name: string; current: boolean }>;
}

let host: HTMLElement;
let sessionId: string | null = null;
let files: GitFile[] = [];
let status: Status | null = null;
let selected: { path: string; kind: "staged" | "unstaged" } | null = null;
let busy = false;
let generation = 0;

function button(label: string, onClick: () => void, attrs: Record<string, string> = {}) {
  const b = el("button", { type: "button", class: "git-btn", ...attrs }, label);
  b.addEventListener("click", (e) => {
    e.stopPropagation();
    onClick();
  });
  return b;
}

const part = (name: string) => host.querySelector<HTMLElement>(`[data-git="${name}"]`)!;

function showError(message: string | null) {
  const box = part("error");
  box.textContent = message ?? "";
  box.hidden = !message;
}

function sid(): string {
  return encodeURIComponent(sessionId ?? "");
}

/** Run a mutation: one at a time, its error shown, the view refreshed from its answer. */
async function act(fn: () => Promise<unknown>) {
  if (busy) return;
  busy = true;
  host.setAttribute("aria-busy", "true");
  showError(null);
  try {
    const out = await fn();
    if (sessionId) emitHermesEvent("hermes:git-changed", { session_id: sessionId });
    if (out && typeof out === "object" && "git" in out) {
      applyStatus((out as { git: Status }).git, true);
    } else if (out && typeof out === "object" && "status" in out) {
      applyStatus((out as { status: Status }).status, true);
    }
  } catch (err) {
    showError(err instanceof ApiError ? err.message : (err as Error).message);
  } finally {
    busy = false;
    host.removeAttribute("aria-busy");
  }
  void loadBranches();
  void loadLog();
  if (selected) void showDiff(selected.path, selected.kind);
}

function build() {
  host.replaceChildren();
  const view = el("div", { class: "git-view" });
  const bar = el("div", { class: "git-bar" });
  const branch = el("select", {
    class: "git-branch",
    "aria-label": t("git.branch"),
    "data-git": "branch",
  });
  branch.addEventListener("change", () => {
    const name = branch.value;
    if (name) void act(() => switchBranch(name));
  });
  bar.append(
    branch,
    button(t("git.newBranch"), () => {
      const name = prompt(t("git.newBranchName"));
      if (name) {
        void act(() => api("POST", "/api/git/branch", { session_id: sessionId, branch: name }));
      }
    }),
    button(
      t("git.fetch"),
      () => void act(() => api("POST", "/api/git/fetch", { session_id: sessionId })),
    ),
    button(
      t("git.pull"),
      () => void act(() => api("POST", "/api/git/pull", { session_id: sessionId })),
    ),
    button(
      t("git.push"),
      () => void act(() => api("POST", "/api/git/push", { session_id: sessionId })),
    ),
    button(t("common.refresh"), () => void refresh(), { "aria-label": t("git.refreshStatus") }),
  );
  const summary = el("p", { class: "git-summary", "data-git": "summary", role: "status" });
  const error = el("p", { class: "git-error", role: "alert", "data-git": "error" });
  error.hidden = true;
  const list = el("div", { class: "git-files", "data-git": "files" });
  const more = el("div", { "data-git": "more" });
  const diff = el("div", { class: "git-diff", "data-git": "diff" });
  const commit = buildCommitBox({ sessionId: () => sessionId, act, showError });
  const logTitle = el("h3", { class: "git-heading" }, t("git.history"));
  const log = el("ol", { class: "git-log", "data-git": "log" });
  view.append(bar, summary, error, list, more, diff, commit, logTitle, log);
  host.append(view);
}

/**
 * Switch to a local branch; with changed files, ask before parking them in a stash (the branch
 * left gets them back when the person returns to it).
 */
async function switchBranch(name: string): Promise<unknown> {
  const body = { session_id: sessionId, ref: name, mode: "local" };
  const stash = () => {
    if (confirm(t("git.confirmStashSwitch", { branch: name }))) {
      return api("POST", "/api/git/stash-checkout", body);
    }
    void loadBranches(); // put the select back on the current branch
    return null;
  };
  if (status?.is_git && status.totals.changed > 0) return await stash();
  try {
    return await api("POST", "/api/git/checkout", { ...body, dirty_mode: "block" });
  } catch (err) {
    // Changed since the status was read: the server says so, the same question follows.
    const code = err instanceof ApiError ? (err.body as { code?: string } | null)?.code : null;
    if (code !== "dirty_worktree") throw err;
    return await stash();
  }
}

function row(f: GitFile, group: "staged" | "unstaged" | "untracked"): HTMLElement {
  const item = el("li", { class: "git-file", "data-path": f.path, "data-group": group });
  const kind = group === "staged" ? "staged" : "unstaged";
  if (selected && selected.path === f.path && selected.kind === kind) item.dataset.selected = "";
  const name = el("button", { type: "button", class: "git-file-name", title: f.path });
  name.append(
    el("span", { class: "git-code", "data-code": f.status }, f.status),
    el("span", { class: "git-path" }, f.old_path ? `${f.old_path} → ${f.path}` : f.path),
  );
  name.addEventListener("click", () => void showDiff(f.path, kind));
  const actions = el("span", { class: "git-file-actions" });
  const paths = [f.path];
  if (group === "staged") {
    actions.append(
      button(
        t("git.unstage"),
        () => void act(() => api("POST", "/api/git/unstage", { session_id: sessionId, paths })),
      ),
    );
  } else {
    actions.append(
      button(
        t("git.stage"),
        () => void act(() => api("POST", "/api/git/stage", { session_id: sessionId, paths })),
      ),
    );
    if (!f.conflict) {
      actions.append(button(t("git.discard"), () => {
        const question = f.untracked
          ? t("git.confirmDeleteUntracked", { path: f.path })
          : t("git.confirmDiscard", { path: f.path });
        if (!confirm(question)) return;
        void act(() =>
          api("POST", "/api/git/discard", {
            session_id: sessionId,
            paths,
            confirm: true,
            delete_untracked: f.untracked,
          })
        );
      }, { class: "git-btn git-danger" }));
    }
  }
  item.append(selectBox(f.path), name, actions);
  return item;
}

function applyStatus(s: Status, replace: boolean) {
  status = s;
  const list = part("files");
  const summary = part("summary");
  const more = part("more");
  more.replaceChildren();
  if (!s.is_git) {
    files = [];
    list.replaceChildren(
      el("p", { class: "git-empty" }, t("git.notRepo")),
    );
    summary.textContent = "";
    part("commit").hidden = true;
    syncCommitBox([], 0);
    return;
  }
  part("commit").hidden = false;
  files = replace ? s.files : [...files, ...s.files];
  const ab = [s.ahead ? `↑${s.ahead}` : "", s.behind ? `↓${s.behind}` : ""].filter(Boolean).join(
    " ",
  );
  const head = `${s.branch}${s.upstream ? ` → ${s.upstream}` : ""}${ab ? ` ${ab}` : ""}`;
  summary.textContent = s.totals.conflicts
    ? t("git.summaryConflicts", { head, count: s.totals.changed, conflicts: s.totals.conflicts })
    : t("git.summary", { head, count: s.totals.changed });
  const groups: Array<[string, "staged" | "unstaged" | "untracked", GitFile[]]> = [
    ["git.groupStaged", "staged", files.filter((f) => f.staged)],
    ["git.groupChanges", "unstaged", files.filter((f) => f.unstaged || f.conflict)],
    ["git.groupUntracked", "untracked", files.filter((f) => f.untracked)],
  ];
  const out: HTMLElement[] = [];
  for (const [title, group, rows] of groups) {
    if (!rows.length) continue;
    const section = el("section", { class: "git-group", "data-group": group });
    section.append(el("h3", { class: "git-heading" }, t(title, { count: rows.length })));
    const ul = el("ul", { class: "git-list" });
    // Rows are appended in slices so thousands of files never block a frame for long.
    const slice = (from: number) => {
      for (const f of rows.slice(from, from + 200)) ul.append(row(f, group));
      if (from + 200 < rows.length) requestAnimationFrame(() => slice(from + 200));
    };
    slice(0);
    section.append(ul);
    out.push(section);
  }
  if (!out.length) out.push(el("p", { class: "git-empty" }, t("git.noChanges")));
  list.replaceChildren(...out);
  syncCommitBox(replace ? files.map((f) => f.path) : null, s.totals.staged + s.totals.conflicts);
  if (s.truncated) {
    const left = s.total - (s.offset + s.files.length);
    const label = t("git.showMore", { count: Math.min(left, s.limit), left });
    more.append(button(label, () => {
      void loadStatus(s.offset + s.limit);
    }, { class: "git-btn git-more" }));
  }
}

async function loadStatus(offset = 0) {
  if (!sessionId) return;
  const gen = generation;
  try {
    const { git } = await api<{ git: Status }>(
      "GET",
      `/api/git/status?session_id=${sid()}&offset=${offset}`,
    );
    if (gen === generation) applyStatus(git, offset === 0);
  } catch (err) {
    showError((err as Error).message);
  }
}

async function loadBranches() {
  if (!sessionId || !status?.is_git) return;
  try {
    const { branches: b } = await api<{ branches: Branches }>(
      "GET",
      `/api/git/branches?session_id=${sid()}`,
    );
    const select = part("branch") as HTMLSelectElement;
    const opts: HTMLOptionElement[] = [];
    const onBranch = b.local.some((x) => x.current);
    if (b.detached) {
      opts.push(el("option", { value: "" }, t("git.detached", { head: b.head ?? "" })));
    }
    for (const br of b.local) {
      const o = el("option", { value: br.name }, br.name);
      if (br.current) o.selected = true;
      opts.push(o);
    }
    if (!b.detached && !onBranch) {
      // An unborn branch (no commit yet) is listed by no ref.
      const o = el("option", { value: "" }, b.current || t("git.noBranch"));
      o.selected = true;
      opts.unshift(o);
    }
    select.replaceChildren(...opts);
  } catch { /* the status line says what is wrong */ }
}

async function loadLog() {
  if (!sessionId || !status?.is_git) return;
  try {
    const { commits } = await api<
      { commits: Array<{ short: string; subject: string; author: string; date: string }> }
    >(
      "GET",
      `/api/git/log?session_id=${sid()}&limit=20`,
    );
    part("log").replaceChildren(
      ...commits.map((c) => {
        const li = el("li", { class: "git-commit-row" });
        li.append(
          el("code", { class: "git-sha" }, c.short),
          el("span", { class: "git-subject" }, c.subject),
          el("span", { class: "git-author" }, c.author),
        );
        return li;
      }),
    );
  } catch { /* shown by the status line */ }
}

async function showDiff(path: string, kind: "staged" | "unstaged") {
  selected = { path, kind };
  for (const item of host.querySelectorAll<HTMLElement>(".git-file")) {
    const match = item.dataset.path === path &&
      (item.dataset.group === "staged") === (kind === "staged");
    if (match) item.dataset.selected = "";
    else delete item.dataset.selected;
  }
  const box = part("diff");
  try {
    const d = await api<Diff>(
      "GET",
      `/api/git/diff?session_id=${sid()}&path=${encodeURIComponent(path)}&kind=${kind}`,
    );
    renderDiff(d);
  } catch (err) {
    box.replaceChildren(el("p", { class: "git-error" }, (err as Error).message));
  }
}

function renderDiff(d: Diff) {
  const box = part("diff");
  const head = el("div", { class: "git-diff-head" });
  head.append(
    el("span", { class: "git-path" }, d.path),
    el("span", { class: "git-stat" }, `+${d.additions} −${d.deletions}`),
    button(t("common.close"), () => {
      selected = null;
      box.replaceChildren();
    }),
  );
  const out: HTMLElement[] = [head];
  if (d.binary) out.push(el("p", { class: "git-empty" }, t("git.binary")));
  else if (d.too_large) {
    out.push(el("p", { class: "git-empty" }, t("git.tooLarge")));
  } else if (!d.hunks.length) out.push(el("p", { class: "git-empty" }, t("git.noDiff")));
  for (const h of d.hunks) {
    const hunk = el("div", { class: "git-hunk", "data-hunk": String(h.index) });
    const hh = el("div", { class: "git-hunk-head" });
    hh.append(el("code", {}, h.header));
    if (d.kind !== "untracked") {
      const action = d.kind === "staged" ? "unstage" : "stage";
      hh.append(button(action === "stage" ? t("git.stageHunk") : t("git.unstageHunk"), () => {
        void act(() =>
          api("POST", `/api/git/${action}-hunk`, {
            session_id: sessionId,
            path: d.path,
            hunk: h.index,
            header: h.header,
          })
        );
      }));
    }
    const pre = el("pre", { class: "git-lines" });
    for (const line of h.lines) {
      const kind = line[0] === "+" ? "add" : line[0] === "-" ? "del" : "ctx";
      pre.append(el("span", { class: "git-line", "data-kind": kind }, line + "\n"));
    }
    hunk.append(hh, pre);
    out.push(hunk);
  }
  box.replaceChildren(...out);
}

async function refresh() {
  generation++;
  showError(null);
  await loadStatus(0);
  void loadBranches();
  void loadLog();
  if (selected) void showDiff(selected.path, selected.kind);
}

function ensureStyles() {
  if (document.querySelector(`link[rel="stylesheet"][href="${STYLESHEET}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLESHEET;
  document.head.append(link);
}

const view: PanelView = {
  mount(node, ctx) {
    host = node;
    sessionId = ctx.sessionId;
    ensureStyles();
    build();
    void refresh();
  },
  shown() {
    void refresh();
  },
  sessionChanged(ctx) {
    sessionId = ctx.sessionId;
    selected = null;
    resetCommitBox();
    part("diff").replaceChildren();
    void refresh();
  },
};

export const { mount, shown, sessionChanged } = view;
