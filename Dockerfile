# syntax=docker/dockerfile:1
# The Filamu server image: one Node process serving the API and the built PWA (docs/decisions/0097).
# Build: docker build -t filamu .   Run: see deploy/compose.yaml and docs/operations.md.

# ---- build: install everything, build the PWA and bundle the server ----
FROM node:20-bookworm-slim AS build
WORKDIR /src
ENV CI=true
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY api/package.json api/
COPY pwa/package.json pwa/
COPY shared/package.json shared/
RUN npx --yes pnpm@10 install --frozen-lockfile
COPY . .
RUN npx --yes pnpm@10 build

# ---- deps: production dependencies of the server only (no PWA build tools, no dev tools) ----
FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV CI=true
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY api/package.json api/
COPY pwa/package.json pwa/
COPY shared/package.json shared/
RUN npx --yes pnpm@10 install --frozen-lockfile --prod --filter ./api \
  && rm -rf /root/.npm /root/.cache /root/.local/share/pnpm

# ---- runtime: node api/dist/server.js, as an unprivileged user ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
# Debian's ffmpeg (libx264, aac, libwebp) makes each movie's smaller renditions and its small WebP posters;
# without it the server still runs and serves originals only. No recommended packages: no X, no fonts, no docs.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*
# The server finds the repository root by pnpm-workspace.yaml, then drizzle/ and pwa/dist/ from there.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/api/node_modules ./api/node_modules
COPY --from=build /src/pnpm-workspace.yaml /src/package.json ./
COPY --from=build /src/api/package.json ./api/
COPY --from=build /src/api/dist ./api/dist
COPY --from=build /src/pwa/dist ./pwa/dist
COPY --from=build /src/drizzle ./drizzle
COPY deploy/s3-init.mjs deploy/healthcheck.mjs ./deploy/
# DATA_DIR: the embedded database (single process only) and the local objects folder; with DATABASE_URL and
# S3_BUCKET nothing is written there, and the volume only keeps a first-start admin-credentials file.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
STOPSIGNAL SIGTERM
# Readiness, not liveness: a draining replica answers 503 and drops out of rotation. Node itself does the
# request (the slim image has no curl or wget).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
CMD ["node", "api/dist/server.js"]
