// Browser-safe: imports nothing from Deno or the database.
// How an approval rule reads to a person: each policy category key (`rm_recursive`,
// `git_force_push`, `mcp:<server>:<tool>`) becomes a short phrase in the page's language
// ("recursive deletes", "force-pushes"), never the key itself. Invariant: a key with no phrase
// in the catalog still reads as words (a generic phrase), so no internal name reaches a card.
import { currentLocale, hasMessage, t } from "../i18n/t.ts";

/** The catalog prefix of the category phrases (lib/i18n/messages/<locale>/approval_rules.json). */
const PHRASE_PREFIX = "approval_rules.";

/** An MCP tool's grant key: `mcp:<server>:<tool>` (lib/tools/mcp_tools.ts). */
const MCP_KEY = /^mcp:([^:]+):(.+)$/;

/** Unicode isolates: a server or tool name written in another script cannot reorder the phrase. */
const isolate = (s: string) => `\u2068${s}\u2069`;

/** The phrase of one category key, lower-case as it reads inside a sentence. */
export function rulePhrase(key: string): string {
  const mcp = MCP_KEY.exec(key);
  if (mcp) {
    return t("approval_rules.mcpTool", { server: isolate(mcp[1]), tool: isolate(mcp[2]) });
  }
  // Only plain identifiers are looked up: a key from a hand-edited config cannot reach
  // another area's message.
  if (/^[a-z][a-z0-9_]*$/.test(key) && hasMessage(PHRASE_PREFIX + key)) {
    return t(PHRASE_PREFIX + key);
  }
  return t("approval_rules.otherKind");
}

/** Whether `key` has a phrase of its own (not the generic one). */
export function hasRulePhrase(key: string): boolean {
  return MCP_KEY.test(key) ||
    (/^[a-z][a-z0-9_]*$/.test(key) && hasMessage(PHRASE_PREFIX + key));
}

/** Several keys as one phrase list in the page's language: "recursive deletes and force-pushes". */
export function rulePhraseList(keys: readonly string[]): string {
  const phrases = [...new Set(keys.filter(Boolean).map(rulePhrase))];
  try {
    return new Intl.ListFormat(currentLocale(), { type: "conjunction" }).format(phrases);
  } catch {
    return phrases.join(", ");
  }
}

/** A phrase as the start of a line (a list row's name): its first letter in upper case. */
export function capitalized(phrase: string): string {
  const first = phrase.codePointAt(0);
  if (first === undefined) return phrase;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase(currentLocale()) + phrase.slice(head.length);
}
