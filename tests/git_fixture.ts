// Real git for tests that build repositories in temp dirs: a fixed identity and default branch,
// so a commit works on a machine with no git config; a failure throws with git's stderr.

/** Run git in `cwd`; resolves to its stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: [
      "-c",
      "user.email=t@example.com",
      "-c",
      "user.name=T",
      "-c",
      "init.defaultBranch=main",
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}
