// The few settings of the user's own git config that fetch/pull/push keep. Remote git runs with
// no system or global config at all (GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_GLOBAL=/dev/null), so no
// config file can set a hook path, an include, a protocol policy, a filter or an attributes file
// for it; only the keys on USER_REMOTE_KEY are read back from ~/.gitconfig (and
// $XDG_CONFIG_HOME/git/config) and handed to git as command-scope config: how to authenticate,
// how to reach hosts, and URL rewrites (whose result lib/workspace/git_remote.ts checks).

/**
 * What a push or fetch needs from the user's config: credential helpers and their per-URL
 * settings, the ssh command, http settings (proxy, CA, extra headers) and URL rewrites.
 */
const USER_REMOTE_KEY =
  /^(credential\..+|core\.sshcommand|http\..+|url\..+\.(insteadof|pushinsteadof))$/i;

/**
 * The forwarded [key, value] pairs from `git config --global --includes -z --list` output, in
 * order (multi-valued keys such as credential.helper keep their order and their resets).
 */
export function userRemoteConfig(listing: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const entry of listing.split("\0")) {
    if (!entry) continue;
    const nl = entry.indexOf("\n");
    const [key, value] = nl < 0 ? [entry, ""] : [entry.slice(0, nl), entry.slice(nl + 1)];
    if (USER_REMOTE_KEY.test(key) && !/[\0\n]/.test(key)) out.push([key, value]);
  }
  return out;
}

/** The pairs as command-scope config in git's environment (GIT_CONFIG_COUNT/KEY_n/VALUE_n). */
export function configEnv(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  if (!pairs.length) return {};
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}
