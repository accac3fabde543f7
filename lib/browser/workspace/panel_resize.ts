// Browser-safe: imports nothing from Deno or the database.
// The workspace panel's drag handle: pointer drag or arrow keys set its width, remembered in the
// `hermes_panel_width` cookie that the server reads for the first paint (components/
// WorkspacePanel.tsx), so a reload paints the panel as wide as it was left.
const COOKIE = "hermes_panel_width";
const MIN = 260;
const MAX = 1200;
const STEP = 24;

const clamp = (w: number) =>
  Math.round(Math.min(Math.min(MAX, innerWidth - 360), Math.max(MIN, w)));

function apply(app: HTMLElement, handle: HTMLElement, w: number): void {
  app.style.setProperty("--panel-width", `${w}px`);
  app.style.setProperty("--panel-width-preview", `${w}px`);
  handle.setAttribute("aria-valuenow", String(w));
}

function remember(w: number): void {
  document.cookie = `${COOKIE}=${w}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** Wire the handle inside `panel` (once). */
export function wireResize(panel: HTMLElement): void {
  const handle = panel.querySelector<HTMLElement>("[data-panel-resize]");
  const app = document.querySelector<HTMLElement>(".app");
  if (!handle || !app) return;
  const current = () => panel.getBoundingClientRect().width;
  // The separator's value is the panel's measured width (the server can only guess it).
  const sync = () => {
    const w = Math.round(current());
    if (w > 0) handle.setAttribute("aria-valuenow", String(w));
  };
  sync();
  handle.addEventListener("focus", sync);
  handle.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    // The panel sits at the inline end: the right edge in LTR, the left one in RTL (Arabic).
    const rtl = document.documentElement.dir === "rtl";
    const box = panel.getBoundingClientRect();
    app.dataset.resizing = "true";
    let w = current();
    const move = (ev: PointerEvent) => {
      w = clamp(rtl ? ev.clientX - box.left : box.right - ev.clientX);
      apply(app, handle, w);
    };
    const up = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      handle.removeEventListener("pointercancel", up);
      delete app.dataset.resizing;
      remember(w);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
    handle.addEventListener("pointercancel", up);
  });
  handle.addEventListener("keydown", (e) => {
    // Toward the page's middle widens the panel: left in LTR, right in RTL.
    const widen = document.documentElement.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
    const narrow = widen === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
    const delta = e.key === widen ? STEP : e.key === narrow ? -STEP : 0;
    if (!delta) return;
    e.preventDefault();
    const w = clamp(current() + delta);
    apply(app, handle, w);
    remember(w);
  });
}
