// A slash command that needs an argument and has none (`/use`, `/btw`) is held in the composer
// with a usage hint instead of going to the model; with its argument it goes as before.
// The English catalog, as the page would ship it: these browser modules say their text via t().
import "../lib/i18n/catalog.ts";
import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { createComposerModel } from "../lib/browser/composer/composer_model.ts";
import { missingArgumentHint, parseSlashCommand } from "../lib/browser/slash_commands.ts";

function composer(calls: string[]) {
  return createComposerModel({ sessionId: null }, {
    api: <T>(method: string, path: string) => {
      calls.push(`${method} ${path.split("?")[0]}`);
      return Promise.reject(new Error(`unexpected ${method} ${path}`)) as Promise<T>;
    },
    loadArgChoices: () => Promise.resolve([]),
    navigate: () => {},
    reload: () => {},
    setTitle: () => {},
    readDraft: () => "",
    writeDraft: () => {},
    platform: () => "Linux",
    pollMs: 5,
    flashMs: 60_000,
    draftSaveMs: 0,
  });
}

Deno.test("submit() holds /use without its skill and shows the usage", async () => {
  const calls: string[] = [];
  const m = composer(calls);
  const off = m.connect();
  try {
    m.draft.value = "/use";
    await m.submit();
    deepStrictEqual(calls, [], "nothing was sent");
    strictEqual(m.draft.value, "/use", "the draft is kept for the argument");
    match(String(m.error.value), /Usage: \/use <skill>/);
  } finally {
    off();
  }
});

Deno.test("missingArgumentHint() is null once the argument is there, or when none is needed", () => {
  strictEqual(missingArgumentHint(parseSlashCommand("/use pdf-tools")!), null);
  strictEqual(missingArgumentHint(parseSlashCommand("/new")!), null);
  match(String(missingArgumentHint(parseSlashCommand("/btw  ")!)), /\/btw needs <question>/);
});
