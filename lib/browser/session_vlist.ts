// Browser-safe: imports nothing from Deno or the database.
// The sidebar's virtual list: every loaded row is kept (detached) in memory, only the rows in
// view (plus a margin) are in the DOM, and the next page is fetched from the server as the user
// nears the end. Invariants: rows and headers are server-rendered markup (this file never
// builds a row from data); every item is one row tall, so positions are index × height; a
// group header is shown exactly where a row's server-assigned group (`data-g`) differs from
// the row before it, so merging pages never splits or repeats one.

/** Rows kept in the DOM above and below the visible ones. */
const OVERSCAN = 10;
/** Fetch the next page when fewer than this many loaded rows remain below the view. */
const PREFETCH_ROWS = 40;

type Item = { kind: "header"; key: string } | { kind: "row"; el: HTMLElement };

/** Fetches the HTML of the page after `cursor` (GET /partials/sidebar?…&cursor=). */
export type PageFetcher = (cursor: string) => Promise<string>;

/** (pinned, updated_at, session_id) of a row, for ordering merged pages. */
function rowKey(el: HTMLElement): [number, number, string] {
  return [
    el.dataset.pinned === "true" ? 1 : 0,
    Number(el.dataset.updated ?? 0),
    el.dataset.sessionId ?? "",
  ];
}

/** a comes after b in the list (pinned first, then newest, then the larger id). */
function after(a: [number, number, string], b: [number, number, string]): boolean {
  if (a[0] !== b[0]) return a[0] < b[0];
  if (a[1] !== b[1]) return a[1] < b[1];
  return a[2] < b[2];
}

export class SessionVList {
  rows: HTMLElement[] = [];
  labels = new Map<string, string>();
  nextCursor: string | null;
  count: number;
  #items: Item[] = [];
  #rowHeight = 32;
  #window: HTMLElement;
  #range = [-1, -1];
  #loading = false;
  #frame = 0;
  #onScroll = () => this.schedule();
  #resize: ResizeObserver | null = null;

  constructor(
    readonly root: HTMLElement,
    readonly scroller: HTMLElement,
    readonly fetchPage: PageFetcher,
  ) {
    this.nextCursor = root.dataset.nextCursor || null;
    this.count = Number(root.dataset.count ?? 0);
    this.#take(root);
    const first = this.rows[0];
    if (first?.offsetHeight) this.#rowHeight = first.offsetHeight;
    root.style.setProperty("--vrow", `${this.#rowHeight}px`);
    this.#window = document.createElement("div");
    this.#window.className = "session-vwindow";
    root.replaceChildren(this.#window);
    root.dataset.virtual = "true";
    this.#rebuild();
    scroller.addEventListener("scroll", this.#onScroll, { passive: true });
    if (typeof ResizeObserver !== "undefined") {
      this.#resize = new ResizeObserver(() => this.schedule());
      this.#resize.observe(scroller);
    }
    this.render();
  }

  /** Stop listening (the body was replaced). */
  destroy(): void {
    this.scroller.removeEventListener("scroll", this.#onScroll);
    this.#resize?.disconnect();
    cancelAnimationFrame(this.#frame);
  }

  /** Move the rows and header labels of server markup into this list's memory. */
  #take(container: ParentNode): HTMLElement[] {
    for (const h of container.querySelectorAll<HTMLElement>("[data-group]")) {
      const label = h.querySelector(".session-group-label")?.textContent;
      if (label && h.dataset.group) this.labels.set(h.dataset.group, label);
    }
    const rows = [...container.querySelectorAll<HTMLElement>(".session-row")];
    for (const r of rows) r.remove();
    this.rows.push(...rows);
    return rows;
  }

  #rebuild(): void {
    const items: Item[] = [];
    let prev: string | null = null;
    for (const el of this.rows) {
      const g = el.dataset.g ?? "";
      if (g !== prev) items.push({ kind: "header", key: g });
      prev = g;
      items.push({ kind: "row", el });
    }
    this.#items = items;
    this.#range = [-1, -1];
  }

  schedule(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = requestAnimationFrame(() => this.render());
  }

  /** Put the rows in view (and a margin) into the DOM; fetch more when near the end. */
  render(): void {
    const h = this.#rowHeight;
    const unloaded = Math.max(0, this.count - this.rows.length);
    const total = this.#items.length + (this.nextCursor ? unloaded : 0);
    this.root.style.height = `${total * h}px`;
    // Where the list starts inside the scroller (chips and the archive head sit above it).
    const listTop = this.root.getBoundingClientRect().top -
      this.scroller.getBoundingClientRect().top + this.scroller.scrollTop;
    const top = this.scroller.scrollTop - listTop;
    const view = this.scroller.clientHeight || 600;
    const start = Math.max(0, Math.floor(top / h) - OVERSCAN);
    const end = Math.min(this.#items.length, Math.ceil((top + view) / h) + OVERSCAN);
    if (end + PREFETCH_ROWS > this.#items.length) void this.loadMore();
    if (start === this.#range[0] && end === this.#range[1]) return;
    this.#range = [start, end];
    const focusedRow = (document.activeElement as HTMLElement | null)?.closest?.(".session-row");
    const sections: HTMLElement[] = [];
    let ul: HTMLElement | null = null;
    let group: string | null = null;
    for (let i = start; i < end; i++) {
      const item = this.#items[i];
      if (item.kind === "header" || ul === null) {
        const key = item.kind === "header" ? item.key : item.el.dataset.g ?? "";
        const section = document.createElement("section");
        section.className = "session-group";
        section.dataset.group = key;
        if (item.kind === "header") {
          const h2 = document.createElement("h2");
          h2.className = "session-group-label";
          h2.textContent = this.labels.get(key) ?? key;
          section.append(h2);
        }
        ul = document.createElement("ul");
        section.append(ul);
        sections.push(section);
        group = key;
      }
      if (item.kind === "row") {
        if ((item.el.dataset.g ?? "") !== group) continue; // never happens: headers split runs
        ul.append(item.el);
      }
    }
    this.#window.style.transform = `translateY(${start * h}px)`;
    this.#window.replaceChildren(...sections);
    if (focusedRow && focusedRow.isConnected) {
      (focusedRow.querySelector(".session-item") as HTMLElement | null)?.focus({
        preventScroll: true,
      });
    }
  }

  /** Fetch and append the next page (one at a time). */
  async loadMore(): Promise<void> {
    if (this.#loading || !this.nextCursor) return;
    this.#loading = true;
    const cursor = this.nextCursor;
    try {
      const html = await this.fetchPage(cursor);
      if (this.nextCursor !== cursor) return; // replaced meanwhile
      // Server-rendered (every value escaped by the renderer); DOMParser runs no scripts.
      const doc = new DOMParser().parseFromString(html, "text/html");
      const page = doc.querySelector<HTMLElement>("[data-sidebar-page]");
      if (!page) return;
      const fresh = new Set(this.#take(document.importNode(page, true)));
      // A session that moved down past the cursor meanwhile shows once, at its new place.
      const freshIds = new Set([...fresh].map((r) => r.dataset.sessionId));
      this.rows = this.rows.filter((r) => fresh.has(r) || !freshIds.has(r.dataset.sessionId));
      this.nextCursor = page.dataset.nextCursor || null;
      this.count = Number(page.dataset.count ?? this.count);
      this.#rebuild();
    } finally {
      this.#loading = false;
    }
    this.render();
  }

  /**
   * Carry the rows loaded beyond the fresh first page over from `old` (the user had scrolled
   * past it): rows the fresh page now holds, or that `drop` names, leave their old place.
   */
  mergeFrom(old: SessionVList, drop: Set<string>): void {
    const last = this.rows.at(-1);
    if (!last || !this.nextCursor || old.rows.length <= this.rows.length) return;
    const have = new Set(this.rows.map((r) => r.dataset.sessionId));
    const lastKey = rowKey(last);
    const tail = old.rows.filter((r) =>
      !have.has(r.dataset.sessionId) && !drop.has(r.dataset.sessionId ?? "") &&
      after(rowKey(r), lastKey)
    );
    if (tail.length === 0) return;
    for (const [k, v] of old.labels) if (!this.labels.has(k)) this.labels.set(k, v);
    this.rows.push(...tail);
    this.nextCursor = old.nextCursor;
    this.#rebuild();
    this.render();
  }
}
