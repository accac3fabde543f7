// The composer's textarea: grows with the text up to about twelve lines, then scrolls; hands keys
// and pastes to the model (menu navigation, send, attach) and puts the caret at the end after
// the model replaced the draft. Rendered inside the Composer island.
import { useLayoutEffect, useRef } from "preact/hooks";
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { MENU_ID } from "./ComposerPopovers.tsx";
import { t } from "../../lib/i18n/t.ts";

/** Textarea height limit in px before it scrolls (about twelve lines). */
const MAX_HEIGHT = 280;

export interface ComposerInputProps {
  model: ComposerModel;
  placeholder: string;
}

export function ComposerInput({ model: m, placeholder }: ComposerInputProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  const draft = m.draft.value;
  const menuOpen = m.menu.open.value;
  const hasItems = m.menu.items.value.length > 0;
  const error = m.error.value;

  useLayoutEffect(() => {
    m.view.focus = () => area.current?.focus();
  }, []);

  // Grow with the text up to MAX_HEIGHT, then scroll; shrink back when text is removed.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    if (m.view.caretToEnd) {
      m.view.caretToEnd = false;
      el.focus();
      el.setSelectionRange(el.value.length, el.value.length);
    }
    el.style.height = "auto";
    // A short window (200% zoom) lowers the stylesheet's max-height: scroll from there.
    const max = Math.min(MAX_HEIGHT, parseFloat(getComputedStyle(el).maxHeight) || MAX_HEIGHT);
    el.style.height = `${Math.min(el.scrollHeight, max)}px`;
    el.style.overflowY = el.scrollHeight > max ? "auto" : "hidden";
  }, [draft]);

  function onKeyDown(e: KeyboardEvent) {
    const handled = m.keyDown(e);
    if (handled) e.preventDefault();
    if (handled === "newline") {
      const el = e.currentTarget as HTMLTextAreaElement;
      el.setRangeText("\n", el.selectionStart, el.selectionEnd, "end");
      m.draft.value = el.value;
    }
  }

  function onPaste(e: ClipboardEvent) {
    const data = e.clipboardData;
    if (!data) return;
    const files = [...data.files];
    if (m.paste(files, files.length ? "" : data.getData("text/plain"))) e.preventDefault();
  }

  return (
    <>
      <label class="visually-hidden" for="composer-input">{t("composer.messageLabel")}</label>
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
        aria-activedescendant={menuOpen && hasItems
          ? `${MENU_ID}-${m.menu.active.value}`
          : undefined}
        aria-describedby={error ? "composer-error" : undefined}
        onInput={(e) => m.input(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
    </>
  );
}
