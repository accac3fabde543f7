// Browser-safe: imports nothing from Deno or the database.
// The token and speed badges under each settled answer (`show_token_usage`, `show_tps`): the
// turn's metered tokens ("1.2k in · 340 out") and its output tokens per second, read from GET
// /api/session/turns. Invariants: counts the provider did not report read "~1.2k in" and say
// so; a speed is shown only from reported counts (the server times reported runs only, and
// this file shows none for a turn with any estimated run); a turn not yet metered shows no
// badge. Loaded by lib/browser/transcript_display.ts once either setting is on.
import { api } from "./api_client.ts";
import { formatNumber, t } from "../i18n/t.ts";
import { onHermesEvent } from "../shared/ui_events.ts";
import { displayOn } from "./transcript_display.ts";
import { openSessionId, watchTranscript } from "./transcript_watch.ts";

interface TurnFigures {
  user_idx: number;
  turn_id: string | null;
  input_tokens: number;
  output_tokens: number;
  metered?: boolean;
  estimated?: boolean;
  tokens_per_s?: number | null;
}

let turns: Promise<TurnFigures[]> | null = null;
let stop: (() => void) | null = null;

const compact = (n: number) =>
  n >= 1000
    ? t("transcript.tokensThousands", {
      value: formatNumber(n / 1000, { maximumFractionDigits: 1, minimumFractionDigits: 1 }),
    })
    : formatNumber(n, { useGrouping: false });

function load(sessionId: string): Promise<TurnFigures[]> {
  turns ??= api<{ turns: TurnFigures[] }>(
    "GET",
    `/api/session/turns?session_id=${encodeURIComponent(sessionId)}`,
  ).then((r) => r.turns, () => []);
  return turns;
}

/** One badge, created once and rewritten only when its text changes (no mutation loop). */
function setBadge(box: HTMLElement, kind: string, text: string | null, title?: string): void {
  let el = box.querySelector<HTMLElement>(`[data-badge="${kind}"]`);
  if (text === null) {
    el?.remove();
    return;
  }
  if (!el) {
    el = document.createElement("span");
    el.className = "turn-badge";
    el.dataset.badge = kind;
    // Tokens first, then speed, whichever arrives first.
    if (kind === "tokens") box.prepend(el);
    else box.append(el);
  }
  if (el.textContent !== text) el.textContent = text;
  if (title) el.title = title;
  else el.removeAttribute("title");
  el.toggleAttribute("data-estimated", !!title);
}

function tokensText(turn: TurnFigures): { text: string; title?: string } {
  const values = { input: compact(turn.input_tokens), output: compact(turn.output_tokens) };
  return turn.estimated
    ? {
      text: t("transcript.tokensInOutEstimated", values),
      title: t("transcript.tokensEstimated"),
    }
    : { text: t("transcript.tokensInOut", values) };
}

async function fill(): Promise<void> {
  const sid = openSessionId();
  const tokensOn = displayOn("data-show-token-usage");
  const speedOn = displayOn("data-show-tps");
  if (!sid || !(tokensOn || speedOn)) return;
  const all = await load(sid);
  for (const row of document.querySelectorAll<HTMLElement>(".turn > .msg-actions-answer")) {
    const id = row.dataset.turnId;
    const idx = row.dataset.userIdx ? Number(row.dataset.userIdx) : null;
    const turn = all.find((x) => id ? x.turn_id === id : x.user_idx === idx);
    let box = row.previousElementSibling as HTMLElement | null;
    if (!box?.classList.contains("turn-badges")) box = null;
    if (!turn || turn.metered === false) {
      box?.remove();
      continue;
    }
    if (!box) {
      box = document.createElement("div");
      box.className = "turn-badges";
      box.dataset.turnBadges = "";
      row.before(box);
    }
    const tokens = tokensOn ? tokensText(turn) : null;
    setBadge(box, "tokens", tokens?.text ?? null, tokens?.title);
    // Never a speed out of estimated counts: nothing rather than a made-up figure.
    const tps = speedOn && !turn.estimated && turn.tokens_per_s ? turn.tokens_per_s : null;
    setBadge(
      box,
      "tps",
      tps === null ? null : t("tdisplay.tokensPerSecond", {
        value: formatNumber(tps, { maximumFractionDigits: 1, minimumFractionDigits: 1 }),
      }),
    );
    if (!box.childElementCount) box.remove();
  }
}

/** Apply the settings as painted now: start, update or take the badges away. */
export function refresh(): void {
  const on = displayOn("data-show-token-usage") || displayOn("data-show-tps");
  if (!on) {
    stop?.();
    stop = null;
    for (const box of document.querySelectorAll(".turn-badges")) box.remove();
    return;
  }
  if (!stop) {
    const offWatch = watchTranscript(() => void fill());
    // A run's usage row is written as it ends: read the figures again then.
    const offRun = onHermesEvent("hermes:run-state", ({ active }) => {
      if (active) return;
      turns = null;
      void fill();
    });
    stop = () => (offWatch(), offRun());
  }
  void fill();
}
