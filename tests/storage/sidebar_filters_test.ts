// The sidebar's Tasks and profile chips (issue 16): shown only when there is a choice, and each
// filters the list on the server while keeping the open chat and the other filters.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "../helpers.ts";
import { sql } from "../../lib/storage/db.ts";

Deno.test("the sidebar filters by scheduled tasks and by profile", async () => {
  const app = await createTestApp({ configYaml: "profiles:\n  work: {model: m}\n" });
  try {
    const db = app.ctx.db;
    const add = async (id: string, title: string, extra: string) => {
      const [column, value] = extra ? extra.split("=") : [];
      await db.run(
        sql`INSERT INTO sessions (session_id, title, workspace, created_at, updated_at,
              message_count${column ? sql.raw(", " + column) : sql``})
            VALUES (${id}, ${title}, ${app.workspace}, 1, 1, 2${column ? sql`, ${value}` : sql``})`,
      );
    };
    await add("aaaaaaaaaaa1", "Plain chat", "");
    await add("aaaaaaaaaaa2", "Nightly digest run", "cron_job_id=job1");
    await add("aaaaaaaaaaa3", "Work chat", "profile=work");

    const home = await (await app.request("GET", "/")).text();
    ok(home.includes('data-view="tasks"'), "a Tasks chip once a task session exists");
    ok(home.includes('data-profile="work"') && home.includes('data-profile="default"'));
    for (const t of ["Plain chat", "Nightly digest run", "Work chat"]) ok(home.includes(t), t);

    // The list (the partial the page script swaps in); the open chat's title is also in the
    // top bar of a full page, so the list is checked on its own.
    const list = await (await app.request("GET", "/partials/sidebar?tasks=1&session=aaaaaaaaaaa1"))
      .text();
    ok(list.includes("Nightly digest run"));
    ok(!list.includes("Work chat") && !list.includes("Plain chat"), "only task sessions");
    const tasks = await (await app.request("GET", "/?tasks=1&session=aaaaaaaaaaa1")).text();
    ok(
      /data-view="tasks"[^>]*aria-current="true"|aria-current="true"[^>]*data-view="tasks"/.test(
        tasks,
      ),
    );
    ok(tasks.includes("session=aaaaaaaaaaa1"), "the chips keep the open chat");

    const work = await (await app.request("GET", "/partials/sidebar?profile=work")).text();
    ok(work.includes("Work chat") && !work.includes("Nightly digest run"));
    const def = await (await app.request("GET", "/partials/sidebar?profile=default")).text();
    ok(
      def.includes("Plain chat") && def.includes("Nightly digest run") &&
        !def.includes("Work chat"),
    );
    const unknown = await (await app.request("GET", "/partials/sidebar?profile=nope")).text();
    ok(
      unknown.includes("Work chat") && unknown.includes("Plain chat"),
      "an unknown profile is ignored",
    );
  } finally {
    await app.close();
  }
});

Deno.test("the filter chips stay away while there is nothing to choose", async () => {
  const app = await createTestApp();
  try {
    const home = await (await app.request("GET", "/")).text();
    strictEqual(home.includes("data-view-chips"), false);
  } finally {
    await app.close();
  }
});
