# Hermes Console container image: non-root user, state in a volume, healthcheck on /health.
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap git ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && npm install -g deno@2.9.6
RUN useradd --create-home --uid 10001 hermes
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
CMD ["deno", "task", "start"]
