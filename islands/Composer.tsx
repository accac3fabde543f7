// The command surface: an auto-growing textarea, attachments (picker, drag-drop, paste; a long
// paste becomes a .txt file), slash commands with an autocomplete menu, the model picker and
// workspace switcher in the footer, and Send / Stop. Sending creates the session when there is
// none, starts the run (POST /api/chat/start) and announces it with a cancelable
// `hermes:chat-started` event; when no live transcript takes it over, the page navigates to the
// session. While a run is active (`hermes:run-state`) a message is queued and sent when it ends.
// The state and its rules live in lib/browser/composer/composer_model.ts; this island renders
// it through small components and wires the page around it (drag-drop, clicks outside).
import { useEffect, useRef, useState } from "preact/hooks";
import {
  type ComposerInit,
  type ComposerModel,
  createComposerModel,
} from "../lib/browser/composer/composer_model.ts";
import type { HermesEvents } from "../lib/shared/ui_events.ts";
import { Attachments } from "../components/Attachments.tsx";
import { ComposerInput } from "../components/composer/ComposerInput.tsx";
import { ComposerPopovers } from "../components/composer/ComposerPopovers.tsx";
import { ComposerTools } from "../components/composer/ComposerTools.tsx";
import { DictateButton } from "../components/composer/DictateButton.tsx";
import { QueuedMessage } from "../components/composer/QueuedMessage.tsx";
import { SendControls } from "../components/composer/SendControls.tsx";
import { SideResultsSlot } from "../components/composer/SideResultsSlot.tsx";
import { t } from "../lib/i18n/t.ts";

export interface ComposerProps extends ComposerInit {
  /** Terminal sandbox status (tools.commands.status()); a quiet note when it is off. */
  sandbox?: { bubblewrap: boolean; message: string; warning?: string | null } | null;
  placeholder?: string;
}

/** What `hermes:chat-started` carries (POST /api/chat/start's answer plus the message). */
export type ChatStartedDetail = HermesEvents["hermes:chat-started"];

const hasFiles = (e: DragEvent) => !!e.dataTransfer?.types.includes("Files");

/** The model for these props, made once; argument suggestions load with the slash menu. */
function useComposerModel(props: ComposerProps): ComposerModel {
  const [m] = useState(() =>
    createComposerModel(props, {
      loadArgChoices: (source, home) =>
        import("../components/SlashMenu.tsx").then((mod) => mod.loadArgChoices(source, home)),
    })
  );
  useEffect(() => m.connect(), []);
  return m;
}

export default function Composer(props: ComposerProps) {
  const { sandbox = null, placeholder = t("composer.placeholder") } = props;
  const m = useComposerModel(props);
  const form = useRef<HTMLFormElement>(null);
  const popoverOpen = m.open.value !== null || m.panel.value !== null;
  const error = m.error.value;

  // Popovers close on a click outside the composer.
  useEffect(() => {
    if (!popoverOpen) return;
    const onDown = (e: PointerEvent) => {
      if (form.current && !form.current.contains(e.target as Node)) m.closePopovers();
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [popoverOpen]);

  return (
    <form
      ref={form}
      class="composer"
      data-state={m.phase.value}
      data-drag={m.dragOver.value ? "over" : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        m.submit();
      }}
      onDragEnter={(e) => {
        if (hasFiles(e)) (e.preventDefault(), m.dragOver.value = true);
      }}
      onDragOver={(e) => {
        if (hasFiles(e)) {
          e.preventDefault();
          if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
        }
      }}
      onDragLeave={(e) => {
        if (!form.current?.contains(e.relatedTarget as Node | null)) m.dragOver.value = false;
      }}
      onDrop={(e) => {
        m.dragOver.value = false;
        const files = [...(e.dataTransfer?.files ?? [])];
        if (files.length) (e.preventDefault(), m.addFiles(files));
      }}
    >
      <ComposerPopovers model={m} />
      <SideResultsSlot model={m} />
      <div class="composer-box">
        <QueuedMessage model={m} />
        <Attachments items={m.attachments.value} onRemove={m.removeAttachment} />
        <ComposerInput model={m} placeholder={placeholder} />
        <div class="composer-bar">
          <ComposerTools model={m} />
          <SendControls model={m} />
          <DictateButton model={m} />
        </div>
        {m.dragOver.value
          ? <div class="composer-drop" aria-hidden="true">{t("composer.dropFiles")}</div>
          : null}
      </div>
      {error ? <p id="composer-error" class="composer-error" role="alert">{error}</p> : null}
      {sandbox && !sandbox.bubblewrap
        ? (
          <p class="composer-note" data-sandbox="off" title={sandbox.message}>
            {t("composer.unsandboxed")}
          </p>
        )
        : null}
      {sandbox?.warning
        ? (
          <p class="composer-note" data-sandbox="root" title={sandbox.warning}>
            {t(sandbox.bubblewrap ? "composer.rootNoUserns" : "composer.consoleRoot")}
          </p>
        )
        : null}
    </form>
  );
}
