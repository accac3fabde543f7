// Every answer carries a Permissions-Policy that lets this origin use the microphone (voice
// input records from the page) and keeps the rest strict: no camera, location, payments or USB
// for anyone, clipboard writes for this origin only, the original's value plus two more denials.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";

/** `a=(), b=(self)` → {a: "()", b: "(self)"}. */
function parsePolicy(header: string): Record<string, string> {
  const features: Record<string, string> = {};
  for (const part of header.split(",")) {
    const [name, allow] = part.trim().split("=");
    if (name) features[name.trim()] = (allow ?? "").trim();
  }
  return features;
}

Deno.test("Permissions-Policy allows the microphone for our own origin and keeps the rest off", async () => {
  const app = await createTestApp();
  try {
    // A page, an API answer, an error, a static file and the health probe: all the same policy.
    for (
      const path of ["/", "/api/settings", "/api/no-such-route", "/static/a11y.css", "/health"]
    ) {
      const res = await app.request("GET", path);
      await res.body?.cancel();
      const header = res.headers.get("permissions-policy");
      ok(header, `${path} → ${res.status} has no Permissions-Policy`);
      const policy = parsePolicy(header);
      strictEqual(policy.microphone, "(self)", `${path}: ${header}`);
      for (const off of ["camera", "geolocation", "payment", "usb"]) {
        strictEqual(policy[off], "()", `${path}: ${off} in ${header}`);
      }
      strictEqual(policy["clipboard-write"], "(self)", `${path}: ${header}`);
      // Nothing is opened to other origins.
      deepStrictEqual(Object.values(policy).filter((v) => v !== "()" && v !== "(self)"), []);
    }
  } finally {
    await app.close();
  }
});
