#!/usr/bin/env bash
# Make sure the system packages the test suite drives are present: Debian's Chromium and its
# headless shell (browser tests, via playwright-core: the shell runs them, the browser is the
# fallback), bubblewrap and slirp4netns (the terminal tool's OS sandbox and its network). Installs them with apt when running as root on a machine that lacks them; never
# downloads a browser build.
set -u
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
# slirp4netns: the terminal's network switch (a private network without the host's loopback).
[ -x /usr/bin/slirp4netns ] || need+=(slirp4netns)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${need[*]} with apt-get (needed by the test suite)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null 2>&1 || true
  apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 || echo "apt-get could not install ${need[*]}" >&2
else
  echo "Missing ${need[*]}: install them (e.g. sudo apt-get install ${need[*]}) to run every test." >&2
fi
exit 0
