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
  handle.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const right = panel.getBoundingClientRect().right;
    app.dataset.resizing = "true";
    let w = current();
    const move = (ev: PointerEvent) => {
      w = clamp(right - ev.clientX);
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
    const delta = e.key === "ArrowLeft" ? STEP : e.key === "ArrowRight" ? -STEP : 0;
    if (!delta) return;
    e.preventDefault();
    const w = clamp(current() + delta);
    apply(app, handle, w);
    remember(w);
  });
}
