// Browser-safe: imports nothing from Deno or the database.
// `/reasoning <level>` (the chat's own reasoning effort) and `/title` with no text (the model
// titles the chat: POST /api/session/title/regenerate), loaded on first use. Invariant: both
// need an existing chat and say so instead of creating one; the server's answer is shown.
import type { SlashCommand } from "../slash_commands.ts";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import type { CommandHost } from "./composer_commands.ts";
import { t } from "../../i18n/t.ts";

const LEVELS = ["none", "low", "medium", "high", "default"];
/** A reasoning level as the person reads it (an unknown one as the server names it). */
const levelName = (level: string) => t("composer.reasoningLevel", { level });

function needSession(host: CommandHost, c: SlashCommand): string {
  const id = host.sid.value;
  if (!id) throw new Error(t("composer.needsChat", { command: `/${c.name}` }));
  return id;
}

/** Run `/reasoning [level]` or `/title` (no text). */
export async function runSessionExtra(
  host: CommandHost,
  c: SlashCommand,
  arg: string,
): Promise<void> {
  const id = needSession(host, c);
  if (c.name === "reasoning") {
    const level = arg.trim().toLowerCase();
    if (!level) {
      const now = await host.deps.api<
        { reasoning_effort: string | null; effective: string | null }
      >(
        "GET",
        `/api/session/reasoning?session_id=${encodeURIComponent(id)}`,
      );
      host.replaceDraft("");
      return host.showFlash(
        now.reasoning_effort != null
          ? t("composer.reasoning", { level: levelName(now.reasoning_effort) })
          : now.effective != null
          ? t("composer.reasoningDefault", { effective: levelName(now.effective) })
          : t("composer.reasoningProviderDefault"),
      );
    }
    if (!LEVELS.includes(level)) {
      throw new Error(t("composer.reasoningTakes", { levels: LEVELS.join(", ") }));
    }
    const res = await host.deps.api<{ reasoning_effort: string | null }>(
      "POST",
      "/api/session/reasoning",
      { session_id: id, effort: level },
    );
    host.replaceDraft("");
    return host.showFlash(
      t("composer.reasoning", { level: levelName(res.reasoning_effort ?? "default") }),
    );
  }
  host.showFlash(t("composer.writingTitle"));
  const res = await host.deps.api<{ title: string; status: string }>(
    "POST",
    "/api/session/title/regenerate",
    { session_id: id },
  );
  host.replaceDraft("");
  if (res.status !== "generated") {
    return host.showFlash(
      t(res.status === "no_exchange" ? "composer.titleNeedsAnswer" : "composer.titleUnusable"),
    );
  }
  host.deps.setTitle(`${res.title} · ${t("common.appName")}`);
  emitHermesEvent("hermes:session-title", { session_id: id, title: res.title });
  emitHermesEvent("hermes:sessions-changed", { session_id: id, reason: "rename" });
  host.showFlash(t("composer.titled", { title: res.title }));
}
