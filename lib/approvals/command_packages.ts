// Package removal for the command policy: uninstalling system or global packages (apt remove,
// pip uninstall, npm uninstall -g, brew uninstall, …) asks; project-local removals do not.

/** Whether `name args…` removes installed packages. */
export function isPackageRemoval(name: string, args: string[]): boolean {
  const sub = args.find((a) => !a.startsWith("-"));
  const has = (...xs: string[]) => xs.includes(sub ?? "");
  const global = args.includes("-g") || args.includes("--global") || args.includes("global");
  switch (name) {
    case "apt":
    case "apt-get":
    case "aptitude":
      return has("remove", "purge", "autoremove", "autopurge");
    case "dpkg":
      return args.some((a) => ["-r", "-P", "--remove", "--purge"].includes(a));
    case "yum":
    case "dnf":
    case "microdnf":
      return has("remove", "erase", "autoremove");
    case "pacman":
      return args.some((a) => /^-R/.test(a) || a === "--remove");
    case "apk":
      return has("del");
    case "zypper":
      return has("remove", "rm");
    case "snap":
    case "flatpak":
      return has("remove", "uninstall");
    case "brew":
    case "port":
      return has("uninstall", "remove", "rm");
    case "gem":
    case "cargo":
      return has("uninstall");
    case "conda":
    case "mamba":
    case "micromamba":
      return has("remove", "uninstall");
    case "pipx":
      return has("uninstall", "uninstall-all");
    case "nix-env":
      return args.some((a) => a === "-e" || a === "--uninstall");
    case "npm":
    case "pnpm":
    case "bun":
      return has("uninstall", "remove", "rm", "r", "un", "unlink") && global;
    case "yarn":
      return args[0] === "global" && ["remove", "rm"].includes(args[1]);
  }
  return /^pip(\d(\.\d+)?)?$/.test(name) && has("uninstall");
}
