# syntax=docker/dockerfile:1
# Storefront: build with the pinned pnpm, run on a slim Node as a non-root user with production
# dependencies only. The build's commands are scripts/image-build.mjs, which
# packages/app/test/ops/image.spec.ts runs in a clean copy of the repository, then starts the CMD below.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY . .
RUN node scripts/image-build.mjs /app

FROM ${NODE_IMAGE}
ENV NODE_ENV=production UV_THREADPOOL_SIZE=8
WORKDIR /app
# Owned by root, run as `node`: the service cannot rewrite its own code.
COPY --from=build /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/status').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 (exec form, no shell or npm in between): SIGTERM reaches main.js, which stops
# accepting, lets requests in flight finish for up to SHUTDOWN_TIMEOUT_SECONDS, then exits 0.
STOPSIGNAL SIGTERM
CMD ["node", "packages/app/dist/src/main.js"]
