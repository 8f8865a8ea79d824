# syntax=docker/dockerfile:1
# The API server image: the bundled server (server/dist/main.js) and its production dependencies only,
# run as the unprivileged `node` user. Build from the repository root:
#   docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD) -t gathercast .
# It needs DATABASE_URL (and REDIS_URL with more than one process); see docs/deploy.md.

FROM node:20-slim AS build
WORKDIR /repo
ENV CI=true COREPACK_ENABLE_DOWNLOAD_PROMPT=0
RUN corepack enable
COPY . .
RUN pnpm install --frozen-lockfile
# No git in the build context's image: the commit GET /version reports comes from the build argument.
ARG BUILD_COMMIT=unknown
RUN BUILD_COMMIT=$BUILD_COMMIT pnpm --filter @gathercast/server run build
# The server package with its production dependencies only, workspace links resolved.
RUN pnpm --filter @gathercast/server deploy --prod --legacy /out

FROM node:20-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
# Owned by root and read-only to the process: the server writes nothing next to its code.
COPY --from=build /out/package.json ./package.json
COPY --from=build /out/node_modules ./node_modules
COPY --from=build /repo/server/dist ./dist
USER node
EXPOSE 3000
# The orchestrator's check (compose.yaml has its own): ready means database, webhook worker and Redis answer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (sockets close with 1001, in-flight requests finish); node is PID 1 and handles it.
# --max-semi-space-size: a larger young generation, so request garbage dies in fewer scavenges
# (docs/deploy.md, "Runtime flags"); every way of starting the server passes the same flags.
CMD ["node", "--max-semi-space-size=64", "dist/main.js"]
