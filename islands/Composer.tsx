// The command surface: an auto-growing textarea, attachments (picker, drag-drop, paste; a long
// paste becomes a .txt file), slash commands with an autocomplete menu, the model picker and
// workspace switcher in the footer, and Send / Stop. Sending creates the session when there is
// none, starts the run (POST /api/chat/start) and announces it with a cancelable
// `hermes:chat-started` event; when no live transcript takes it over, the page navigates to the
// session. While a run is active (`hermes:run-state`) a message is queued and sent when it ends.
// The menu, picker and switcher are loaded on first use (dynamic import): nothing before then.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import {
  enterAction,
  LARGE_PASTE_CHARS,
  MAX_ATTACHMENTS,
  pastedTextFile,
  readDraft,
  type SendKey,
  sendKeyHint,
  sendKeyLabel,
  shortPath,
  type UploadedFile,
  uploadFile,
  writeDraft,
} from "../lib/browser/composer_state.ts";
import {
  type ArgSource,
  commandSignature,
  completeCommand,
  matchChoices,
  matchCommands,
  parseSlashCommand,
  SLASH_COMMANDS,
  type SlashCommand,
  slashQuery,
} from "../lib/browser/slash_commands.ts";
import { emitHermesEvent, type HermesEvents, onHermesEvent } from "../lib/shared/ui_events.ts";
import { Icon } from "../components/Icon.tsx";
import { Attachments, type DraftAttachment } from "../components/Attachments.tsx";
import type { ArgChoice, MenuItem } from "../components/SlashMenu.tsx";
import type { PanelState } from "../components/ComposerPanel.tsx";

export interface ComposerProps {
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
  /** Terminal sandbox status (tools.commands.status()); a quiet note when it is off. */
  sandbox?: { bubblewrap: boolean; message: string } | null;
  /** The run in progress when the page was rendered (session.active_stream_id). */
  activeStreamId?: string | null;
  /** The session's "skip approvals" (/yolo) switch. */
  skipApprovals?: boolean;
  /** The session's shell-network (/network) switch. */
  allowNetwork?: boolean;
  placeholder?: string;
}

/** What `hermes:chat-started` carries (POST /api/chat/start's answer plus the message). */
export type ChatStartedDetail = HermesEvents["hermes:chat-started"];

interface StartAnswer {
  stream_id: string;
  session_id: string;
  turn_id: string;
  title: string;
}

interface SessionInfo {
  session_id: string;
  workspace: string;
  model: string | null;
  model_provider: string | null;
}

interface Queued {
  text: string;
  attachments: DraftAttachment[];
}

/** Textarea height limit in px before it scrolls (about twelve lines). */
const MAX_HEIGHT = 280;
/** How often an active run is double-checked when no transcript reports its end. */
const RUN_POLL_MS = 3000;
const MENU_ID = "slash-options";

type SlashModule = typeof import("../components/SlashMenu.tsx");
type PickerModule = typeof import("../components/ModelPicker.tsx");
type WorkspaceModule = typeof import("../components/WorkspaceMenu.tsx");
type PanelModule = typeof import("../components/ComposerPanel.tsx");

const message = (err: unknown) =>
  err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err);

export default function Composer(props: ComposerProps) {
  const {
    sessionId,
    projectId = null,
    home = null,
    sandbox = null,
    placeholder = "Message Hermes…  (/ for commands)",
  } = props;
  const [sid, setSid] = useState<string | null>(sessionId);
  const [draft, setDraft] = useState("");
  const [attachments, setAttachments] = useState<DraftAttachment[]>([]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [flash, setFlash] = useState<string | null>(null);
  const [panel, setPanel] = useState<PanelState | null>(null);
  const [open, setOpen] = useState<"model" | "workspace" | null>(null);
  const [menuIndex, setMenuIndex] = useState(0);
  const [menuDismissed, setMenuDismissed] = useState(false);
  const [run, setRun] = useState<string | null>(props.activeStreamId ?? null);
  const [queued, setQueued] = useState<Queued | null>(null);
  const [model, setModel] = useState({
    id: props.model ?? props.modelLabel ?? null,
    provider: props.modelProvider ?? null,
  });
  const [workspace, setWorkspace] = useState(props.workspace ?? null);
  const [yolo, setYolo] = useState(!!props.skipApprovals);
  const [network, setNetwork] = useState(!!props.allowNetwork);
  const [dragOver, setDragOver] = useState(false);
  const [sendKey, setSendKey] = useState<SendKey>(props.sendKey ?? "enter");
  const [mac, setMac] = useState(false);
  const [slashMod, setSlashMod] = useState<SlashModule | null>(null);
  const [pickerMod, setPickerMod] = useState<PickerModule | null>(null);
  const [workspaceMod, setWorkspaceMod] = useState<WorkspaceModule | null>(null);
  const [panelMod, setPanelMod] = useState<PanelModule | null>(null);
  const [argChoices, setArgChoices] = useState<Partial<Record<ArgSource, ArgChoice[]>>>({});

  const form = useRef<HTMLFormElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const sidRef = useRef(sid);
  sidRef.current = sid;
  const creating = useRef<Promise<SessionInfo> | null>(null);
  const pending = useRef<{ model?: { id: string; provider: string | null }; workspace?: string }>(
    {},
  );
  const uploads = useRef(new Map<number, Promise<void>>());
  /** Upload outcomes by attachment id, read when sending (state may not have re-rendered). */
  const results = useRef(new Map<number, { file?: UploadedFile; error?: string }>());
  const nextId = useRef(1);
  const pastes = useRef(0);
  const loadingArgs = useRef(new Set<ArgSource>());
  const caretToEnd = useRef(false);
  const flashTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // ---- Lifecycle: restore the draft, learn the platform, follow run state. -----------------
  useEffect(() => {
    setMac(/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent));
    const saved = readDraft(sessionId);
    if (saved) setDraft(saved);
  }, []);

  useEffect(() => {
    const t = setTimeout(() => writeDraft(sessionId, draft), 250);
    return () => clearTimeout(t);
  }, [draft]);

  useEffect(() => {
    const offState = onHermesEvent("hermes:run-state", (d) => {
      if (d.session_id !== sidRef.current) return;
      setRun((cur) => d.active ? d.stream_id : cur === d.stream_id || cur === null ? null : cur);
    });
    const offEnded = onHermesEvent("hermes:chat-ended", (d) => {
      if (d.session_id === sidRef.current) setRun((cur) => cur === d.stream_id ? null : cur);
    });
    const offSkip = onHermesEvent("hermes:skip-approvals", (d) => {
      if (d.session_id === sidRef.current) setYolo(d.enabled);
    });
    const offSettings = onHermesEvent("hermes:settings-changed", ({ settings }) => {
      const key = settings.send_key;
      if (key === "enter" || key === "ctrl+enter" || key === "shift+enter") setSendKey(key);
    });
    return () => (offState(), offEnded(), offSkip(), offSettings());
  }, []);

  // A safety net for pages without a live transcript: ask the server whether the run ended.
  useEffect(() => {
    if (!run) return;
    const timer = setInterval(async () => {
      try {
        const s = await api<{ active: boolean }>(
          "GET",
          `/api/chat/stream/status?stream_id=${encodeURIComponent(run)}`,
        );
        if (!s.active) setRun((cur) => cur === run ? null : cur);
      } catch { /* a transient failure: try again at the next tick */ }
    }, RUN_POLL_MS);
    return () => clearInterval(timer);
  }, [run]);

  // The run ended: send what was queued meanwhile.
  useEffect(() => {
    if (!run && queued && !sending) {
      const q = queued;
      setQueued(null);
      sendMessage(q.text, q.attachments);
    }
  }, [run, queued, sending]);

  // Grow with the text up to MAX_HEIGHT, then scroll; shrink back when text is removed.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    if (caretToEnd.current) {
      caretToEnd.current = false;
      el.focus();
      el.setSelectionRange(el.value.length, el.value.length);
    }
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
    el.style.overflowY = el.scrollHeight > MAX_HEIGHT ? "auto" : "hidden";
  }, [draft]);

  // Popovers close on a click outside the composer.
  useEffect(() => {
    if (!open && !panel) return;
    const onDown = (e: PointerEvent) => {
      if (form.current && !form.current.contains(e.target as Node)) {
        setOpen(null);
        setPanel(null);
      }
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [open, panel]);

  useEffect(() => {
    if (panel && !panelMod) {
      import("../components/ComposerPanel.tsx").then(setPanelMod, (e) => setError(message(e)));
    }
  }, [panel !== null]);

  // ---- The slash menu: derived from the draft; its code and suggestions load on demand. ----
  const query = menuDismissed || open ? null : slashQuery(draft);
  useEffect(() => {
    if (query && !slashMod) {
      import("../components/SlashMenu.tsx").then(setSlashMod, (e) => setError(message(e)));
    }
  }, [query !== null]);
  const argSource = query?.phase === "arg" ? query.command.argSource : undefined;
  useEffect(() => {
    if (!argSource || !slashMod || argChoices[argSource] || loadingArgs.current.has(argSource)) {
      return;
    }
    loadingArgs.current.add(argSource);
    slashMod.loadArgChoices(argSource, home)
      .then((list) => setArgChoices((c) => ({ ...c, [argSource]: list })))
      .catch(() => setArgChoices((c) => ({ ...c, [argSource]: [] })))
      .finally(() => loadingArgs.current.delete(argSource));
  }, [argSource, slashMod]);

  type Pick = { command: SlashCommand; choice?: ArgChoice };
  let picks: Pick[] = [];
  let items: MenuItem[] = [];
  let menuHeading = "Commands";
  let menuLoading = false;
  if (query?.phase === "name") {
    picks = matchCommands(query.query).map((command) => ({ command }));
    items = picks.map(({ command: c }) => ({
      key: c.name,
      label: commandSignature(c),
      detail: c.summary,
    }));
  } else if (query?.phase === "arg") {
    const c = query.command;
    const all: ArgChoice[] = c.choices
      ? c.choices.map((value) => ({ value }))
      : (argChoices[c.argSource!] ?? []);
    menuLoading = !c.choices && !argChoices[c.argSource!];
    const byValue = new Map(all.map((a) => [a.value, a]));
    const chosen = matchChoices(query.query, [...byValue.keys()]).map((v) => byValue.get(v)!);
    picks = chosen.map((choice) => ({ command: c, choice }));
    items = picks.map(({ choice }) => ({
      key: choice!.value + (choice!.provider_id ?? ""),
      label: choice!.value,
      detail: choice!.detail,
      muted: choice!.muted,
    }));
    menuHeading = `/${c.name} ${c.usage ?? ""}`.trim();
  }
  const menuOpen = query !== null && (items.length > 0 || menuLoading || query.phase === "name");
  const active = Math.min(menuIndex, Math.max(0, items.length - 1));
  useEffect(() => setMenuIndex(0), [query ? `${query.phase}:${query.query}` : ""]);
  useEffect(() => {
    if (menuOpen && slashMod) slashMod.scrollActiveIntoView(MENU_ID, active);
  }, [active, menuOpen, slashMod]);

  // ---- Helpers. ------------------------------------------------------------------------------
  function showFlash(text: string) {
    clearTimeout(flashTimer.current);
    setFlash(text);
    flashTimer.current = setTimeout(() => setFlash(null), 4000);
  }

  /** Flip a per-session switch (`POST /api/session/<route>`); the server's answer wins. */
  async function flipSessionSwitch(route: string, field: string, current: boolean) {
    const s = await ensureSession();
    const res = await api<Record<string, boolean>>("POST", `/api/session/${route}`, {
      session_id: s.session_id,
      enabled: !current,
    });
    return { session_id: s.session_id, on: res[field] === true };
  }

  function focusInput() {
    area.current?.focus();
  }

  /** Put `text` in the textarea with the caret at its end (applied right after the render). */
  function replaceDraft(text: string) {
    setDraft(text);
    setMenuDismissed(false);
    caretToEnd.current = true;
  }

  /** The chat's session, created now (with the choices made so far) if there is none yet. */
  function ensureSession(): Promise<SessionInfo> {
    const id = sidRef.current;
    if (id) {
      return Promise.resolve({
        session_id: id,
        workspace: workspace ?? "",
        model: model.id,
        model_provider: model.provider,
      });
    }
    if (!creating.current) {
      const body: Record<string, unknown> = {};
      if (projectId) body.project_id = projectId;
      const p = pending.current;
      if (p.model) (body.model = p.model.id, body.model_provider = p.model.provider);
      if (p.workspace) body.workspace = p.workspace;
      creating.current = api<{ session: SessionInfo }>("POST", "/api/session/new", body)
        .then(({ session }) => {
          sidRef.current = session.session_id;
          setSid(session.session_id);
          setWorkspace(session.workspace);
          setModel({ id: session.model, provider: session.model_provider });
          pending.current = {};
          return session;
        })
        .finally(() => (creating.current = null));
    }
    return creating.current;
  }

  function announceStart(
    started: StartAnswer,
    text: string,
    kind: ChatStartedDetail["kind"],
    files: UploadedFile[] = [],
  ) {
    setRun(started.stream_id);
    const detail: ChatStartedDetail = { ...started, message: text };
    if (kind !== "chat") detail.kind = kind;
    if (files.length) detail.attachments = files;
    if (emitHermesEvent("hermes:chat-started", detail, { cancelable: true })) {
      location.assign(`/?session=${encodeURIComponent(started.session_id)}`);
    }
  }

  /** After /clear or /undo: the transcript re-renders, or the page reloads. */
  function afterRewrite(id: string, reason: "clear" | "undo") {
    emitHermesEvent("hermes:sessions-changed", { session_id: id, reason });
    if (
      emitHermesEvent("hermes:session-rewritten", { session_id: id, reason }, { cancelable: true })
    ) {
      if (id === sessionId) location.reload();
      else location.assign(`/?session=${encodeURIComponent(id)}`);
    }
  }

  function sessionUpdated(s: SessionInfo) {
    setModel({ id: s.model, provider: s.model_provider });
    setWorkspace(s.workspace);
    emitHermesEvent("hermes:session-updated", {
      session_id: s.session_id,
      model: s.model,
      model_provider: s.model_provider,
      workspace: s.workspace,
    });
  }

  // ---- Attachments. --------------------------------------------------------------------------
  function addFiles(files: File[]) {
    setError(null);
    const room = MAX_ATTACHMENTS - attachments.length;
    if (files.length > room) {
      setError(`At most ${MAX_ATTACHMENTS} attachments per message`);
      files = files.slice(0, Math.max(0, room));
    }
    const added: DraftAttachment[] = files.map((file) => ({
      id: nextId.current++,
      name: file.name || "file",
      size: file.size,
      status: "uploading",
      thumb: file.type.startsWith("image/") ? URL.createObjectURL(file) : undefined,
    }));
    setAttachments((list) => [...list, ...added]);
    added.forEach((a, i) => {
      const file = files[i];
      const update = (patch: Partial<DraftAttachment>) =>
        setAttachments((list) => list.map((x) => x.id === a.id ? { ...x, ...patch } : x));
      const job = ensureSession()
        .then((s) => uploadFile(s.session_id, file))
        .then((uploaded) => {
          results.current.set(a.id, { file: uploaded });
          update({ status: "ready", uploaded });
        })
        .catch((err) => {
          results.current.set(a.id, { error: message(err) });
          update({ status: "error", error: message(err) });
        })
        .finally(() => uploads.current.delete(a.id));
      uploads.current.set(a.id, job);
    });
  }

  /**
   * Put attachments taken out of the draft (a queued message) back in it, each with the outcome
   * of its upload (which may have finished while it was out of the list).
   */
  function restoreAttachments(atts: DraftAttachment[]) {
    setAttachments((list) => {
      const back = atts.filter((a) => !list.some((x) => x.id === a.id)).map((a) => {
        const r = results.current.get(a.id);
        if (r?.file) return { ...a, status: "ready" as const, uploaded: r.file };
        if (r?.error) return { ...a, status: "error" as const, error: r.error };
        return a;
      });
      return [...back, ...list];
    });
  }

  function removeAttachment(id: number) {
    const gone = attachments.find((a) => a.id === id);
    if (gone?.thumb) URL.revokeObjectURL(gone.thumb);
    results.current.delete(id);
    setAttachments((list) => list.filter((a) => a.id !== id));
    focusInput();
  }

  // ---- Sending. ------------------------------------------------------------------------------
  async function sendMessage(text: string, atts: DraftAttachment[]) {
    setSending(true);
    setError(null);
    try {
      await Promise.all(atts.map((a) => uploads.current.get(a.id)));
      const uploaded = atts.map((a) => results.current.get(a.id) ?? { error: "upload failed" });
      const failed = uploaded.findIndex((r) => !r.file);
      if (failed >= 0) {
        throw new Error(`"${atts[failed].name}" could not be attached: ${uploaded[failed].error}`);
      }
      const s = await ensureSession();
      const body: Record<string, unknown> = { session_id: s.session_id, message: text };
      if (uploaded.length) body.attachments = uploaded.map((r) => r.file);
      const started = await api<StartAnswer>("POST", "/api/chat/start", body);
      for (const a of atts) {
        if (a.thumb) URL.revokeObjectURL(a.thumb);
        results.current.delete(a.id);
      }
      setAttachments((list) => list.filter((x) => !atts.some((a) => a.id === x.id)));
      writeDraft(sessionId, "");
      announceStart(started, text, "chat", uploaded.map((r) => r.file!));
    } catch (err) {
      setError(message(err));
      // Give the message back unless the person already started a new one.
      setDraft((cur) => cur.trim() ? cur : text);
      restoreAttachments(atts);
    } finally {
      setSending(false);
    }
  }

  async function submit() {
    if (sending) return;
    const parsed = parseSlashCommand(draft);
    if (parsed && !parsed.command.agent) {
      await runCommand(parsed.command, parsed.arg);
      return;
    }
    const text = draft.trim();
    if (!text && attachments.length === 0) return;
    if (run) {
      if (queued) {
        setError("A message is already queued; it is sent when the answer finishes");
        return;
      }
      setQueued({ text, attachments });
      setAttachments([]);
      setDraft("");
      return;
    }
    const atts = attachments;
    setDraft("");
    await sendMessage(text, atts);
  }

  async function stop() {
    const id = run;
    if (!id) {
      showFlash("Nothing is running");
      return;
    }
    try {
      await api("GET", `/api/chat/cancel?stream_id=${encodeURIComponent(id)}`);
      setRun((cur) => cur === id ? null : cur);
    } catch (err) {
      setError(message(err));
    }
  }

  // ---- Model and workspace. ------------------------------------------------------------------
  /** The session id once any creation in flight has settled (null: still a new chat). */
  async function settledSessionId(): Promise<string | null> {
    if (!sidRef.current && creating.current) await creating.current.catch(() => {});
    return sidRef.current;
  }

  async function chooseModel(id: string, provider: string | null) {
    const current = await settledSessionId();
    if (current) {
      const { session } = await api<{ session: SessionInfo }>("POST", "/api/session/update", {
        session_id: current,
        model: id,
        model_provider: provider,
      });
      sessionUpdated(session);
    } else {
      pending.current.model = { id, provider };
      setModel({ id, provider });
    }
    showFlash(`Model: ${id}`);
  }

  async function chooseWorkspace(path: string) {
    const current = await settledSessionId();
    let session: SessionInfo;
    if (current) {
      ({ session } = await api<{ session: SessionInfo }>("POST", "/api/session/update", {
        session_id: current,
        workspace: path,
      }));
    } else {
      // A new chat: create it in that workspace now, so a bad path is refused right away.
      pending.current.workspace = path;
      try {
        session = await ensureSession();
      } catch (err) {
        delete pending.current.workspace;
        throw err;
      }
    }
    sessionUpdated(session);
    setOpen(null);
    showFlash(`Workspace: ${shortPath(session.workspace, home)}`);
    focusInput();
  }

  function openPopover(which: "model" | "workspace") {
    setPanel(null);
    if (open === which) {
      setOpen(null);
      return;
    }
    setOpen(which);
    if (which === "model" && !pickerMod) {
      import("../components/ModelPicker.tsx").then(setPickerMod, (e) => setError(message(e)));
    }
    if (which === "workspace" && !workspaceMod) {
      import("../components/WorkspaceMenu.tsx").then(setWorkspaceMod, (e) => setError(message(e)));
    }
  }

  // ---- Slash commands. -----------------------------------------------------------------------
  function needSession(c: SlashCommand): string {
    const id = sidRef.current;
    if (!id) throw new Error(`/${c.name} works in a chat: send a message first`);
    return id;
  }

  async function runCommand(c: SlashCommand, arg: string, choice?: ArgChoice) {
    setError(null);
    setPanel(null);
    setMenuDismissed(true);
    const done = () => replaceDraft("");
    try {
      switch (c.name) {
        case "help":
          setPanel({ kind: "help" });
          return done();
        case "new":
          writeDraft(sessionId, "");
          location.assign(projectId ? `/?project=${encodeURIComponent(projectId)}` : "/");
          return;
        case "clear": {
          const id = needSession(c);
          await api("POST", "/api/session/clear", { session_id: id });
          done();
          writeDraft(sessionId, "");
          return afterRewrite(id, "clear");
        }
        case "undo": {
          const id = needSession(c);
          const res = await api<{ removed_count: number; text: unknown }>(
            "POST",
            "/api/session/undo",
            { session_id: id },
          );
          if (!res.removed_count) {
            done();
            return showFlash("Nothing to undo");
          }
          const text = typeof res.text === "string" ? res.text : "";
          replaceDraft(text);
          writeDraft(sessionId, text);
          return afterRewrite(id, "undo");
        }
        case "retry": {
          const id = needSession(c);
          const started = await api<StartAnswer>("POST", "/api/session/retry", { session_id: id });
          done();
          return announceStart(started, "", "retry");
        }
        case "compress": {
          const id = needSession(c);
          const started = await api<StartAnswer>("POST", "/api/session/compress", {
            session_id: id,
          });
          done();
          return announceStart(started, "", "compress");
        }
        case "stop":
          done();
          return await stop();
        case "title": {
          if (!arg) return replaceDraft("/title ");
          const id = needSession(c);
          const { session } = await api<{ session: { title: string } }>(
            "POST",
            "/api/session/rename",
            { session_id: id, title: arg },
          );
          done();
          document.title = `${session.title} · Hermes Console`;
          emitHermesEvent("hermes:session-title", { session_id: id, title: session.title });
          emitHermesEvent("hermes:sessions-changed", { session_id: id, reason: "rename" });
          return showFlash(`Renamed to “${session.title}”`);
        }
        case "model": {
          if (!arg) return (done(), openPopover("model"));
          const provider = choice?.provider_id ??
            argChoices.models?.find((m) => m.value === arg)?.provider_id ?? null;
          await chooseModel(arg, provider);
          return done();
        }
        case "workspace":
          if (!arg) return (done(), openPopover("workspace"));
          await chooseWorkspace(arg);
          return done();
        case "usage": {
          const id = needSession(c);
          const { session } = await api<{ session: Record<string, unknown> }>(
            "GET",
            `/api/session?session_id=${encodeURIComponent(id)}&messages=0`,
          );
          setPanel({ kind: "usage", session });
          return done();
        }
        case "theme": {
          if (!c.choices?.includes(arg)) return replaceDraft("/theme ");
          emitHermesEvent("hermes:theme-change", { theme: arg as "light" | "dark" | "system" });
          done();
          return showFlash(`Theme: ${arg}`);
        }
        case "yolo": {
          const { session_id, on } = await flipSessionSwitch("yolo", "skip_approvals", yolo);
          setYolo(on);
          emitHermesEvent("hermes:skip-approvals", { session_id, enabled: on });
          done();
          if (on) setPanel({ kind: "yolo" });
          else showFlash("Approvals are back on");
          return;
        }
        case "network": {
          const { on } = await flipSessionSwitch("network", "allow_network", network);
          setNetwork(on);
          done();
          return showFlash(
            on ? "The shell can reach the network in this chat" : "The shell is offline again",
          );
        }
        case "reload-mcp": {
          const res = await api<{ servers: Array<Record<string, unknown>> }>(
            "POST",
            "/api/mcp/reload",
            {},
          );
          setPanel({ kind: "mcp", servers: res.servers });
          return done();
        }
      }
    } catch (err) {
      setError(message(err));
    }
  }

  function pickMenu(index: number, how: "tab" | "enter") {
    const p = picks[index];
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

  // ---- Keyboard, paste, drop. ----------------------------------------------------------------
  function onKeyDown(e: KeyboardEvent) {
    if (menuOpen && items.length > 0 && !e.isComposing) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setMenuIndex((active + step + items.length) % items.length);
        return;
      }
      if (e.key === "Tab" && !e.shiftKey) {
        e.preventDefault();
        return pickMenu(active, "tab");
      }
      if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        return pickMenu(active, "enter");
      }
    }
    if (e.key === "Escape") {
      if (menuOpen || open || panel) {
        e.preventDefault();
        setMenuDismissed(true);
        setOpen(null);
        setPanel(null);
      }
      return;
    }
    const action = enterAction(e, sendKey);
    if (action === "send") {
      e.preventDefault();
      submit();
    } else if (action === "newline" && (e.ctrlKey || e.metaKey)) {
      // The textarea ignores Ctrl+Enter; insert the newline the setting promises.
      e.preventDefault();
      const el = e.currentTarget as HTMLTextAreaElement;
      el.setRangeText("\n", el.selectionStart, el.selectionEnd, "end");
      setDraft(el.value);
    }
  }

  function onPaste(e: ClipboardEvent) {
    const data = e.clipboardData;
    if (!data) return;
    const files = [...data.files];
    if (files.length) {
      e.preventDefault();
      addFiles(files);
      return;
    }
    const text = data.getData("text/plain");
    if (text.length > LARGE_PASTE_CHARS) {
      e.preventDefault();
      addFiles([pastedTextFile(text, ++pastes.current)]);
      showFlash(`Long paste attached as pasted-text-${pastes.current}.txt`);
    }
  }

  const hasFiles = (e: DragEvent) => !!e.dataTransfer?.types.includes("Files");

  // ---- Render. -------------------------------------------------------------------------------
  const uploading = attachments.some((a) => a.status === "uploading");
  const hasContent = draft.trim().length > 0 || attachments.length > 0;
  const canSend = hasContent && !sending;
  const keyLabel = sendKeyLabel(sendKey, mac);
  const modelLabel = model.id ?? "Default model";
  const workspaceLabel = workspace ? shortPath(workspace, home) : null;
  const SlashMenu = slashMod?.SlashMenu;
  const ModelPicker = pickerMod?.ModelPicker;
  const WorkspaceMenu = workspaceMod?.WorkspaceMenu;
  const ComposerPanel = panelMod?.ComposerPanel;

  return (
    <form
      ref={form}
      class="composer"
      data-state={sending ? "sending" : run ? "running" : "idle"}
      data-drag={dragOver ? "over" : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onDragEnter={(e) => {
        if (hasFiles(e)) (e.preventDefault(), setDragOver(true));
      }}
      onDragOver={(e) => {
        if (hasFiles(e)) {
          e.preventDefault();
          if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
        }
      }}
      onDragLeave={(e) => {
        if (!form.current?.contains(e.relatedTarget as Node | null)) setDragOver(false);
      }}
      onDrop={(e) => {
        setDragOver(false);
        const files = [...(e.dataTransfer?.files ?? [])];
        if (files.length) (e.preventDefault(), addFiles(files));
      }}
    >
      {menuOpen && SlashMenu
        ? (
          <SlashMenu
            id={MENU_ID}
            items={items}
            active={active}
            heading={menuHeading}
            loading={menuLoading}
            empty="No such command: the text is sent to the agent as written"
            onPick={(i) => pickMenu(i, "enter")}
            onHover={setMenuIndex}
          />
        )
        : null}
      {open === "model" && ModelPicker
        ? (
          <ModelPicker
            current={{ model: model.id, provider: model.provider }}
            onClose={() => (setOpen(null), focusInput())}
            onPick={({ model: id, provider }) => {
              setOpen(null);
              focusInput();
              chooseModel(id, provider).catch((err) => setError(message(err)));
            }}
          />
        )
        : null}
      {open === "workspace" && WorkspaceMenu
        ? (
          <WorkspaceMenu
            current={workspace}
            home={home}
            onPick={chooseWorkspace}
            onClose={() => (setOpen(null), focusInput())}
          />
        )
        : null}
      {panel && ComposerPanel
        ? <ComposerPanel state={panel} commands={SLASH_COMMANDS} onClose={() => setPanel(null)} />
        : null}

      <div class="composer-box">
        {queued
          ? (
            <div class="composer-queued" data-queued="">
              <span class="queued-label">Queued</span>
              <span class="queued-text">
                {queued.text || `${queued.attachments.length} file(s)`}
              </span>
              <span class="queued-when">sends when the answer finishes</span>
              <button
                type="button"
                class="attachment-remove"
                aria-label="Take the queued message back"
                title="Take it back to edit"
                onClick={() => {
                  setDraft((cur) => cur.trim() ? cur : queued.text);
                  restoreAttachments(queued.attachments);
                  setQueued(null);
                  focusInput();
                }}
              >
                <Icon name="x" size={12} />
              </button>
            </div>
          )
          : null}
        <Attachments items={attachments} onRemove={removeAttachment} />
        <label class="visually-hidden" for="composer-input">Message</label>
        <textarea
          id="composer-input"
          ref={area}
          class="composer-input"
          name="message"
          rows={1}
          placeholder={placeholder}
          value={draft}
          autofocus
          spellcheck
          aria-controls={menuOpen ? MENU_ID : undefined}
          aria-autocomplete={menuOpen ? "list" : undefined}
          aria-activedescendant={menuOpen && items.length ? `${MENU_ID}-${active}` : undefined}
          aria-describedby={error ? "composer-error" : undefined}
          onInput={(e) => {
            setDraft(e.currentTarget.value);
            setMenuDismissed(false);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <div class="composer-bar">
          <div class="composer-tools">
            <button
              type="button"
              class="composer-tool"
              data-action="attach"
              aria-label="Attach files"
              title="Attach files (or drop / paste them)"
              onClick={() => fileInput.current?.click()}
            >
              <Icon name="paperclip" size={15} />
            </button>
            <input
              ref={fileInput}
              type="file"
              multiple
              class="visually-hidden"
              tabIndex={-1}
              aria-hidden="true"
              data-role="file-input"
              onChange={(e) => {
                const files = [...(e.currentTarget.files ?? [])];
                e.currentTarget.value = "";
                if (files.length) addFiles(files);
              }}
            />
            <button
              type="button"
              class="composer-chip"
              data-chip="model"
              aria-haspopup="listbox"
              aria-expanded={open === "model"}
              title={model.provider ? `${model.id} (${model.provider})` : modelLabel}
              onClick={() => openPopover("model")}
            >
              <Icon name="cpu" size={13} />
              <span class="chip-label">{modelLabel}</span>
              <Icon name="chevronDown" size={12} />
            </button>
            {workspaceLabel
              ? (
                <button
                  type="button"
                  class="composer-chip"
                  data-chip="workspace"
                  aria-haspopup="menu"
                  aria-expanded={open === "workspace"}
                  title={`Workspace: ${workspace}`}
                  onClick={() => openPopover("workspace")}
                >
                  <Icon name="folder" size={13} />
                  <span class="chip-label">{workspaceLabel}</span>
                  <Icon name="chevronDown" size={12} />
                </button>
              )
              : null}
            {yolo
              ? (
                <button
                  type="button"
                  class="composer-chip"
                  data-chip="yolo"
                  title="Approvals are skipped in this chat. Click to turn them back on."
                  onClick={() => runCommand(SLASH_COMMANDS.find((c) => c.name === "yolo")!, "")}
                >
                  <Icon name="alert" size={13} />
                  <span class="chip-label">Approvals off</span>
                </button>
              )
              : null}
          </div>
          <span class="composer-hint" role="status" aria-live="polite">
            {flash
              ? <span class="composer-flash">{flash}</span>
              : uploading
              ? <span class="composer-keys">Uploading…</span>
              : (
                <span class="composer-keys">
                  {run ? `${keyLabel} to queue · Stop ends the answer` : sendKeyHint(sendKey, mac)}
                </span>
              )}
          </span>
          {run
            ? (
              <button
                type="button"
                class="btn-stop"
                data-action="stop"
                aria-label="Stop the answer"
                title="Stop"
                onClick={() => stop()}
              >
                <Icon name="square" size={14} />
              </button>
            )
            : null}
          {!run || hasContent
            ? (
              <button
                type="submit"
                class="btn-send"
                disabled={!canSend || (!!run && !!queued)}
                aria-label={sending ? "Sending" : run ? "Queue message" : "Send message"}
                title={run
                  ? `Queue (${keyLabel}): sent when the answer finishes`
                  : `Send (${keyLabel})`}
              >
                <Icon name="arrowUp" size={16} />
              </button>
            )
            : null}
        </div>
        {dragOver ? <div class="composer-drop" aria-hidden="true">Drop files to attach</div> : null}
      </div>
      {error ? <p id="composer-error" class="composer-error" role="alert">{error}</p> : null}
      {sandbox && !sandbox.bubblewrap
        ? (
          <p class="composer-note" data-sandbox="off" title={sandbox.message}>
            Shell runs unsandboxed: approvals are the only gate
          </p>
        )
        : null}
    </form>
  );
}
