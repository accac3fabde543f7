// The composer's model picker: `GET /api/models` grouped by provider, fetched when the picker
// opens (never before), with a filter box that also accepts any typed model id ("Use model
// 'xyz'"). Providers that are unreachable or still being probed stay listed, quietly muted
// with a short reason; a catalog still `refreshing` is asked again shortly after. Loaded on
// demand by the Composer island (dynamic import), so it costs nothing before interaction.
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import type { ModelGroup, ModelsResponse } from "../lib/models/model_groups.ts";
import { Icon } from "./Icon.tsx";
import { t } from "../lib/i18n/t.ts";

export interface ModelChoice {
  model: string;
  /** The provider group it came from; null for a typed id (the active provider serves it). */
  provider: string | null;
}

export interface ModelPickerProps {
  current: { model: string | null; provider: string | null };
  onPick(choice: ModelChoice): void;
  onClose(): void;
}

/** How often a `refreshing` catalog is asked again, and how many times at most. */
const REFRESH_AFTER_MS = 1500;
const MAX_REFRESHES = 6;

type Row =
  | { kind: "typed"; model: string }
  | { kind: "model"; model: string; label: string; provider: string; muted: boolean };

/** A group's state in a few quiet words, or null when it answered normally. */
function groupNote(g: ModelGroup): string | null {
  if (g.unreachable) {
    return g.error
      ? t("shell.modelsUnreachableWhy", { error: g.error })
      : t("shell.modelsUnreachable");
  }
  if (g.error) return g.error;
  if (g.pending) return t("shell.modelsChecking");
  return null;
}

function matches(q: string, ...fields: string[]): boolean {
  return q === "" || fields.some((f) => f.toLowerCase().includes(q));
}

type Section = { group: ModelGroup; start: number; count: number };

/**
 * The picker's rows for `filter`: a "Use model 'id'" row for a typed id not in the catalog, then
 * each group's matching models (a group matching by provider name keeps all of its models).
 */
function pickerRows(catalog: ModelsResponse | null, filter: string) {
  const q = filter.trim().toLowerCase();
  const typed = filter.trim();
  const rows: Row[] = [];
  const sections: Section[] = [];
  const exact = catalog?.groups.some((g) => g.models.some((m) => m.id === typed)) ?? false;
  if (typed && !exact && !/\s/.test(typed)) rows.push({ kind: "typed", model: typed });
  for (const g of catalog?.groups ?? []) {
    const start = rows.length;
    const providerHit = q !== "" && g.provider.toLowerCase().includes(q);
    for (const m of g.models) {
      if (!providerHit && !matches(q, m.id, m.label)) continue;
      rows.push({
        kind: "model",
        model: m.id,
        label: m.label,
        provider: g.provider_id,
        muted: !!g.unreachable,
      });
    }
    if (rows.length > start || q === "") {
      sections.push({ group: g, start, count: rows.length - start });
    }
  }
  return { rows, sections };
}

export function ModelPicker({ current, onPick, onClose }: ModelPickerProps) {
  const [catalog, setCatalog] = useState<ModelsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState("");
  const [active, setActive] = useState(0);
  const [reload, setReload] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const refreshes = useRef(0);

  useEffect(() => {
    input.current?.focus();
  }, []);

  // Fetch on open; while the server says a rebuild continues, ask again a few times.
  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    api<ModelsResponse>("GET", "/api/models", undefined, { signal: ctrl.signal })
      .then((res) => {
        setCatalog(res);
        setError(null);
        if (res.refreshing && refreshes.current < MAX_REFRESHES) {
          refreshes.current++;
          timer = setTimeout(() => setReload((n) => n + 1), REFRESH_AFTER_MS);
        }
      })
      .catch((err) => {
        if ((err as Error).name === "AbortError") return;
        setError(err instanceof ApiError ? err.message : String(err));
      });
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [reload]);

  const q = filter.trim().toLowerCase();
  const typed = filter.trim();

  const { rows, sections } = useMemo(() => pickerRows(catalog, filter), [catalog, q, typed]);

  useEffect(() => setActive(0), [q]);
  useEffect(() => {
    document.getElementById(`model-opt-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const pick = (row: Row | undefined) => {
    if (!row) return;
    onPick({ model: row.model, provider: row.kind === "model" ? row.provider : null });
  };

  const retry = async (providerId: string) => {
    try {
      await api("POST", "/api/models/refresh", { provider: providerId });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      return;
    }
    refreshes.current = 0;
    setReload((n) => n + 1);
  };

  const isCurrent = (row: Row) =>
    row.kind === "model" && row.model === current.model &&
    (current.provider === null || current.provider === row.provider);

  const option = (row: Row, i: number) => (
    <ModelOption
      key={row.kind === "typed" ? "typed" : `${row.provider}/${row.model}`}
      row={row}
      index={i}
      active={i === active}
      current={isCurrent(row)}
      onHover={setActive}
      onPick={pick}
    />
  );

  return (
    <div
      class="composer-pop model-picker"
      data-popover="model"
      data-source={catalog?.source}
      data-refreshing={catalog?.refreshing ? "" : undefined}
    >
      <input
        ref={input}
        class="pop-filter"
        type="text"
        placeholder={t("shell.filterModelsPlaceholder")}
        aria-label={t("shell.filterModels")}
        aria-controls="model-options"
        aria-activedescendant={rows.length ? `model-opt-${active}` : undefined}
        value={filter}
        spellcheck={false}
        autocomplete="off"
        onInput={(e) => setFilter(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => Math.min(rows.length - 1, a + 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === "Enter") {
            e.preventDefault();
            pick(rows[active]);
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
      />
      {error ? <p class="pop-error" role="alert">{error}</p> : null}
      {!catalog && !error ? <p class="pop-empty">{t("shell.loadingModels")}</p> : null}
      <ul
        id="model-options"
        class="pop-list model-list"
        role="listbox"
        aria-label={t("shell.models")}
      >
        {rows[0]?.kind === "typed" ? option(rows[0], 0) : null}
        {sections.map(({ group, start, count }) => (
          <ModelGroupSection key={group.provider_id} group={group} onRetry={retry}>
            {rows.slice(start, start + count).map((row, j) =>
              option(row, start + j)
            )}
          </ModelGroupSection>
        ))}
      </ul>
      {catalog && rows.length === 0 ? <p class="pop-empty">{t("shell.noModelMatches")}</p> : null}
    </div>
  );
}

interface ModelOptionProps {
  row: Row;
  index: number;
  active: boolean;
  current: boolean;
  onHover(index: number): void;
  onPick(row: Row): void;
}

function ModelOption({ row, index, active, current, onHover, onPick }: ModelOptionProps) {
  return (
    <li
      id={`model-opt-${index}`}
      class="pop-option model-option"
      role="option"
      aria-selected={active}
      data-model-id={row.model}
      data-kind={row.kind}
      data-muted={row.kind === "model" && row.muted ? "" : undefined}
      data-current={current ? "" : undefined}
      onMouseEnter={() => onHover(index)}
      onClick={() => onPick(row)}
    >
      {row.kind === "typed"
        ? (
          <span class="model-label">
            <UseModel model={row.model} />
          </span>
        )
        : (
          <>
            <span class="model-label">{row.label}</span>
            {row.label !== row.model ? <span class="model-id mono">{row.model}</span> : null}
            {current ? <Icon name="check" size={13} class="icon model-check" /> : null}
          </>
        )}
    </li>
  );
}

/** Stands in for the typed id while the sentence around it is split. */
const ID = "\u0000";

/** "Use model 'xyz'": the sentence from the catalog, the id in code type. */
function UseModel({ model }: { model: string }) {
  const [before, after = ""] = t("shell.useModel", { model: ID }).split(ID);
  return (
    <>
      {before}
      <span class="mono">'{model}'</span>
      {after}
    </>
  );
}

interface ModelGroupSectionProps {
  group: ModelGroup;
  onRetry(providerId: string): void;
  children: ComponentChildren;
}

/** One provider's models under its name, with its state and a Retry when it failed. */
function ModelGroupSection({ group, onRetry, children }: ModelGroupSectionProps) {
  const note = groupNote(group);
  return (
    <li
      class="model-group"
      role="presentation"
      data-provider={group.provider_id}
      data-state={group.unreachable
        ? "unreachable"
        : group.error
        ? "error"
        : group.pending
        ? "pending"
        : "ok"}
    >
      <div class="pop-heading model-group-head">
        <span>{group.provider}</span>
        {note ? <span class="model-group-note" title={note}>{note}</span> : null}
        {group.unreachable || group.error
          ? (
            <button type="button" class="pop-link" onClick={() => onRetry(group.provider_id)}>
              {t("common.retry")}
            </button>
          )
          : null}
      </div>
      <ul role="group" aria-label={group.provider}>
        {children}
      </ul>
    </li>
  );
}
