// The popovers above the composer: the slash menu, the model picker, the workspace switcher, the
// profile menu, the command panel (/help, /usage…) and the agent panel (/prompt's form…). Each one's code is loaded on first use (dynamic import), so
// none of it costs anything before then. Rendered inside the Composer island.
import { useEffect, useRef, useState } from "preact/hooks";
import { type ComposerModel, describeError } from "../../lib/browser/composer/composer_model.ts";
import { SLASH_COMMANDS } from "../../lib/browser/slash_commands.ts";
import { isAgentPanel } from "../../lib/browser/composer/composer_commands.ts";
import { t } from "../../lib/i18n/t.ts";

/** The slash menu's listbox id (the textarea points at it with aria-controls). */
export const MENU_ID = "slash-options";

/** `load()`'s module once `wanted` has been true (null until then, or when it failed). */
function useLazy<T>(wanted: boolean, load: () => Promise<T>, fail: (err: unknown) => void) {
  const [mod, setMod] = useState<T | null>(null);
  useEffect(() => {
    if (wanted && !mod) load().then(setMod, fail);
  }, [wanted]);
  return mod;
}

export function ComposerPopovers({ model: m }: { model: ComposerModel }) {
  const fail = (err: unknown) => m.error.value = describeError(err);
  const open = m.open.value;
  const panel = m.panel.value;
  const menuOpen = m.menu.open.value;
  const active = m.menu.active.value;
  const slash = useLazy(m.menu.wanted.value, () => import("../SlashMenu.tsx"), fail);
  const picker = useLazy(open === "model", () => import("../ModelPicker.tsx"), fail);
  const switcher = useLazy(open === "workspace", () => import("../WorkspaceMenu.tsx"), fail);
  const agent = panel !== null && isAgentPanel(panel);
  const panels = useLazy(panel !== null && !agent, () => import("../ComposerPanel.tsx"), fail);
  const agentPanel = useLazy(agent, () => import("./AgentPanel.tsx"), fail);
  const profiles = useLazy(open === "profile", () => import("./ProfileMenu.tsx"), fail);

  useEffect(() => {
    if (menuOpen && slash) slash.scrollActiveIntoView(MENU_ID, active);
  }, [active, menuOpen, slash]);

  const close = () => (m.open.value = null, m.view.focus());
  // Escape puts focus back on what opened the popover (its chip); a pick goes to the composer.
  const opener = useRef<{ which: string | null; el: HTMLElement | null }>({
    which: null,
    el: null,
  });
  if (opener.current.which !== open) {
    const el = typeof document === "undefined" ? null : document.activeElement;
    opener.current = { which: open, el: open && el instanceof HTMLElement ? el : null };
  }
  const dismiss = () => {
    const back = opener.current.el;
    if (back?.isConnected && back.matches("[data-chip]")) {
      m.open.value = null;
      back.focus();
    } else close();
  };
  return (
    <>
      {menuOpen && slash
        ? (
          <slash.SlashMenu
            id={MENU_ID}
            items={m.menu.items.value}
            active={active}
            heading={m.menu.heading.value}
            loading={m.menu.loading.value}
            empty={t("composer.noSuchCommand")}
            onPick={(i) => m.pickMenu(i, "enter")}
            onHover={m.menu.highlight}
          />
        )
        : null}
      {open === "model" && picker
        ? (
          <picker.ModelPicker
            current={{ model: m.model.value.id, provider: m.model.value.provider }}
            onClose={dismiss}
            onPick={({ model: id, provider }) => {
              close();
              m.chooseModel(id, provider).catch(fail);
            }}
          />
        )
        : null}
      {open === "workspace" && switcher
        ? (
          <switcher.WorkspaceMenu
            current={m.workspace.value}
            home={m.home}
            onPick={m.chooseWorkspace}
            onClose={dismiss}
          />
        )
        : null}
      {open === "profile" && profiles
        ? (
          <profiles.ProfileMenu
            onPick={(n, model) => m.switchProfile(n, model)}
            onClose={dismiss}
          />
        )
        : null}
      {panel && isAgentPanel(panel) && agentPanel
        ? <agentPanel.AgentPanel model={m} state={panel} />
        : null}
      {panel && !isAgentPanel(panel) && panels
        ? (
          <panels.ComposerPanel
            state={panel}
            commands={SLASH_COMMANDS}
            onClose={() => m.panel.value = null}
          />
        )
        : null}
    </>
  );
}
