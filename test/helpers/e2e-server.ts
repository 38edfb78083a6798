import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "./free-port";
import { makeDataDir } from "./data-dir";
import { embeddedBaseUrl } from "../../lib/database-server/database-server";

// The e2e suite drives the real product: `npm start`'s script on free ports with its own
// embedded PostgreSQL, the demo seed and a worker, against a production build.

const ROOT = path.resolve(import.meta.dirname, "../..");
export const E2E_PASSWORDS = { admin: "e2e-admin-password", demo: "e2e-demo-password" };

function waitForBanner(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the e2e server did not come up within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      process.stdout.write(
        text
          .split("\n")
          .map((l) => (l ? `[e2e-server] ${l}` : l))
          .join("\n"),
      );
      if (text.includes("SWE Curator is up at")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[e2e-server] ${chunk}`));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the e2e server exited early with ${code}`));
    });
  });
}

/** The environment of an `npm start` on the given ports, with its own embedded PostgreSQL in dataDir. */
export function startEnv(dataDir: string, port: number, pgPort: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: "",
    PORT: String(port),
    HOST: "127.0.0.1",
    NEXTAUTH_URL: `http://localhost:${port}`,
    SWE_CURATOR_DATA_DIR: dataDir,
    EMBEDDED_PG_DATA: path.join(dataDir, "postgres"),
    EMBEDDED_PG_PORT: String(pgPort),
    EMBEDDED_PG_FSYNC: "off",
  };
}

/**
 * `npm start`'s own script on free ports with its own embedded PostgreSQL in dataDir and the
 * demo seed; resolves once it prints its banner. `env` adds to (or overrides) the defaults.
 */
export async function spawnApp(dataDir: string, env: Record<string, string>, timeoutMs = 15 * 60_000) {
  const [port, pgPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...startEnv(dataDir, port, pgPort), ...env },
  });
  await waitForBanner(child, timeoutMs);
  return { child, port, pgPort, url: `http://localhost:${port}` };
}

export default async function setup(project: TestProject) {
  const dataDir = makeDataDir("e2e-");
  const { child, port, pgPort } = await spawnApp(dataDir, {
    NEXTAUTH_SECRET: "e2e-secret-not-for-production",
    ADMIN_EMAIL: "admin@swe-curator.local",
    ADMIN_PASSWORD: E2E_PASSWORDS.admin,
    DEMO_PASSWORD: E2E_PASSWORDS.demo,
    WORKER_CONCURRENCY: "2",
    // the tests stand in for a reverse proxy: they set X-Forwarded-For (test/security/auth-sign-in.e2e.test.ts)
    TRUST_PROXY: "1",
  });
  delete process.env.DATABASE_URL;
  project.provide("appUrl", `http://localhost:${port}`);
  project.provide("e2eDataDir", path.join(dataDir, "postgres"));
  project.provide("e2eDatabaseUrl", `${embeddedBaseUrl(pgPort, path.join(dataDir, "postgres"))}/swe_curator`);
  return async () => {
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        resolve();
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {}
        resolve();
      }, 15_000).unref();
    });
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    e2eDatabaseUrl: string;
    e2eDataDir: string;
  }
}
