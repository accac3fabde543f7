// GET /api/media never shows an active document inline: HTML, SVG and XML can run script or
// render a page of their own, so they are sent as `Content-Disposition: attachment` (as the
// original serves HTML), with `X-Content-Type-Options: nosniff` and the sandbox CSP. Images,
// audio and video stay inline.
import { match, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** Active documents: each a download, never inline. */
const ACTIVE: Record<string, string> = {
  "page.html": "<script>alert(document.cookie)</script>",
  "page.htm": "<script>alert(1)</script>",
  "PAGE.HTML": "<script>alert(1)</script>",
  "drawing.svg": "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
  "feed.xml": "<?xml version='1.0'?><x:script xmlns:x='http://www.w3.org/1999/xhtml'/>",
  "doc.xhtml": "<html xmlns='http://www.w3.org/1999/xhtml'><script>alert(1)</script></html>",
};

/** Passive media: shown in place. */
const PASSIVE: Record<string, Uint8Array> = {
  "pic.png": PNG,
  "song.mp3": new Uint8Array(64),
  "clip.mp4": new Uint8Array(64),
  "clip.webm": new Uint8Array(64),
};

Deno.test("GET /api/media sends HTML, SVG and XML as attachments with nosniff", async () => {
  const app = await createTestApp();
  try {
    for (const [name, text] of Object.entries(ACTIVE)) {
      await Deno.writeTextFile(join(app.workspace, name), text);
    }
    const created = await app.call<{ session: { session_id: string } }>(
      "POST",
      "/api/session/new",
      {},
    );
    const sid = created.body.session.session_id;
    for (const name of Object.keys(ACTIVE)) {
      for (const query of [`path=${name}`, `path=${name}&session_id=${sid}`]) {
        for (const method of ["GET", "HEAD"]) {
          const res = await app.request(method, `/api/media?${query}`);
          await res.body?.cancel();
          const label = `${method} ${query}`;
          strictEqual(res.status, 200, label);
          match(res.headers.get("content-disposition") ?? "", /^attachment;/, label);
          strictEqual(res.headers.get("x-content-type-options"), "nosniff", label);
          match(res.headers.get("content-security-policy") ?? "", /^sandbox/, label);
        }
      }
    }
    // The bytes are the file's own (a download, not a rewrite).
    const html = await app.request("GET", "/api/media?path=page.html");
    strictEqual(await html.text(), ACTIVE["page.html"]);
  } finally {
    await app.close();
  }
});

Deno.test("GET /api/media keeps images, audio and video inline", async () => {
  const app = await createTestApp();
  try {
    for (const [name, bytes] of Object.entries(PASSIVE)) {
      await Deno.writeFile(join(app.workspace, name), bytes);
    }
    for (const name of Object.keys(PASSIVE)) {
      const res = await app.request("GET", `/api/media?path=${name}`);
      await res.body?.cancel();
      strictEqual(res.status, 200, name);
      match(res.headers.get("content-disposition") ?? "", /^inline;/, name);
      strictEqual(res.headers.get("x-content-type-options"), "nosniff", name);
    }
  } finally {
    await app.close();
  }
});
