// The slash-command autocomplete list above the composer, and the loaders of argument
// suggestions (models, workspaces, skills). Loaded on demand by the Composer island (dynamic
// import) the first time a draft starts with `/`, so it costs nothing before interaction.
// The island owns the keyboard; this draws the list and reports clicks and hovers.
import { api } from "../lib/browser/api_client.ts";
import type { ArgSource } from "../lib/browser/slash_commands.ts";
import type { ModelsResponse } from "../lib/models/model_groups.ts";
import { shortPath } from "../lib/browser/composer_state.ts";
import type { ArgChoice, MenuItem } from "../lib/browser/composer/slash_menu_model.ts";
import { t } from "../lib/i18n/t.ts";

export interface SlashMenuProps {
  id: string;
  items: MenuItem[];
  active: number;
  /** "Commands" or the argument being completed ("Models"). */
  heading: string;
  loading?: boolean;
  /** Shown when nothing matches (e.g. "No matching command: sent to the agent as written"). */
  empty?: string;
  onPick(index: number): void;
  onHover(index: number): void;
}

export function SlashMenu(
  { id, items, active, heading, loading, empty, onPick, onHover }: SlashMenuProps,
) {
  return (
    <div class="composer-pop slash-menu" data-popover="slash">
      <p class="pop-heading">{heading}</p>
      {loading && items.length === 0 ? <p class="pop-empty">{t("common.loading")}</p> : null}
      {!loading && items.length === 0 && empty ? <p class="pop-empty">{empty}</p> : null}
      <ul
        id={id}
        class="pop-list"
        role="listbox"
        aria-label={heading}
        // Reachable for its scrolling (axe scrollable-region-focusable); the composer's keys
        // still drive it (aria-activedescendant, Tab picks) and a click never takes focus.
        tabIndex={0}
        onMouseDown={(e) => e.preventDefault()}
      >
        {items.map((item, i) => (
          <li
            key={item.key}
            id={`${id}-${i}`}
            class="pop-option slash-option"
            role="option"
            aria-selected={i === active}
            data-muted={item.muted ? "" : undefined}
            onMouseDown={(e) => e.preventDefault() /* keep the textarea focused */}
            onMouseEnter={() => onHover(i)}
            onClick={() => onPick(i)}
          >
            <span class="slash-label">{item.label}</span>
            {item.detail ? <span class="slash-detail">{item.detail}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The options panel row keeps the same look as the picker's; scroll the active row into view. */
export function scrollActiveIntoView(listId: string, index: number): void {
  document.getElementById(`${listId}-${index}`)?.scrollIntoView({ block: "nearest" });
}

/**
 * Suggestions for a command's argument: the catalog's model ids (grouped provider as detail),
 * the registered workspaces (short `~` form), or the enabled skills.
 */
export async function loadArgChoices(source: ArgSource, home: string | null): Promise<ArgChoice[]> {
  if (source === "models") {
    const res = await api<ModelsResponse>("GET", "/api/models");
    const out: ArgChoice[] = [];
    const seen = new Set<string>();
    for (const g of res.groups) {
      for (const m of g.models) {
        if (seen.has(m.id)) continue;
        seen.add(m.id);
        out.push({
          value: m.id,
          detail: g.provider,
          provider_id: g.provider_id,
          muted: !!g.unreachable,
        });
      }
    }
    return out;
  }
  if (source === "workspaces") {
    const res = await api<{ workspaces: Array<{ path: string; name: string }> }>(
      "GET",
      "/api/workspaces",
    );
    return res.workspaces.map((w) => ({ value: shortPath(w.path, home), detail: w.name }));
  }
  if (source === "prompts") {
    const res = await api<{ prompts: Array<{ name: string; variables: string[] }> }>(
      "GET",
      "/api/prompts",
    );
    return res.prompts.map((p) => ({
      value: p.name,
      detail: p.variables.length ? p.variables.map((v) => `{{${v}}}`).join(" ") : undefined,
    }));
  }
  if (source === "personalities") {
    const res = await api<{ personalities: Array<{ name: string; description: string }> }>(
      "GET",
      "/api/personalities",
    );
    return res.personalities.map((p) => ({ value: p.name, detail: p.description }));
  }
  const res = await api<{ skills: Array<{ name: string; description: string; enabled: boolean }> }>(
    "GET",
    "/api/skills",
  );
  return res.skills.filter((s) => s.enabled).map((s) => ({
    value: s.name,
    detail: s.description,
  }));
}
