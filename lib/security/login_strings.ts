// The login page's few strings in the languages its visitors ask for (Accept-Language): a tiny
// catalog until the console has a real i18n system. Invariants: every language has every key;
// unknown or missing preferences fall back to English; the bot name is data, never markup.

export type LoginLang = "en" | "zh-CN" | "zh-Hant" | "ru";

export interface LoginStrings {
  signIn: string;
  hint: string;
  password: string;
  invalid: string;
  rate: string;
  authOff: string;
  openConsole: string;
  /** The passkey button (shown when passkeys are registered). */
  passkey: string;
  /** The OpenID Connect button; `{provider}` is replaced by the provider's name. */
  withProvider: string;
}

const CATALOG: Record<LoginLang, LoginStrings> = {
  en: {
    signIn: "Sign in",
    hint: "This console is protected. Enter its password to continue.",
    password: "Password",
    invalid: "That password is not right. Try again.",
    rate: "Too many failed attempts. Wait a minute, then try again.",
    authOff: "Sign-in is off: no password is set, so anyone who can reach this console can use it.",
    openConsole: "Open the console",
    passkey: "Sign in with a passkey",
    withProvider: "Sign in with {provider}",
  },
  "zh-CN": {
    signIn: "登录",
    hint: "此控制台受密码保护。请输入密码以继续。",
    password: "密码",
    invalid: "密码不正确，请重试。",
    rate: "失败次数过多。请稍等一分钟后再试。",
    authOff: "未启用登录：尚未设置密码，任何能访问此控制台的人都可以使用它。",
    openConsole: "打开控制台",
    passkey: "使用通行密钥登录",
    withProvider: "使用 {provider} 登录",
  },
  "zh-Hant": {
    signIn: "登入",
    hint: "此控制台受密碼保護。請輸入密碼以繼續。",
    password: "密碼",
    invalid: "密碼不正確，請再試一次。",
    rate: "失敗次數過多。請稍候一分鐘再試。",
    authOff: "未啟用登入：尚未設定密碼，任何能連線到此控制台的人都可以使用它。",
    openConsole: "開啟控制台",
    passkey: "使用密碼金鑰登入",
    withProvider: "使用 {provider} 登入",
  },
  ru: {
    signIn: "Вход",
    hint: "Эта консоль защищена. Введите пароль, чтобы продолжить.",
    password: "Пароль",
    invalid: "Неверный пароль. Попробуйте ещё раз.",
    rate: "Слишком много неудачных попыток. Подождите минуту и попробуйте снова.",
    authOff:
      "Вход отключён: пароль не задан, поэтому консолью может пользоваться любой, кто до неё доберётся.",
    openConsole: "Открыть консоль",
    passkey: "Войти с ключом доступа",
    withProvider: "Войти через {provider}",
  },
};

function langOf(tag: string): LoginLang | null {
  const t = tag.trim().toLowerCase();
  if (t === "ru" || t.startsWith("ru-")) return "ru";
  if (t === "zh-hant" || t.startsWith("zh-hant-") || /^zh-(tw|hk|mo)\b/.test(t)) return "zh-Hant";
  if (t === "zh" || t.startsWith("zh-")) return "zh-CN";
  if (t === "en" || t.startsWith("en-")) return "en";
  return null;
}

/** The best catalog language for an Accept-Language header (q-values honoured). */
export function pickLoginLang(header: string | null): LoginLang {
  if (!header) return "en";
  const ranked = header.slice(0, 512).split(",").map((part, i) => {
    const [tag, ...params] = part.split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    return { tag, weight: Number.isFinite(weight) ? weight : 0, i };
  }).filter((r) => r.weight > 0).sort((a, b) => b.weight - a.weight || a.i - b.i);
  for (const r of ranked) {
    const lang = langOf(r.tag);
    if (lang) return lang;
  }
  return "en";
}

export function loginStrings(lang: LoginLang): LoginStrings {
  return CATALOG[lang];
}
