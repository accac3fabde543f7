// Browser-safe: imports nothing from Deno or the database.
// The Git tab's commit box: the message, "Write message" (the model writes it from the selected
// files' diff, else from the staged diff: /api/git/commit-message[-selected]), Commit (what is
// staged) and "Commit selected" (the ticked files only: /api/git/commit-selected). The ticked
// files are kept here, by path, and dropped when they leave the list.
import { api, ApiError } from "../api_client.ts";
import { el } from "../ui_menu.ts";
import { t } from "../../i18n/t.ts";

export interface CommitBoxDeps {
  sessionId(): string | null;
  /** Run a mutation the panel way (one at a time, error shown, view refreshed). */
  act(fn: () => Promise<unknown>): Promise<void>;
  showError(message: string | null): void;
}

/** Paths ticked for "Commit selected" and "Write message". */
const selected = new Set<string>();
let form: HTMLFormElement | null = null;
let staged = 0;

const part = <T extends HTMLElement>(name: string) =>
  form!.querySelector<T>(`[data-git="${name}"]`)!;

function sync() {
  if (!form) return;
  const n = selected.size;
  const commitSelected = part<HTMLButtonElement>("commit-selected-btn");
  commitSelected.textContent = t("git.commitSelected", { count: n });
  commitSelected.disabled = n === 0;
  part<HTMLButtonElement>("commit-btn").disabled = staged === 0;
  part<HTMLButtonElement>("message-btn").disabled = n === 0 && staged === 0;
}

/** The tick box of one file row. */
export function selectBox(path: string): HTMLInputElement {
  const box = el("input", {
    type: "checkbox",
    class: "git-select",
    "data-git-select": path,
    "aria-label": t("git.selectFile", { path }),
  }) as HTMLInputElement;
  box.checked = selected.has(path);
  box.addEventListener("click", (e) => e.stopPropagation());
  box.addEventListener("change", () => {
    if (box.checked) selected.add(path);
    else selected.delete(path);
    // A partly staged file has a row in two groups: both ticks say the same.
    for (const other of document.querySelectorAll<HTMLInputElement>(".git-select")) {
      if (other.dataset.gitSelect === path) other.checked = box.checked;
    }
    sync();
  });
  return box;
}

/** After a status: forget ticks of files no longer listed, enable what can run. */
export function syncCommitBox(paths: readonly string[] | null, stagedCount: number) {
  staged = stagedCount;
  if (paths) {
    const listed = new Set(paths);
    for (const p of [...selected]) if (!listed.has(p)) selected.delete(p);
  }
  sync();
}

/** A new session: nothing ticked. */
export function resetCommitBox() {
  selected.clear();
  sync();
}

async function writeMessage(d: CommitBoxDeps, button: HTMLButtonElement) {
  const message = part<HTMLTextAreaElement>("message");
  const paths = [...selected];
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  button.textContent = t("git.writingMessage");
  d.showError(null);
  try {
    const out = await api<{ message: string; truncated: boolean }>(
      "POST",
      paths.length ? "/api/git/commit-message-selected" : "/api/git/commit-message",
      paths.length ? { session_id: d.sessionId(), paths } : { session_id: d.sessionId() },
    );
    message.value = out.message;
    message.focus();
  } catch (err) {
    d.showError(err instanceof ApiError ? err.message : (err as Error).message);
  } finally {
    button.removeAttribute("aria-busy");
    button.textContent = t("git.writeMessage");
    sync();
  }
}

/** The commit form (built once per panel). */
export function buildCommitBox(d: CommitBoxDeps): HTMLFormElement {
  form = el("form", { class: "git-commit", "data-git": "commit" }) as HTMLFormElement;
  const message = el("textarea", {
    class: "git-message",
    rows: "2",
    placeholder: t("git.commitMessage"),
    "aria-label": t("git.commitMessage"),
    "data-git": "message",
  }) as HTMLTextAreaElement;
  const write = el("button", {
    type: "button",
    class: "git-btn",
    title: t("git.writeMessageTitle"),
    "data-git": "message-btn",
  }, t("git.writeMessage")) as HTMLButtonElement;
  write.addEventListener("click", () => void writeMessage(d, write));
  const commit = el("button", {
    type: "submit",
    class: "git-btn git-primary",
    "data-git": "commit-btn",
  }, t("git.commit"));
  const commitSelected = el("button", {
    type: "button",
    class: "git-btn",
    "data-git": "commit-selected-btn",
  }, t("git.commitSelected", { count: 0 })) as HTMLButtonElement;
  commitSelected.addEventListener("click", () => {
    const paths = [...selected];
    void d.act(async () => {
      const out = await api("POST", "/api/git/commit-selected", {
        session_id: d.sessionId(),
        message: message.value,
        paths,
      });
      message.value = "";
      selected.clear();
      return out;
    });
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void d.act(async () => {
      const out = await api("POST", "/api/git/commit", {
        session_id: d.sessionId(),
        message: message.value,
      });
      message.value = "";
      return out;
    });
  });
  const actions = el("div", { class: "git-commit-actions" });
  actions.append(write, commitSelected, commit);
  form.append(message, actions);
  sync();
  return form;
}
