// A git:// server on a loopback port for tests that fetch, pull and push for real. The console
// refuses local-path remotes (a local transport runs the remote repository's hooks on the host),
// so a round trip needs a network remote: `git daemon` serving the repositories under one folder.

export interface GitDaemon {
  /** The git:// URL of the repository `name` (a folder directly under the served one). */
  url(name: string): string;
  /** Stop the daemon and wait for it to exit. */
  close(): Promise<void>;
}

/** Serve every repository under `base` (receive-pack on: pushes are accepted). */
export async function serveGitDaemon(base: string): Promise<GitDaemon> {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const child = new Deno.Command("git", {
    args: [
      "daemon",
      "--reuseaddr",
      "--listen=127.0.0.1",
      `--port=${port}`,
      `--base-path=${base}`,
      "--export-all",
      "--enable=receive-pack",
      base,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  // Ready once it accepts a connection.
  for (let i = 0;; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch (err) {
      if (i >= 100) {
        child.kill("SIGTERM");
        await child.status;
        throw new Error(`git daemon did not start on port ${port}: ${err}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: (name) => `git://127.0.0.1:${port}/${name}`,
    async close() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
    },
  };
}
