// `deno task bench`: runs every tests/bench/*_bench.ts file in its own process, one after
// another (they time things, so they must not compete for the CPU), and fails if any fails.
// Each bench prints its own figures and the ratio to its target. `deno task bench NAME` runs
// those whose file name contains NAME, whatever they need. Benches that need a PostgreSQL server
// run in a plain `deno task bench` only with `--postgres` (and then alone), so a plain run works
// on a machine without one.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const NEEDS_POSTGRES = new Set(["replicas_bench.ts", "storage_bench.ts"]);
const postgres = Deno.args.includes("--postgres");
const only = Deno.args.find((a) => a !== "--postgres");
const files = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith("_bench.ts"))
  .map((e) => e.name)
  .filter((name) => only || NEEDS_POSTGRES.has(name) === postgres)
  .filter((name) => !only || name.includes(only))
  .sort();

if (files.length === 0) {
  console.error(
    `no ${postgres ? "PostgreSQL " : ""}*_bench.ts files in ${dir}${
      only ? ` matching "${only}"` : ""
    }${postgres ? "" : ` (${[...NEEDS_POSTGRES].join(", ")} runs with --postgres)`}`,
  );
  Deno.exit(1);
}

const failed: string[] = [];
for (const name of files) {
  console.log(`\n━━ ${name}`);
  const started = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(dir, name)],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`   ${code === 0 ? "done" : `FAILED (exit ${code})`} in ${secs} s`);
  if (code !== 0) failed.push(name);
}

console.log(`\n${files.length - failed.length}/${files.length} benchmarks ran`);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(", ")}`);
  Deno.exit(1);
}
