import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The custom server (server/main.ts) serves the agent API; Next serves pages.
  serverExternalPackages: [
    "better-sqlite3",
    "pg",
    "@prisma/client",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "mvdan-sh",
  ],
};

export default nextConfig;
