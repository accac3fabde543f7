// Browser-safe: imports nothing from Deno or the database.
// The slash-command autocomplete as state: derived from the draft (a command name being typed,
// or its argument), with the rows to show, the highlighted one and what picking a row means.
// Invariants: the highlight returns to the first row whenever the query changes; a dismissed
// menu stays closed until the draft is edited; argument suggestions load once per source.
import { computed, type ReadonlySignal, type Signal, signal } from "@preact/signals";
import {
  type ArgSource,
  commandSignature,
  matchChoices,
  matchCommands,
  type SlashCommand,
  slashQuery,
} from "../slash_commands.ts";
import { t } from "../../i18n/t.ts";

/** One row of the menu: a command (`/title <text>`) or an argument value (`light`). */
export interface MenuItem {
  key: string;
  label: string;
  detail?: string;
  /** Shown muted (an unreachable provider's model, a disabled skill). */
  muted?: boolean;
}

/** An argument suggestion; `provider_id` travels with model ids. */
export interface ArgChoice {
  value: string;
  detail?: string;
  provider_id?: string;
  muted?: boolean;
}

/** What a row stands for: a command, or one value of its argument. */
export interface MenuPick {
  command: SlashCommand;
  choice?: ArgChoice;
}

export interface SlashMenuModel {
  /** Escape closed the menu; editing the draft opens it again. */
  dismissed: Signal<boolean>;
  /** Loaded argument suggestions by source ([] when loading failed). */
  argChoices: Signal<Partial<Record<ArgSource, ArgChoice[]>>>;
  /** The argument source the current query needs, if any (the composer loads it). */
  argSource: ReadonlySignal<ArgSource | undefined>;
  /** True while the draft asks for the menu (its code may still be loading). */
  wanted: ReadonlySignal<boolean>;
  open: ReadonlySignal<boolean>;
  heading: ReadonlySignal<string>;
  loading: ReadonlySignal<boolean>;
  items: ReadonlySignal<MenuItem[]>;
  picks: ReadonlySignal<MenuPick[]>;
  /** Index of the highlighted row (0 when the list is empty). */
  active: ReadonlySignal<number>;
  highlight(index: number): void;
  /** Move the highlight by `step`, wrapping around. */
  move(step: number): void;
}

/**
 * The menu for `draft`; `suppressed` is true while another popover (model, workspace) is open,
 * which hides the menu without dismissing it.
 */
export function createSlashMenu(
  draft: ReadonlySignal<string>,
  suppressed: ReadonlySignal<boolean>,
): SlashMenuModel {
  const dismissed = signal(false);
  const argChoices = signal<Partial<Record<ArgSource, ArgChoice[]>>>({});
  const cursor = signal({ key: "", index: 0 });

  const query = computed(() =>
    dismissed.value || suppressed.value ? null : slashQuery(draft.value)
  );
  const queryKey = computed(() => query.value ? `${query.value.phase}:${query.value.query}` : "");
  const argSource = computed(() =>
    query.value?.phase === "arg" ? query.value.command.argSource : undefined
  );

  const rows = computed(() => {
    const q = query.value;
    if (q?.phase === "name") {
      const picks: MenuPick[] = matchCommands(q.query).map((command) => ({ command }));
      const items = picks.map(({ command: c }) => ({
        key: c.name,
        label: commandSignature(c),
        detail: c.summary,
      }));
      return { picks, items, heading: t("composer.commands"), loading: false };
    }
    if (q?.phase === "arg") {
      const c = q.command;
      const loaded = argChoices.value[c.argSource!];
      const all: ArgChoice[] = c.choices ? c.choices.map((value) => ({ value })) : (loaded ?? []);
      const byValue = new Map(all.map((a) => [a.value, a]));
      const chosen = matchChoices(q.query, [...byValue.keys()]).map((v) => byValue.get(v)!);
      const picks: MenuPick[] = chosen.map((choice) => ({ command: c, choice }));
      const items: MenuItem[] = chosen.map((choice) => ({
        key: choice.value + (choice.provider_id ?? ""),
        label: choice.value,
        detail: choice.detail,
        muted: choice.muted,
      }));
      const heading = `/${c.name} ${c.usage ?? ""}`.trim();
      return { picks, items, heading, loading: !c.choices && !loaded };
    }
    return { picks: [], items: [] as MenuItem[], heading: t("composer.commands"), loading: false };
  });

  const items = computed(() => rows.value.items);
  const open = computed(() =>
    query.value !== null &&
    (items.value.length > 0 || rows.value.loading || query.value.phase === "name")
  );
  const active = computed(() => {
    const { key, index } = cursor.value;
    return key === queryKey.value ? Math.min(index, Math.max(0, items.value.length - 1)) : 0;
  });

  return {
    dismissed,
    argChoices,
    argSource,
    wanted: computed(() => query.value !== null),
    open,
    heading: computed(() => rows.value.heading),
    loading: computed(() => rows.value.loading),
    items,
    picks: computed(() => rows.value.picks),
    active,
    highlight: (index) => cursor.value = { key: queryKey.value, index },
    move(step) {
      const n = items.value.length;
      if (n) cursor.value = { key: queryKey.value, index: (active.value + step + n) % n };
    },
  };
}
