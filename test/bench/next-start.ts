import { spawn, type ChildProcess } from "node:child_process";
import { PROJECT_ROOT } from "../../lib/db/schema-engine";
import { NEXT_BIN, WEB_SERVER_ENV } from "../../scripts/production-build";

/** `next start` of the production build against a database, resolved once /signin answers. */
export function startNext(port: number, databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      ...WEB_SERVER_ENV,
      DATABASE_URL: databaseUrl,
      NEXTAUTH_SECRET: "bench-secret",
      NEXTAUTH_URL: `http://localhost:${port}`,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
    },
  });
  child.stderr?.on("data", (d: Buffer) => process.stderr.write(`[next] ${d}`));
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/signin`)).ok) return resolve(child);
      } catch {}
      if (Date.now() > deadline) return reject(new Error("next start did not answer within 60 s"));
      setTimeout(poll, 250);
    };
    child.on("exit", (code) => reject(new Error(`next start exited early (${code})`)));
    void poll();
  });
}
