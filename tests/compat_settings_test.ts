// The original's settings contract: GET returns its keys with defaults (bot_name,
// sidebar_density, pinned_sessions_limit, speech preferences, password_env_var, appearance),
// POST ignores what it does not know and says so, the pin endpoint honours the limit, the
// default model moves through POST /api/default-model, and the login page wears the bot name
// in the browser's language.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";

async function withApp(
  fn: (app: TestApp) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
): Promise<void> {
  const app = await createTestApp(opts);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

type Settings = Record<string, unknown> & { ignored?: string[] };
const get = async (app: TestApp) => (await app.call<Settings>("GET", "/api/settings")).body;
const post = (app: TestApp, body: unknown) => app.call<Settings>("POST", "/api/settings", body);

Deno.test("GET /api/settings returns the original's keys with their defaults", async () => {
  await withApp(async (app) => {
    const s = await get(app);
    strictEqual(s.bot_name, "Hermes");
    strictEqual(s.sidebar_density, "compact");
    strictEqual(s.pinned_sessions_limit, 3);
    strictEqual(s.tts_enabled, false);
    strictEqual(s.tts_engine, "browser");
    strictEqual(s.tts_rate, 1);
    strictEqual(s.voice_silence_ms, 1800);
    deepStrictEqual(s.persisted_speech_keys, []);
    strictEqual(s.password_env_var, false);
    strictEqual(s.skin, "default");
    strictEqual(s.font_size, "default");
    strictEqual(s.theme, "system");
    deepStrictEqual(s.hidden_tabs, []);
    ok(!("password_hash" in s));
  });
});

Deno.test("GET /api/settings password_env_var is true when the password comes from the environment", async () => {
  await withApp(async (app) => {
    const login = await app.request("POST", "/api/auth/login", { password: "env password 123" });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const s = (await app.call<Settings>("GET", "/api/settings", undefined, { cookie })).body;
    strictEqual(s.password_env_var, true);
  }, { env: { HERMES_WEBUI_PASSWORD: "env password 123" } });
});

Deno.test("POST /api/settings stores known keys, ignores unknown keys and invalid values, and names them", async () => {
  await withApp(async (app) => {
    const res = await post(app, {
      send_key: "x",
      made_up_key: 1,
      pinned_sessions_limit: 500,
      bot_name: "Athena",
      tts_enabled: true,
      voice_silence_ms: 900,
      hide_composer_mic: true,
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    deepStrictEqual([...res.body.ignored!].sort(), [
      "made_up_key",
      "pinned_sessions_limit",
      "send_key",
    ]);
    const s = await get(app);
    strictEqual(s.send_key, "enter", "the invalid value was not stored");
    ok(!("made_up_key" in s), "the unknown key was not stored");
    strictEqual(s.pinned_sessions_limit, 3);
    strictEqual(s.bot_name, "Athena");
    strictEqual(s.hide_composer_mic, true, "a key with no feature yet is stored and returned");
    deepStrictEqual(s.persisted_speech_keys, ["tts_enabled", "voice_silence_ms"]);
    // Like the original, an integer may come as a numeric string.
    strictEqual((await post(app, { pinned_sessions_limit: "7" })).body.pinned_sessions_limit, 7);
  });
});

Deno.test("POST /api/settings: malformed JSON or a non-object body is still a 400", async () => {
  await withApp(async (app) => {
    for (const body of ["{theme:", "[1,2]", '"text"', "null"]) {
      const res = await app.call("POST", "/api/settings", body, {
        "content-type": "application/json",
      });
      strictEqual(res.status, 400, body);
    }
  });
});

Deno.test("bot_name: empty or whitespace means Hermes", async () => {
  await withApp(async (app) => {
    strictEqual((await post(app, { bot_name: "Athena" })).body.bot_name, "Athena");
    strictEqual((await post(app, { bot_name: "   " })).body.bot_name, "Hermes");
    strictEqual((await post(app, { bot_name: "" })).body.bot_name, "Hermes");
  });
});

Deno.test("POST /api/settings with an appearance-only payload changes only those keys", async () => {
  await withApp(async (app) => {
    await post(app, { send_key: "ctrl+enter", bot_name: "Athena", show_thinking: false });
    const before = await get(app);
    const res = await post(app, {
      theme: "dark",
      skin: "slate",
      font_size: "large",
      sidebar_density: "detailed",
    });
    strictEqual(res.status, 200);
    const after = await get(app);
    const changed = Object.keys(after).filter((k) =>
      JSON.stringify(after[k]) !== JSON.stringify(before[k])
    ).sort();
    deepStrictEqual(changed, ["font_size", "sidebar_density", "skin", "theme"]);
    strictEqual(after.sidebar_density, "detailed");
    strictEqual((await post(app, { sidebar_density: "roomy" })).body.sidebar_density, "detailed");
  });
});

Deno.test("POST /api/session/pin honours pinned_sessions_limit instead of a fixed 3", async () => {
  await withApp(async (app) => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await app.call<{ session: { session_id: string } }>(
        "POST",
        "/api/session/import",
        { title: `pin ${i}`, messages: [{ role: "user", content: "keep" }] },
      );
      ids.push(r.body.session.session_id);
    }
    await post(app, { pinned_sessions_limit: 4 });
    for (const id of ids.slice(0, 4)) {
      const r = await app.call("POST", "/api/session/pin", { session_id: id, pinned: true });
      strictEqual(r.status, 200, JSON.stringify(r.body));
    }
    const fifth = await app.call<{ error: string }>("POST", "/api/session/pin", {
      session_id: ids[4],
      pinned: true,
    });
    strictEqual(fifth.status, 400);
    match(fifth.body.error, /Up to 4 sessions/);
  });
});

Deno.test("default_model is not a setting: POST /api/default-model writes the config, keeping comments", async () => {
  await withApp(async (app) => {
    const ignored = await post(app, { default_model: "gpt-4.1" });
    deepStrictEqual(ignored.body.ignored, ["default_model"]);
    strictEqual(ignored.body.default_model, "gpt-4o");
    strictEqual((await app.call("POST", "/api/default-model", { model: "" })).status, 400);
    strictEqual((await app.call("POST", "/api/default-model", {})).status, 400);
    const res = await app.call<{ ok: boolean; default_model: string }>(
      "POST",
      "/api/default-model",
      { model: "gpt-4.1" },
    );
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual(res.body.default_model, "gpt-4.1");
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    match(text, /# my config/);
    match(text, /default: gpt-4\.1 # favourite/);
    strictEqual((await get(app)).default_model, "gpt-4.1");
  }, { configYaml: "# my config\nmodel:\n  default: gpt-4o # favourite\n" });
});

Deno.test("setting the first password through settings answers with the session cookie", async () => {
  await withApp(async (app) => {
    const res = await app.request("POST", "/api/settings", { password: "a fine password" });
    strictEqual(res.status, 200);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    match(cookie, /^hermes_session=./);
    strictEqual((await app.call("GET", "/api/settings")).status, 401, "auth is on now");
    strictEqual((await app.call("GET", "/api/settings", undefined, { cookie })).status, 200);
  });
});

Deno.test("/login follows the language setting with the original's lang tags, words and script", async () => {
  await withApp(async (app) => {
    const cookie = (await app.request("POST", "/api/auth/login", { password: "env password 123" }))
      .headers.get("set-cookie")!.split(";")[0];
    // The original's test_login_locale.py: the setting, then the page.
    const cases: Array<[string, string, string[]]> = [
      ["zh-CN", "zh-CN", ["\u767b\u5f55", "\u8f93\u5165\u5bc6\u7801\u7ee7\u7eed\u4f7f\u7528"]],
      ["zh-Hant", "zh-TW", [
        "\u8f38\u5165\u5bc6\u78bc\u7e7c\u7e8c\u4f7f\u7528",
        "\u5bc6\u78bc\u932f\u8aa4",
      ]],
      ["ru", "ru-RU", ["Войти", "Введите пароль, чтобы продолжить", "Неверный пароль"]],
    ];
    for (const [language, tag, words] of cases) {
      const saved = await app.call<{ language: string }>("POST", "/api/settings", { language }, {
        cookie,
      });
      strictEqual(saved.body.language, language);
      const res = await app.request("GET", "/login");
      strictEqual(res.status, 200);
      strictEqual(res.headers.get("content-language"), tag);
      const html = await res.text();
      ok(html.includes(`lang="${tag}"`), `${language}: ${html.slice(0, 120)}`);
      for (const word of words) ok(html.includes(word), `${language}: ${word}`);
      ok(html.includes('<script src="/static/login.js"></script>'), "the login script");
      match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    }
  }, { env: { HERMES_WEBUI_PASSWORD: "env password 123" } });
});

Deno.test("/login shows the bot name (escaped) in its title and heading, in the browser's language", async () => {
  await withApp(async (app) => {
    const cookie = (await app.request("POST", "/api/auth/login", { password: "env password 123" }))
      .headers.get("set-cookie")!.split(";")[0];
    await app.call("POST", "/api/settings", { bot_name: "<Athena & co>" }, { cookie });
    const en = await (await app.request("GET", "/login")).text();
    // The original's title: the bot name first.
    match(en, /<title>&lt;Athena &amp; co(&gt;|>) — Sign in<\/title>/);
    match(en, /<h1 class="login-title">&lt;Athena &amp; co(&gt;|>)<\/h1>/);
    match(en, />Sign in</);
    ok(!en.includes("<Athena"), "the name is never markup");
    match(en, /<html lang="en"/);
    const cases: Array<[string, string, RegExp]> = [
      // `lang` is the original's region tag for the locale.
      ["zh-CN,zh;q=0.9", "zh-CN", /登录/],
      ["zh-Hant", "zh-TW", /登入/],
      ["zh-TW,en;q=0.5", "zh-TW", /登入/],
      ["ru-RU,ru;q=0.9,en;q=0.8", "ru-RU", /Войти/],
      ["fr-FR,en;q=0.5", "fr-FR", /Se connecter/],
      ["ko-KR,ko;q=0.9", "ko-KR", /로그인/],
      // A language the console does not speak falls back to English.
      ["th-TH,th;q=0.9", "en", /Sign in/],
      ["ar-EG", "ar", /تسجيل الدخول/],
    ];
    for (const [header, lang, word] of cases) {
      const res = await app.request("GET", "/login", undefined, { "accept-language": header });
      strictEqual(res.status, 200);
      const html = await res.text();
      match(html, new RegExp(`<html lang="${lang}"`), header);
      match(html, word, header);
    }
  }, { env: { HERMES_WEBUI_PASSWORD: "env password 123" } });
});
