// Browser-safe: imports nothing from Deno or the database.
// The Composer's state as one @preact/signals model: the draft, its attachments, the queued
// message, the run in progress, the chat's model, workspace and switches, the slash menu and
// popovers; and the verbs that change them (send, queue, stop, pick, run a command). The island
// only renders it. Invariants: one run at a time per composer, at most one queued message (sent
// when the run ends); the session is created once, on first need, with the choices made before.
import { batch, computed, signal } from "@preact/signals";
import { api as browserApi, ApiError } from "../api_client.ts";
import {
  enterAction,
  type KeyLike,
  LARGE_PASTE_CHARS,
  pastedTextFile,
  readDraft,
  type SendKey,
  sendKeyHint,
  sendKeyLabel,
  shortPath,
  type UploadedFile,
  uploadFile,
  writeDraft,
} from "../composer_state.ts";
import {
  completeCommand,
  missingArgumentHint,
  parseSlashCommand,
  SLASH_COMMANDS,
  type SlashCommand,
} from "../slash_commands.ts";
import { emitHermesEvent, type HermesEvents, onHermesEvent } from "../../shared/ui_events.ts";
import { createAttachmentTray, type DraftAttachment } from "./attachment_tray.ts";
import { type ArgChoice, createSlashMenu } from "./slash_menu_model.ts";
import { createSessionLink } from "./composer_session.ts";
import { followPage, type PageDeps } from "./composer_page.ts";
import {
  createMessageModes,
  isMessageMode,
  type MessageMode,
  modeHint,
  modeVerb,
} from "./message_mode.ts";
import { t } from "../../i18n/t.ts";
import { createSideRuns } from "./side_runs.ts";
import {
  type ChatStartKind,
  type CommandDeps,
  type CommandHost,
  type PanelState,
  runSlashCommand,
  type StartAnswer,
} from "./composer_commands.ts";

/** What the page tells the composer (the island's serializable props). */
export interface ComposerInit {
  /** The open session, or null on the empty state (a session is created on first need). */
  sessionId: string | null;
  /** Project of the new session (the sidebar's active project filter), if any. */
  projectId?: string | null;
  /** The session's model (or, for a new chat, the model it will get). */
  model?: string | null;
  modelProvider?: string | null;
  /** Older name of `model` (the footer chip's label). */
  modelLabel?: string | null;
  /** The session's workspace (absolute), or the one a new chat will get. */
  workspace?: string | null;
  /** The user's home directory, to show workspaces in the short `~` form. */
  home?: string | null;
  /** The `send_key` setting. */
  sendKey?: SendKey;
  /** The run in progress when the page was rendered (session.active_stream_id). */
  activeStreamId?: string | null;
  /** The session's "skip approvals" (/yolo) switch. */
  skipApprovals?: boolean;
  /** The session's shell-network (/network) switch. */
  allowNetwork?: boolean;
  /** The session's profile (for a new chat: the active one), shown as a quiet chip. */
  profile?: string | null;
  /** Whether to show the profile chip even for `default` (more than one profile exists). */
  showProfile?: boolean;
  /** The `default_message_mode` setting: what Send does while an answer runs (default queue). */
  messageMode?: MessageMode;
  /** `large_text_paste_as_attachment` (default on): a long paste becomes a file. */
  largePasteAsFile?: boolean;
  /** `new_chat_on_workspace_switch`: another workspace starts a new chat there. */
  newChatOnWorkspaceSwitch?: boolean;
}

/** The browser around the model; tests pass their own. */
export interface ComposerDeps extends CommandDeps, PageDeps {
  upload(sessionId: string, file: File): Promise<UploadedFile>;
  objectUrl: { create(file: File): string; revoke(url: string): void };
  flashMs: number;
}

export interface Queued {
  text: string;
  attachments: DraftAttachment[];
}

const browserDeps: ComposerDeps = {
  api: browserApi,
  upload: (sessionId, file) => uploadFile(sessionId, file),
  loadArgChoices: () => Promise.resolve([]),
  navigate: (url) => location.assign(url),
  reload: () => location.reload(),
  setTitle: (title) => void (document.title = title),
  readDraft,
  writeDraft,
  objectUrl: { create: (f) => URL.createObjectURL(f), revoke: (u) => URL.revokeObjectURL(u) },
  platform: () => navigator.platform || navigator.userAgent,
  pollMs: 3000,
  flashMs: 4000,
  draftSaveMs: 250,
};

/** The sentence to show for a failure. */
export const describeError = (err: unknown) =>
  err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err);

export type ComposerModel = ReturnType<typeof createComposerModel>;

export function createComposerModel(init: ComposerInit, overrides: Partial<ComposerDeps> = {}) {
  const deps: ComposerDeps = { ...browserDeps, ...overrides };
  const sessionId = init.sessionId;
  const projectId = init.projectId ?? null;
  const home = init.home ?? null;

  const sid = signal<string | null>(sessionId);
  const draft = signal("");
  const sending = signal(false);
  const error = signal<string | null>(null);
  const flash = signal<string | null>(null);
  const panel = signal<PanelState | null>(null);
  const open = signal<"model" | "workspace" | "profile" | null>(null);
  const run = signal<string | null>(init.activeStreamId ?? null);
  const queued = signal<Queued | null>(null);
  const model = signal({
    id: init.model ?? init.modelLabel ?? null,
    provider: init.modelProvider ?? null,
  });
  const workspace = signal(init.workspace ?? null);
  const yolo = signal(!!init.skipApprovals);
  const network = signal(!!init.allowNetwork);
  const profile = signal(init.profile ?? "default");
  const showProfile = signal(!!init.showProfile || (init.profile ?? "default") !== "default");
  const sendKey = signal<SendKey>(init.sendKey ?? "enter");
  const prefs = {
    pasteAsFile: signal(init.largePasteAsFile ?? true),
    newChatOnSwitch: signal(init.newChatOnWorkspaceSwitch ?? false),
  };
  const mac = signal(false);
  const dragOver = signal(false);
  const menu = createSlashMenu(draft, computed(() => open.value !== null));
  const session = createSessionLink({ sid, model, workspace, projectId, api: deps.api });
  const ensureSession = session.ensure;

  /** Hooks the rendered input sets: focus it; put the caret at the end after the next render. */
  const view = { focus: () => {}, caretToEnd: false };
  let pastes = 0;
  let flashTimer: ReturnType<typeof setTimeout> | undefined;

  const tray = createAttachmentTray({
    upload: (file) => ensureSession().then((s) => deps.upload(s.session_id, file)),
    objectUrl: deps.objectUrl,
    describe: describeError,
  });
  const attachments = tray.items;
  const modes = createMessageModes(isMessageMode(init.messageMode) ? init.messageMode : "queue", {
    sid,
    run,
    queued,
    api: deps.api,
    stop: () => stop(),
    send: (text, atts) => sendMessage(text, atts),
    showFlash: (text) => showFlash(text),
  });
  const side = createSideRuns({
    sid,
    // Listing the session's background tasks on load is the page's business: a scripted test
    // API sees only the calls its test makes.
    loadOnMount: deps.api === browserApi,
    api: deps.api,
    ensureSession,
    showFlash: (t) => showFlash(t),
  });

  // ---- Derived. -------------------------------------------------------------------------------
  const uploading = computed(() => attachments.value.some((a) => a.status === "uploading"));
  const hasContent = computed(() => draft.value.trim().length > 0 || attachments.value.length > 0);
  const canSend = computed(() => hasContent.value && !sending.value);
  const phase = computed(() => sending.value ? "sending" : run.value ? "running" : "idle");
  const keyLabel = computed(() => sendKeyLabel(sendKey.value, mac.value));
  const hint = computed(() =>
    run.value
      ? t("composer.runHint", {
        keys: keyLabel.value,
        verb: modeVerb(modes.mode.value),
        hint: modeHint(modes.mode.value),
      })
      : sendKeyHint(sendKey.value, mac.value)
  );
  const modelLabel = computed(() => model.value.id ?? t("composer.defaultModel"));
  const workspaceLabel = computed(() => workspace.value ? shortPath(workspace.value, home) : null);

  // ---- Small verbs. ---------------------------------------------------------------------------
  function showFlash(text: string) {
    clearTimeout(flashTimer);
    flash.value = text;
    flashTimer = setTimeout(() => flash.value = null, deps.flashMs);
  }

  /** The person typed: the menu may open again and the last error is old news. */
  function input(text: string) {
    batch(() => {
      draft.value = text;
      menu.dismissed.value = false;
      if (error.value) error.value = null;
    });
  }

  /** Put `text` in the textarea with the caret at its end (applied right after the render). */
  function replaceDraft(text: string) {
    batch(() => {
      draft.value = text;
      menu.dismissed.value = false;
    });
    view.caretToEnd = true;
  }

  function closePopovers() {
    batch(() => {
      open.value = null;
      panel.value = null;
    });
  }

  function openPopover(which: "model" | "workspace" | "profile") {
    batch(() => {
      panel.value = null;
      open.value = open.value === which ? null : which;
    });
  }

  // ---- The session and its model and workspace. ---------------------------------------------
  async function chooseModel(id: string, provider: string | null) {
    await session.chooseModel(id, provider);
    showFlash(t("composer.modelSet", { id }));
  }

  async function chooseWorkspace(path: string) {
    if (prefs.newChatOnSwitch.value && sid.value && path !== workspace.value) {
      // The open chat keeps its workspace; the new one starts in the chosen one.
      const body: Record<string, unknown> = { workspace: path };
      if (projectId) body.project_id = projectId;
      const { session: s } = await deps.api<{ session: { session_id: string } }>(
        "POST",
        "/api/session/new",
        body,
      );
      open.value = null;
      deps.navigate(`/?session=${encodeURIComponent(s.session_id)}`);
      return;
    }
    const s = await session.chooseWorkspace(path);
    open.value = null;
    showFlash(t("composer.workspaceTitle", { path: shortPath(s.workspace, home) }));
    view.focus();
  }

  // ---- Sending, queueing, stopping. -----------------------------------------------------------
  function announceStart(
    started: StartAnswer,
    text: string,
    kind: ChatStartKind,
    files: UploadedFile[] = [],
  ) {
    run.value = started.stream_id;
    const detail: HermesEvents["hermes:chat-started"] = { ...started, message: text };
    if (kind !== "chat") detail.kind = kind;
    if (files.length) detail.attachments = files;
    if (emitHermesEvent("hermes:chat-started", detail, { cancelable: true })) {
      deps.navigate(`/?session=${encodeURIComponent(started.session_id)}`);
    }
  }

  async function sendMessage(text: string, atts: DraftAttachment[]) {
    batch(() => {
      sending.value = true;
      error.value = null;
    });
    try {
      const files = await tray.settle(atts);
      const s = await ensureSession();
      const body: Record<string, unknown> = { session_id: s.session_id, message: text };
      if (files.length) body.attachments = files;
      const started = await deps.api<StartAnswer>("POST", "/api/chat/start", body);
      tray.sent(atts);
      deps.writeDraft(sessionId, "");
      announceStart(started, text, "chat", files);
    } catch (err) {
      batch(() => {
        error.value = describeError(err);
        // Give the message back unless the person already started a new one.
        if (!draft.value.trim()) draft.value = text;
        tray.restore(atts);
      });
    } finally {
      sending.value = false;
    }
  }

  /** Send the draft (or run it as a command); while a run is active, queue it instead. */
  async function submit() {
    if (sending.value) return;
    const parsed = parseSlashCommand(draft.value);
    const usage = parsed && missingArgumentHint(parsed);
    if (usage) return void (error.value = usage); // held: the draft stays for the argument
    if (parsed && !parsed.command.agent) return await runCommand(parsed.command, parsed.arg);
    const text = draft.value.trim();
    const atts = attachments.value;
    if (!text && atts.length === 0) return;
    if (run.value) return await sendWhileBusy(text, atts);
    draft.value = "";
    await sendMessage(text, atts);
  }

  /** Send while an answer runs, in the composer's mode (or `how`, from /steer <text>). */
  async function sendWhileBusy(text: string, atts: DraftAttachment[], how?: MessageMode) {
    batch(() => {
      attachments.value = [];
      draft.value = "";
    });
    try {
      await modes.busySend(text, atts, how);
    } catch (err) {
      batch(() => {
        error.value = describeError(err);
        if (!draft.value.trim()) draft.value = text;
        tray.restore(atts);
      });
    }
  }

  /** Take the queued message back into the draft to edit it (the draft in progress wins). */
  function takeBackQueued() {
    const q = queued.value;
    if (!q) return;
    batch(() => {
      if (!draft.value.trim()) draft.value = q.text;
      tray.restore(q.attachments);
      queued.value = null;
    });
    view.focus();
  }

  /** Take waiting message `i` back into the draft (the draft in progress wins). */
  function takeBackAt(i: number) {
    const q = modes.remove(i);
    if (!q) return;
    batch(() => {
      if (!draft.value.trim()) draft.value = q.text;
      tray.restore(q.attachments);
    });
    view.focus();
  }

  /** Drop waiting message `i` without editing it. */
  const removeQueued = (i: number) => void modes.remove(i);

  async function stop() {
    const id = run.value;
    if (!id) return showFlash(t("composer.nothingRunning"));
    try {
      await deps.api("GET", `/api/chat/cancel?stream_id=${encodeURIComponent(id)}`);
      if (run.value === id) run.value = null;
    } catch (err) {
      error.value = describeError(err);
    }
  }

  // ---- Attachments. ---------------------------------------------------------------------------
  function addFiles(files: File[]) {
    error.value = null;
    const refused = tray.add(files);
    if (refused) error.value = refused;
  }

  function removeAttachment(id: number) {
    tray.remove(id);
    view.focus();
  }

  /**
   * A paste: files are attached, a long text becomes a `.txt` file (unless the
   * `large_text_paste_as_attachment` setting is off). True when handled here.
   */
  function paste(files: File[], text: string): boolean {
    if (files.length) {
      addFiles(files);
      return true;
    }
    if (!prefs.pasteAsFile.value || text.length <= LARGE_PASTE_CHARS) return false;
    const file = pastedTextFile(text, ++pastes);
    addFiles([file]);
    showFlash(t("composer.longPaste", { file: file.name }));
    return true;
  }

  // ---- Commands and the menu. -----------------------------------------------------------------
  const host: CommandHost = {
    modes,
    side,
    sendWhileBusy: (text, how) => sendWhileBusy(text, [], how),
    sessionId,
    projectId,
    deps,
    sid,
    panel,
    yolo,
    network,
    argChoices: menu.argChoices,
    replaceDraft,
    showFlash,
    focus: () => view.focus(),
    send: (text) => sendMessage(text, []),
    showPanel: (p) => void (panel.value = p),
    ensureSession,
    announceStart,
    stop,
    chooseModel,
    chooseWorkspace,
    openPopover,
  };

  async function runCommand(c: SlashCommand, arg: string, choice?: ArgChoice) {
    batch(() => {
      error.value = null;
      panel.value = null;
      menu.dismissed.value = true;
    });
    try {
      await runSlashCommand(host, c, arg, choice);
    } catch (err) {
      error.value = describeError(err);
    }
  }

  /** Run a command step from a popover (the /prompt form, the /personality list). */
  async function withHost(step: (h: CommandHost) => Promise<void>) {
    error.value = null;
    try {
      await step(host);
    } catch (err) {
      error.value = describeError(err);
    }
  }

  /** The footer chip: turn approvals back on (the same as typing /yolo). */
  const toggleYolo = () => runCommand(SLASH_COMMANDS.find((c) => c.name === "yolo")!, "");

  /** Tab completes the row into the draft; Enter (or a click) runs it when it can run. */
  function pickMenu(index: number, how: "tab" | "enter") {
    const p = menu.picks.value[index];
    if (!p) return;
    const c = p.command;
    if (!p.choice) {
      if (how === "tab" || c.argRequired) return replaceDraft(completeCommand(c));
      return void runCommand(c, "");
    }
    const value = p.choice.value;
    if (how === "tab" || c.agent) return replaceDraft(`/${c.name} ${value}${c.agent ? " " : ""}`);
    void runCommand(c, value, p.choice);
  }

  /**
   * A key in the textarea: "prevent" when the model handled it, "newline" when the view must
   * insert the newline the send-key setting promises (the textarea ignores Ctrl+Enter).
   */
  function keyDown(e: KeyLike): "prevent" | "newline" | null {
    const items = menu.items.value;
    if (menu.open.value && items.length > 0 && !e.isComposing) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        menu.move(e.key === "ArrowDown" ? 1 : -1);
        return "prevent";
      }
      if (e.key === "Tab" && !e.shiftKey) {
        pickMenu(menu.active.value, "tab");
        return "prevent";
      }
      if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
        pickMenu(menu.active.value, "enter");
        return "prevent";
      }
    }
    if (e.key === "Escape") {
      if (!menu.open.value && !open.value && !panel.value) return null;
      batch(() => {
        menu.dismissed.value = true;
        closePopovers();
      });
      return "prevent";
    }
    const action = enterAction(e, sendKey.value);
    if (action === "send") {
      void submit();
      return "prevent";
    }
    return action === "newline" && (e.ctrlKey || e.metaKey) ? "newline" : null;
  }

  /**
   * The profile chip's pick: new chats use `name` from now on (POST /api/profile/switch). A new
   * chat here shows it (and its model) at once; an existing chat keeps its own profile.
   */
  async function switchProfile(name: string, defaultModel: string | null) {
    open.value = null;
    try {
      await deps.api("POST", "/api/profile/switch", { name });
      emitHermesEvent("hermes:profile-changed", { name });
      if (!sid.value) {
        batch(() => {
          profile.value = name;
          if (defaultModel) model.value = { id: defaultModel, provider: null };
        });
      }
      showFlash(t("composer.profileSwitched", { name }));
    } catch (err) {
      error.value = describeError(err);
    }
  }

  // ---- Life in the page. ----------------------------------------------------------------------
  /**
   * Start following the page (call once, after mount): restore the saved draft, follow run state
   * and settings events, poll an active run, save the draft, send the queued message when the
   * run ends, load argument suggestions. Returns the function that stops all of it.
   */
  function connect(): () => void {
    const stop = followPage({
      sessionId,
      home,
      deps,
      sid,
      draft,
      run,
      queued,
      sending,
      yolo,
      sendKey,
      prefs,
      mac,
      menu,
      sendQueued: (q) => void sendMessage(q.text, q.attachments),
    });
    const offModes = modes.connect();
    const offSide = side.connect();
    // The Control Center switched the profile: a new chat here follows it (an open one keeps its).
    const offProfile = onHermesEvent("hermes:profile-changed", ({ name }) => {
      showProfile.value = true;
      if (!sid.value) profile.value = name;
    });
    return () => {
      stop();
      offModes();
      offSide();
      offProfile();
      clearTimeout(flashTimer);
    };
  }

  return {
    home,
    view,
    modes,
    side,
    // State.
    sid,
    draft,
    attachments,
    sending,
    error,
    flash,
    panel,
    open,
    run,
    queued,
    model,
    workspace,
    yolo,
    network,
    profile,
    showProfile,
    sendKey,
    prefs,
    mac,
    dragOver,
    menu,
    // Derived.
    uploading,
    hasContent,
    canSend,
    phase,
    keyLabel,
    hint,
    modelLabel,
    workspaceLabel,
    // Verbs.
    connect,
    input,
    replaceDraft,
    showFlash,
    closePopovers,
    openPopover,
    chooseModel,
    chooseWorkspace,
    submit,
    takeBackQueued,
    takeBackAt,
    removeQueued,
    stop,
    addFiles,
    removeAttachment,
    paste,
    runCommand,
    toggleYolo,
    switchProfile,
    withHost,
    pickMenu,
    keyDown,
    /** The page's API client (the quota chip reads through it). */
    api: deps.api,
  };
}
