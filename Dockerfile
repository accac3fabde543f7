# Hermes Console container image: non-root user, state in a volume, healthcheck on /health.
# BASE_IMAGE must provide node + npm on Debian bookworm (deno itself comes from npm).
ARG BASE_IMAGE=node:20-bookworm-slim
FROM ${BASE_IMAGE}
# Behind a TLS-intercepting proxy, mount its CA bundle over the system one for the build
# (podman build -v /etc/ssl/certs:/etc/ssl/certs:ro) and pass these two: npm and deno then trust
# it. Build args only; the image keeps neither.
ARG NODE_EXTRA_CA_CERTS=
ARG DENO_TLS_CA_STORE=mozilla
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap slirp4netns git ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && npm install -g deno@2.9.6
# The app user must own what it writes: the checkout (deno install, the island build), the
# state dir and the workspace. Created and chowned here, before USER, so named volumes mounted
# on /data and /workspace start out owned by it too.
RUN useradd --create-home --uid 10001 hermes \
    && mkdir -p /app /data /workspace \
    && chown hermes:hermes /app /data /workspace
WORKDIR /app
COPY --chown=hermes:hermes . .
USER hermes
RUN deno install && deno task build
ENV HERMES_WEBUI_HOST=0.0.0.0 \
    HERMES_WEBUI_PORT=8787 \
    HERMES_WEBUI_STATE_DIR=/data \
    HERMES_WEBUI_DEFAULT_WORKSPACE=/workspace \
    HERMES_CONFIG_PATH=/data/config.yaml
VOLUME ["/data", "/workspace"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD deno eval "const r = await fetch('http://127.0.0.1:8787/health'); Deno.exit(r.ok ? 0 : 1)"
# A non-loopback bind requires HERMES_WEBUI_PASSWORD (the server refuses to start without one).
# The islands were built above, so this is `deno task start` without its build step (same
# flags; tests/container_test.ts checks they match deno.json).
CMD ["deno", "run", "--v8-flags=--max-semi-space-size=2,--optimize-for-size", "--unstable-worker-options", "--allow-net", "--allow-read", "--allow-write", "--allow-env", "--allow-ffi", "--allow-run=bash,bwrap,/bin/sh,/usr/bin/unshare,slirp4netns,git,npx,node,python3,deno,code,xdg-open,open", "--allow-sys=hostname,osRelease,homedir,uid,gid,networkInterfaces,statfs", "main.ts"]
