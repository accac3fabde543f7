// The English catalog, as the page would ship it: these browser modules say their text via t().
import "../lib/i18n/catalog.ts";
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import {
  commandSignature,
  completeCommand,
  findCommand,
  isCommandName,
  matchChoices,
  matchCommands,
  parseSlashCommand,
  SLASH_COMMANDS,
  slashQuery,
} from "../lib/browser/slash_commands.ts";
import {
  enterAction,
  formatBytes,
  formatCost,
  formatTokens,
  type KeyLike,
  sendKeyHint,
  shortPath,
} from "../lib/browser/composer_state.ts";

const names = (list: { name: string }[]) => list.map((c) => c.name);

Deno.test("SLASH_COMMANDS has well-formed, unique names and aliases", () => {
  const seen = new Set<string>();
  for (const c of SLASH_COMMANDS) {
    for (const n of [c.name, ...(c.aliases ?? [])]) {
      assert(isCommandName(n), `"${n}" is a valid command name`);
      assert(!seen.has(n), `"${n}" is defined once`);
      seen.add(n);
    }
    assert(c.summary.length > 0 && c.summary.length <= 60, `/${c.name} has a one-line summary`);
    if (c.argRequired) assert(c.usage, `/${c.name} documents its required argument`);
  }
  for (
    const required of [
      "help",
      "new",
      "clear",
      "compress",
      "model",
      "workspace",
      "title",
      "retry",
      "undo",
      "stop",
      "theme",
      "usage",
      "yolo",
    ]
  ) {
    assert(findCommand(required), `/${required} is registered`);
  }
});

Deno.test("parseSlashCommand() recognises registered commands and their arguments", () => {
  const p = parseSlashCommand("/title  Release notes for v2 ");
  strictEqual(p?.command.name, "title");
  strictEqual(p?.arg, "Release notes for v2");
  strictEqual(parseSlashCommand("/clear")?.command.name, "clear");
  strictEqual(parseSlashCommand("  /clear  ")?.arg, "", "surrounding blanks are ignored");
  strictEqual(parseSlashCommand("/CLEAR")?.command.name, "clear", "names are case-insensitive");
  strictEqual(parseSlashCommand("/rename Plan")?.command.name, "title", "aliases resolve");
  strictEqual(parseSlashCommand("/model gpt-5-mini")?.arg, "gpt-5-mini");
  strictEqual(parseSlashCommand("/title first line\nsecond")?.arg, "first line\nsecond");
  strictEqual(parseSlashCommand("/theme\tlight")?.arg, "light", "a tab separates too");
});

Deno.test("parseSlashCommand() leaves everything else to the agent", () => {
  strictEqual(parseSlashCommand("hello"), null);
  strictEqual(parseSlashCommand("/frobnicate now"), null, "unknown command → plain text");
  strictEqual(parseSlashCommand("/usr/bin is slow"), null, "a path is not a command");
  strictEqual(parseSlashCommand("/"), null);
  strictEqual(parseSlashCommand("/ clear"), null);
  strictEqual(parseSlashCommand("please /clear"), null, "only a leading command counts");
  strictEqual(parseSlashCommand("/clear-all"), null, "names match whole, not by prefix");
});

Deno.test("parseSlashCommand() marks /use as a message for the agent", () => {
  const p = parseSlashCommand("/use release-notes write them");
  strictEqual(p?.command.name, "use");
  strictEqual(p?.command.agent, true);
  strictEqual(p?.arg, "release-notes write them");
});

Deno.test("slashQuery() tells the menu what to complete", () => {
  assertEquals(slashQuery("/"), { phase: "name", query: "" });
  assertEquals(slashQuery("/Ti"), { phase: "name", query: "ti" });
  const arg = slashQuery("/theme l");
  strictEqual(arg?.phase, "arg");
  strictEqual(arg?.phase === "arg" && arg.command.name, "theme");
  strictEqual(arg?.phase === "arg" && arg.query, "l");
  strictEqual(slashQuery("/model ")?.phase, "arg", "the argument menu opens after the space");
  strictEqual(slashQuery("/title My"), null, "free text arguments have nothing to suggest");
  strictEqual(slashQuery("/nope x"), null);
  strictEqual(slashQuery("hello /"), null);
  strictEqual(slashQuery("/clear\nmore"), null, "a multi-line draft is a message");
  strictEqual(slashQuery("/use skill and the task"), null, "past the argument the menu closes");
  strictEqual(slashQuery("/usr/bin"), null);
});

Deno.test("matchCommands() ranks prefix matches, then aliases, then substrings", () => {
  assertEquals(names(matchCommands("")), names([...SLASH_COMMANDS]), "empty lists all in order");
  assertEquals(names(matchCommands("u")), [
    "undo",
    "use",
    "usage",
    "queue",
    "interrupt",
    "background",
  ]);
  assertEquals(names(matchCommands("re")), [
    "retry",
    "reasoning",
    "reload-mcp",
    "title",
    "compress",
  ]);
  assertEquals(names(matchCommands("cost")), ["usage"], "an alias finds its command");
  assertEquals(names(matchCommands("zzz")), []);
  assertEquals(names(matchCommands("MOD")), ["model"]);
});

Deno.test("matchChoices() puts prefix matches first and keeps the given order", () => {
  const models = ["gpt-5", "gpt-5-mini", "claude-sonnet", "o4-mini", "fake-model"];
  assertEquals(matchChoices("mini", models), ["gpt-5-mini", "o4-mini"]);
  assertEquals(matchChoices("gpt", models), ["gpt-5", "gpt-5-mini"]);
  assertEquals(matchChoices("o", models), ["o4-mini", "claude-sonnet", "fake-model"]);
  assertEquals(matchChoices("", models, 2), ["gpt-5", "gpt-5-mini"]);
  assertEquals(matchChoices("  L ", ["light", "dark"]), ["light"]);
});

Deno.test("commandSignature() and completeCommand() write commands the way they are typed", () => {
  strictEqual(commandSignature(findCommand("title")!), "/title [text]");
  strictEqual(commandSignature(findCommand("clear")!), "/clear");
  strictEqual(completeCommand(findCommand("title")!), "/title ", "room for the argument");
  strictEqual(completeCommand(findCommand("clear")!), "/clear");
});

const key = (k: Partial<KeyLike>): KeyLike => ({
  key: "Enter",
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...k,
});

Deno.test("enterAction() follows the send_key setting; the other combination is a newline", () => {
  strictEqual(enterAction(key({}), "enter"), "send");
  strictEqual(enterAction(key({ shiftKey: true }), "enter"), "newline");
  strictEqual(enterAction(key({ ctrlKey: true }), "enter"), "newline");

  strictEqual(enterAction(key({}), "ctrl+enter"), "newline");
  strictEqual(enterAction(key({ ctrlKey: true }), "ctrl+enter"), "send");
  strictEqual(enterAction(key({ metaKey: true }), "ctrl+enter"), "send", "⌘ counts as Ctrl");
  strictEqual(enterAction(key({ shiftKey: true }), "ctrl+enter"), "newline");

  strictEqual(enterAction(key({}), "shift+enter"), "newline");
  strictEqual(enterAction(key({ shiftKey: true }), "shift+enter"), "send");

  strictEqual(enterAction(key({ key: "a" }), "enter"), null);
  strictEqual(enterAction(key({ isComposing: true }), "enter"), null, "IME composition wins");
  assert(sendKeyHint("ctrl+enter").startsWith("Ctrl+Enter to send"));
  assert(sendKeyHint("ctrl+enter", true).startsWith("⌘+Enter to send"));
});

Deno.test("formatBytes(), formatTokens(), formatCost() and shortPath() label quietly", () => {
  strictEqual(formatBytes(512), "512 B");
  strictEqual(formatBytes(1536), "1.5 KB");
  strictEqual(formatBytes(20 * 1024 * 1024), "20 MB");
  strictEqual(formatTokens(999), "999");
  strictEqual(formatTokens(12_345), "12k");
  strictEqual(formatTokens(1_500), "1.5k");
  strictEqual(formatCost(null), "unknown");
  strictEqual(formatCost(0.001234), "$0.0012");
  strictEqual(formatCost(1.5), "$1.50");
  strictEqual(shortPath("/home/ada/src/app", "/home/ada"), "~/src/app");
  strictEqual(shortPath("/home/ada", "/home/ada/"), "~");
  strictEqual(shortPath("/home/adam/x", "/home/ada"), "/home/adam/x", "a sibling is not home");
});
