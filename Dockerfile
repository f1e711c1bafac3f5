# One podwatch node: Node 20 on Debian slim. compose.yaml runs two of these behind Caddy.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 (the embedded database, unused on PostgreSQL but a dependency) compiles from
# source when no prebuilt binary fits this platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# The lock and what npm ci's postinstall reads (it generates the Prisma clients from the models):
# a change elsewhere in the sources does not reinstall the dependencies.
COPY package.json package-lock.json ./
COPY scripts/prisma-schemas.ts scripts/
COPY prisma/models.prisma prisma/
RUN npm ci --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
# npm run build is `next build`; it runs here through the step `npm start` itself runs
# (server/ensure-build.ts), which also records what the build read, so that `npm start`
# finds the build current and does not build again in every container.
RUN npm run build \
 && node --import tsx --input-type=module -e "const { ensureBuild } = await import('./server/ensure-build.ts'); if (await ensureBuild(process.cwd(), () => {})) console.log('build recorded');"

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
# npm start: migrate (under PostgreSQL's advisory lock, so two nodes starting at once is fine),
# serve, and on SIGTERM drain. npm passes the signal on to node.
CMD ["npm", "start"]
