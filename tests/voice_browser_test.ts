// The voice modules' pure parts, without a DOM: where dictated words go in the draft
// (insertDictation), how a long answer is cut for speaking (speechPieces), the recognizer's
// language for a locale, and the voice preferences read from a settings answer.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { insertDictation, recognitionLang } from "../lib/browser/voice/dictation.ts";
import { speechPieces } from "../lib/browser/voice/read_aloud.ts";
import { voicePrefsFrom } from "../lib/browser/voice/voice_prefs.ts";

Deno.test("insertDictation() puts the words at the caret, spaced from the words around them", () => {
  deepStrictEqual(insertDictation("", 0, 0, "hello"), { text: "hello", caret: 5 });
  deepStrictEqual(insertDictation("Start end", 5, 5, "middle"), {
    text: "Start middle end",
    caret: 12,
  });
  deepStrictEqual(insertDictation("Start", 5, 5, "more"), { text: "Start more", caret: 10 });
  deepStrictEqual(insertDictation("ab", 1, 1, "X"), { text: "a X b", caret: 4 });
  // A selection is replaced; spaces already there are not doubled.
  deepStrictEqual(insertDictation("keep OLD keep", 5, 8, "new"), {
    text: "keep new keep",
    caret: 8,
  });
  // Out-of-range offsets are clamped (the textarea changed meanwhile).
  deepStrictEqual(insertDictation("abc", 10, 20, "d"), { text: "abc d", caret: 5 });
});

Deno.test("speechPieces() cuts at sentence ends, else at spaces, never over the limit", () => {
  strictEqual(speechPieces("", 100).length, 0);
  deepStrictEqual(speechPieces("Short.", 100), ["Short."]);
  const text = "One sentence here. Another one follows it. And a third, rather longer, sentence.";
  const pieces = speechPieces(text, 45);
  ok(pieces.every((p) => p.length <= 45), JSON.stringify(pieces));
  deepStrictEqual(pieces, [
    "One sentence here. Another one follows it.",
    "And a third, rather longer, sentence.",
  ]);
  const words = speechPieces("word ".repeat(100).trim(), 30);
  ok(words.every((p) => p.length <= 30 && !p.startsWith(" ") && !p.endsWith(" ")));
  strictEqual(words.join(" "), "word ".repeat(100).trim(), "nothing lost");
  const unbroken = speechPieces("x".repeat(70), 30);
  deepStrictEqual(unbroken.map((p) => p.length), [30, 30, 10]);
  deepStrictEqual(speechPieces("第一句。第二句。第三句。", 5), [
    "第一句。",
    "第二句。",
    "第三句。",
  ]);
});

Deno.test("recognitionLang() and voicePrefsFrom()", () => {
  strictEqual(recognitionLang("zh-Hans"), "zh-CN");
  strictEqual(recognitionLang("zh-Hant"), "zh-TW");
  strictEqual(recognitionLang("de"), "de");
  deepStrictEqual(voicePrefsFrom({}), {
    engine: "browser",
    voice: "",
    rate: 1,
    pitch: 1,
    autoRead: false,
    continuous: false,
    silenceMs: 1800,
  });
  const p = voicePrefsFrom({
    tts_engine: "agent",
    tts_voice: "Samantha",
    tts_rate: 1.5,
    tts_auto_read: true,
    voice_continuous: true,
    voice_silence_ms: 900,
  });
  strictEqual(p.engine, "agent");
  strictEqual(p.voice, "Samantha");
  strictEqual(p.rate, 1.5);
  strictEqual(p.silenceMs, 900);
  strictEqual(
    voicePrefsFrom({ tts_engine: "edge" }).engine,
    "browser",
    "legacy engines read in the page",
  );
});
