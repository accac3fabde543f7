// Browser-safe: imports nothing from Deno or the database.
// Syntax highlighting for fenced code: highlight.js core plus one lazily imported chunk per
// language (esbuild splits each `import()`). Invariants: output depends only on (code,
// language) once that language and the sub-languages it embeds are loaded, so the server
// and the browser produce the same HTML; there is no auto-detection; a language that is
// unknown or not loaded yet yields `null` and the caller shows the code as escaped text.
import type { HLJSApi, LanguageFn } from "highlight.js";

type LanguageModule = Promise<{ default: LanguageFn }>;

/** Every language we highlight, each its own chunk (`import()` needs literal specifiers). */
const LOADERS: Record<string, () => LanguageModule> = {
  apache: () => import("highlight.js/lib/languages/apache"),
  awk: () => import("highlight.js/lib/languages/awk"),
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  clojure: () => import("highlight.js/lib/languages/clojure"),
  cmake: () => import("highlight.js/lib/languages/cmake"),
  coffeescript: () => import("highlight.js/lib/languages/coffeescript"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  crystal: () => import("highlight.js/lib/languages/crystal"),
  csharp: () => import("highlight.js/lib/languages/csharp"),
  css: () => import("highlight.js/lib/languages/css"),
  d: () => import("highlight.js/lib/languages/d"),
  dart: () => import("highlight.js/lib/languages/dart"),
  diff: () => import("highlight.js/lib/languages/diff"),
  dockerfile: () => import("highlight.js/lib/languages/dockerfile"),
  dos: () => import("highlight.js/lib/languages/dos"),
  elixir: () => import("highlight.js/lib/languages/elixir"),
  elm: () => import("highlight.js/lib/languages/elm"),
  erlang: () => import("highlight.js/lib/languages/erlang"),
  fortran: () => import("highlight.js/lib/languages/fortran"),
  fsharp: () => import("highlight.js/lib/languages/fsharp"),
  go: () => import("highlight.js/lib/languages/go"),
  gradle: () => import("highlight.js/lib/languages/gradle"),
  graphql: () => import("highlight.js/lib/languages/graphql"),
  groovy: () => import("highlight.js/lib/languages/groovy"),
  handlebars: () => import("highlight.js/lib/languages/handlebars"),
  haskell: () => import("highlight.js/lib/languages/haskell"),
  http: () => import("highlight.js/lib/languages/http"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  julia: () => import("highlight.js/lib/languages/julia"),
  kotlin: () => import("highlight.js/lib/languages/kotlin"),
  latex: () => import("highlight.js/lib/languages/latex"),
  less: () => import("highlight.js/lib/languages/less"),
  lisp: () => import("highlight.js/lib/languages/lisp"),
  llvm: () => import("highlight.js/lib/languages/llvm"),
  lua: () => import("highlight.js/lib/languages/lua"),
  makefile: () => import("highlight.js/lib/languages/makefile"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  matlab: () => import("highlight.js/lib/languages/matlab"),
  nginx: () => import("highlight.js/lib/languages/nginx"),
  nim: () => import("highlight.js/lib/languages/nim"),
  nix: () => import("highlight.js/lib/languages/nix"),
  objectivec: () => import("highlight.js/lib/languages/objectivec"),
  ocaml: () => import("highlight.js/lib/languages/ocaml"),
  perl: () => import("highlight.js/lib/languages/perl"),
  php: () => import("highlight.js/lib/languages/php"),
  powershell: () => import("highlight.js/lib/languages/powershell"),
  prolog: () => import("highlight.js/lib/languages/prolog"),
  properties: () => import("highlight.js/lib/languages/properties"),
  protobuf: () => import("highlight.js/lib/languages/protobuf"),
  python: () => import("highlight.js/lib/languages/python"),
  "python-repl": () => import("highlight.js/lib/languages/python-repl"),
  r: () => import("highlight.js/lib/languages/r"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  scala: () => import("highlight.js/lib/languages/scala"),
  scheme: () => import("highlight.js/lib/languages/scheme"),
  scss: () => import("highlight.js/lib/languages/scss"),
  shell: () => import("highlight.js/lib/languages/shell"),
  sql: () => import("highlight.js/lib/languages/sql"),
  swift: () => import("highlight.js/lib/languages/swift"),
  tcl: () => import("highlight.js/lib/languages/tcl"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  vbnet: () => import("highlight.js/lib/languages/vbnet"),
  verilog: () => import("highlight.js/lib/languages/verilog"),
  vhdl: () => import("highlight.js/lib/languages/vhdl"),
  vim: () => import("highlight.js/lib/languages/vim"),
  wasm: () => import("highlight.js/lib/languages/wasm"),
  x86asm: () => import("highlight.js/lib/languages/x86asm"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

/**
 * Sub-languages a grammar embeds (`subLanguage`), restricted to LOADERS. Loaded together so
 * the highlighted HTML never depends on what else happened to be loaded before.
 */
export const LANGUAGE_DEPS: Readonly<Record<string, readonly string[]>> = {
  coffeescript: ["javascript"],
  dart: ["markdown"],
  dockerfile: ["bash"],
  handlebars: ["xml"],
  javascript: ["xml", "css", "graphql"],
  markdown: ["xml"],
  nix: ["markdown"],
  "python-repl": ["python"],
  shell: ["bash"],
  typescript: ["xml", "css", "graphql"],
  xml: ["css", "javascript"],
  yaml: ["ruby"],
};

/** Aliases each grammar declares (kept equal to highlight.js's own by a test). */
const DECLARED_ALIASES: Record<string, readonly string[]> = {
  apache: ["apacheconf"],
  bash: ["sh", "zsh"],
  c: ["h"],
  clojure: ["clj", "edn"],
  cmake: ["cmake.in"],
  coffeescript: ["coffee", "cson", "iced"],
  cpp: ["cc", "c++", "h++", "hpp", "hh", "hxx", "cxx"],
  crystal: ["cr"],
  csharp: ["cs", "c#"],
  diff: ["patch"],
  dockerfile: ["docker"],
  dos: ["bat", "batch", "cmd"],
  elixir: ["ex", "exs"],
  erlang: ["erl"],
  fortran: ["f90", "f95"],
  fsharp: ["fs", "f#"],
  go: ["golang"],
  graphql: ["gql"],
  handlebars: ["hbs", "html.hbs", "html.handlebars", "htmlbars"],
  haskell: ["hs"],
  http: ["https"],
  ini: ["toml"],
  java: ["jsp"],
  javascript: ["js", "jsx", "mjs", "cjs"],
  json: ["jsonc", "json5"],
  kotlin: ["kt", "kts", "ktm", "ktx"],
  latex: ["tex"],
  lua: ["pluto"],
  makefile: ["mk", "mak", "make"],
  markdown: ["md", "mkdown", "mkd"],
  nginx: ["nginxconf"],
  nix: ["nixos"],
  objectivec: ["mm", "objc", "obj-c", "obj-c++", "objective-c++"],
  ocaml: ["ml"],
  perl: ["pl", "pm"],
  powershell: ["pwsh", "ps", "ps1"],
  protobuf: ["proto"],
  python: ["py", "gyp", "ipython"],
  "python-repl": ["pycon"],
  ruby: ["rb", "gemspec", "podspec", "thor", "irb"],
  rust: ["rs"],
  scheme: ["scm"],
  shell: ["console", "shellsession"],
  tcl: ["tk"],
  typescript: ["ts", "tsx", "mts", "cts"],
  vbnet: ["vb"],
  verilog: ["v", "sv", "svh"],
  xml: ["html", "xhtml", "rss", "atom", "xjb", "xsd", "xsl", "plist", "wsf", "svg"],
  yaml: ["yml"],
};

/**
 * What models write that the grammars do not declare. `shell` means "commands" in model
 * output, not highlight.js's prompt-and-output session grammar (still reachable as
 * `console`).
 */
const EXTRA_ALIASES: Record<string, string> = {
  shell: "bash",
  terminal: "shell",
  fish: "bash",
  ksh: "bash",
  env: "bash",
  dotenv: "properties",
  python3: "python",
  py3: "python",
  node: "javascript",
  javascriptreact: "javascript",
  typescriptreact: "typescript",
  vue: "xml",
  svelte: "xml",
  jsonl: "json",
  ndjson: "json",
  geojson: "json",
  cfg: "ini",
  conf: "ini",
  editorconfig: "ini",
  gitconfig: "ini",
  sass: "scss",
  postgres: "sql",
  postgresql: "sql",
  mysql: "sql",
  sqlite: "sql",
  psql: "sql",
  "objective-c": "objectivec",
  asm: "x86asm",
  nasm: "x86asm",
  wat: "wasm",
  jl: "julia",
  kotlinscript: "kotlin",
  rscript: "r",
  containerfile: "dockerfile",
  cplusplus: "cpp",
  elisp: "lisp",
  "emacs-lisp": "lisp",
  common_lisp: "lisp",
  racket: "scheme",
};

/** Info strings shown as plain text on purpose (no grammar, nothing to load). */
const PLAIN = new Set(["text", "txt", "plain", "plaintext", "output", "log", "none", "raw"]);

const ALIASES = new Map<string, string>();
for (const name of Object.keys(LOADERS)) ALIASES.set(name, name);
for (const [name, aliases] of Object.entries(DECLARED_ALIASES)) {
  for (const a of aliases) ALIASES.set(a, name);
}
for (const [alias, name] of Object.entries(EXTRA_ALIASES)) ALIASES.set(alias, name);

/** The canonical language names we can highlight (one chunk each). */
export const LANGUAGES: readonly string[] = Object.keys(LOADERS);

/** The aliases each grammar declares, for the test that keeps them in step with highlight.js. */
export const DECLARED_LANGUAGE_ALIASES: Readonly<Record<string, readonly string[]>> =
  DECLARED_ALIASES;

/**
 * The grammar for a fence's language label (`ts`, `Python`, `c++`), or `null` when we have
 * none (unknown labels and `text` stay plain).
 */
export function resolveLanguage(label: string): string | null {
  const key = label.trim().toLowerCase();
  if (!key || PLAIN.has(key)) return null;
  return ALIASES.get(key) ?? null;
}

/** `lang` and every grammar it embeds, transitively. */
function closure(lang: string): string[] {
  const out: string[] = [];
  const visit = (l: string) => {
    if (out.includes(l) || !LOADERS[l]) return;
    out.push(l);
    for (const d of LANGUAGE_DEPS[l] ?? []) visit(d);
  };
  visit(lang);
  return out;
}

let core: HLJSApi | undefined;
let corePromise: Promise<HLJSApi> | undefined;
const registered = new Set<string>();
const loading = new Map<string, Promise<void>>();

function loadCore(): Promise<HLJSApi> {
  corePromise ??= import("highlight.js/lib/core").then((m) => {
    core = m.default;
    return core;
  });
  return corePromise;
}

/** True once `lang` (a canonical name) and everything it embeds can be highlighted. */
export function languageReady(lang: string): boolean {
  return core !== undefined && closure(lang).every((l) => registered.has(l));
}

/**
 * Load highlight.js core and `lang` with its embedded grammars (one chunk each, fetched in
 * parallel, each at most once). Unknown names resolve without loading anything.
 */
export function loadLanguage(lang: string): Promise<void> {
  return Promise.all(
    closure(lang).map((l) => {
      let p = loading.get(l);
      if (!p) {
        p = Promise.all([loadCore(), LOADERS[l]()]).then(([hljs, mod]) => {
          hljs.registerLanguage(l, mod.default);
          registered.add(l);
        });
        // A failed chunk (offline, deploy in progress) may be retried by a later render.
        p.catch(() => loading.delete(l));
        loading.set(l, p);
      }
      return p;
    }),
  ).then(() => undefined);
}

/** Every grammar: for the server, which renders history without knowing it in advance. */
export function loadAllLanguages(): Promise<void> {
  return Promise.all(LANGUAGES.map(loadLanguage)).then(() => undefined);
}

/**
 * Highlighted HTML for `code` in canonical language `lang` (spans with `hljs-*` classes,
 * text escaped by highlight.js), or `null` when the grammar is not loaded yet.
 */
export function highlightCode(code: string, lang: string): string | null {
  if (!core || !languageReady(lang)) return null;
  return core.highlight(code, { language: lang, ignoreIllegals: true }).value;
}
