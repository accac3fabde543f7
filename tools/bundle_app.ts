// `deno task bundle [outDir]`: the console as one JavaScript file plus its assets, laid out the
// way `deno compile` embeds them (main.js, static/, lib/sandbox/file_worker.ts), so it runs
// with `deno run <permissions> <outDir>/main.js` from any working directory. This is the same
// build path as `deno task compile` without Deno's runtime binary, which comes from
// dl.deno.land; tests/compile_test.ts runs it from a foreign directory.
import { dirname, fromFileUrl, join } from "./paths.ts";

const root = join(dirname(fromFileUrl(import.meta.url)), "..");

async function run(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  })
    .output();
  if (!out.success) throw new Error(`deno ${args.join(" ")} failed with exit code ${out.code}`);
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    const src = join(from, e.name), dst = join(to, e.name);
    if (e.isDirectory) await copyDir(src, dst);
    else if (e.isFile) await Deno.copyFile(src, dst);
  }
}

/** Bundle the app into `outDir` (static/ must already be built: `deno task build`). */
export async function bundleApp(outDir: string): Promise<void> {
  await Deno.mkdir(join(outDir, "lib", "sandbox"), { recursive: true });
  await run(["bundle", "--quiet", "--platform", "deno", "main.ts", "-o", join(outDir, "main.js")]);
  // The worker keeps its source path (lib/server/app_paths.ts resolves it there); JS is valid TS.
  await run([
    "bundle",
    "--quiet",
    "--platform",
    "deno",
    "lib/sandbox/file_worker.ts",
    "-o",
    join(outDir, "lib", "sandbox", "file_worker.ts"),
  ]);
  await copyDir(join(root, "static"), join(outDir, "static"));
}

if (import.meta.main) {
  const outDir = Deno.args[0] ?? join(root, "dist");
  await bundleApp(outDir);
  console.log(`Bundled to ${outDir}: run with deno run -A ${join(outDir, "main.js")}`);
}
