# syntax=docker/dockerfile:1.7
# Sunwatch server image (issue 16; docs/deploy.md). Multi-stage:
#   build  — every workspace's dependencies, native better-sqlite3 compiled from source
#            (.npmrc build-from-source=true; python3, make, g++ only here), the web app built;
#   deps   — the server's production dependencies only (native module compiled again, same base);
#   run    — node:slim + those dependencies + the compiled server (apps/server/dist) + the server,
#            protocol and simulator sources (ops CLIs) + the built web app, as the unprivileged `node` user (uid 1000). No compiler in the final image.
# Build: docker build -t sunwatch .      Run: see compose.yaml.
ARG NODE_IMAGE=node:20.19-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/protocol/package.json packages/protocol/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/simulator/package.json apps/simulator/
COPY e2e/package.json e2e/
COPY bench/package.json bench/

FROM toolchain AS build
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/protocol packages/protocol
COPY apps/web apps/web
RUN npm run build -w @sunwatch/web
# The compiled server (issue 16): one esbuild bundle of the server with protocol and simulator sources in it.
COPY apps/simulator apps/simulator
COPY apps/server apps/server
RUN npm run build -w @sunwatch/server

FROM toolchain AS deps
# Only what the server needs at run time (its workspace dependencies included), native module built here.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --no-audit --no-fund --workspace=@sunwatch/server --include-workspace-root=false \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS run
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    WEB_ROOT=/app/apps/web/dist \
    TRUST_PROXY=1
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json tsconfig.base.json ./
COPY --chown=root:root packages/protocol/package.json packages/protocol/
COPY --chown=root:root packages/protocol/src packages/protocol/src
COPY --chown=root:root apps/simulator/package.json apps/simulator/
COPY --chown=root:root apps/simulator/src apps/simulator/src
COPY --chown=root:root apps/server/package.json apps/server/tsconfig.json apps/server/
COPY --chown=root:root apps/server/src apps/server/src
COPY --from=build --chown=root:root /app/apps/web/dist apps/web/dist
COPY --from=build --chown=root:root /app/apps/server/dist apps/server/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# 8080 HTTP (actions, web app, HTTP ingest); 1883 only when the embedded broker is used (no MQTT_URL).
EXPOSE 8080 1883
# The compiled server (docs/operations.md); the TypeScript sources stay for the ops CLIs (backup, key rotation).
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
