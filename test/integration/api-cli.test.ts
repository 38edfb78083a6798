import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { startApiServer } from "../helpers/api-http-server";
import { createApiToken } from "../../lib/auth/api-tokens";
import { freePort } from "../helpers/free-port";
import { ROOT } from "../helpers/api-routes";
import { startTestWorker } from "../helpers/worker";
import type { WorkerRunner } from "../../workers/runner";

// `swe-curator --server URL --token T …` from a separate process with no database to reach:
// every command goes through /api/v1 over HTTP.

let db: TestDatabase;
let server: Awaited<ReturnType<typeof startApiServer>>;
let runToken: string;
let readToken: string;
let noDatabasePort: number;
// the server stores an upload and enqueues it; a worker imports it, as on a running product
let worker: WorkerRunner;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startApiServer();
  worker = await startTestWorker(db.url);
  const curator = await db.prisma.user.create({ data: { email: "cli@example.test", role: "CURATOR" } });
  runToken = (await createApiToken(db.prisma, curator.id, { name: "cli", scopes: ["read", "run"] })).token;
  readToken = (await createApiToken(db.prisma, curator.id, { name: "cli-read", scopes: ["read"] })).token;
  noDatabasePort = await freePort();
});
afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await db.drop();
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // no DATABASE_URL and an embedded-database port nobody listens on: only the server can answer
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_PORT: String(noDatabasePort) };
  for (const name of ["DATABASE_URL", "SWE_CURATOR_URL", "SWE_CURATOR_TOKEN"]) delete env[name];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/swe-curator.mjs"), ...args], { env, cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const fixture = path.join(ROOT, "test/fixtures/swe-bench/swe-bench-dev-easy.json");

describe("the CLI against a server (--server/--token)", () => {
  it("imports a file over HTTP; the tasks land in the server's database", async () => {
    const result = await cli("--server", server.url, "--token", runToken, "import", fixture);
    expect(result.code, result.stderr).toBe(0);
    expect(await db.prisma.task.count({ where: { instanceId: "pydicom__pydicom-1458" } })).toBe(1);
  });

  it("status and export work with a read-only token", async () => {
    const status = await cli("status", "--server", server.url, "--token", readToken);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toContain(`connected to server ${server.url}`);
    expect(status.stdout).toMatch(/imports \(latest 1\)/);
    expect(status.stdout).toContain("swe-bench-dev-easy.json");

    const exported = await cli(
      "export",
      "--query",
      "source=SWE_BENCH",
      "--include-unvalidated",
      "--server",
      server.url,
      "--token",
      readToken,
    );
    expect(exported.code, exported.stderr).toBe(0);
    const ids = exported.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).instance_id);
    expect(ids).toContain("pydicom__pydicom-1458");
  });

  it("queues a validation over HTTP", async () => {
    // the task runs SWE-bench's published image: the server refuses it in a sentence until its registry is allowed
    const refused = await cli(
      "validate",
      "--instance",
      "pydicom__pydicom-1458",
      "--server",
      server.url,
      "--token",
      runToken,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("IMAGE_REGISTRIES does not list");
    vi.stubEnv("IMAGE_REGISTRIES", "docker.io");
    const result = await cli(
      "validate",
      "--instance",
      "pydicom__pydicom-1458",
      "--server",
      server.url,
      "--token",
      runToken,
    ).finally(() => vi.unstubAllEnvs());
    expect(result.code, result.stderr).toBe(0);
    const task = await db.prisma.task.findFirstOrThrow({
      where: { instanceId: "pydicom__pydicom-1458" },
      select: { id: true },
    });
    expect(await db.prisma.validationRun.count({ where: { taskId: task.id } })).toBeGreaterThan(0);
  });

  it("a token without the run scope cannot import: exit 4 with the server's reason", async () => {
    const result = await cli("import", fixture, "--server", server.url, "--token", readToken);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/lacks the "run" scope/);
  });

  it("says what is missing: --token without --server, a server without a token", async () => {
    const tokenOnly = await cli("status", "--token", readToken);
    expect(tokenOnly.code).toBe(2);
    expect(tokenOnly.stderr).toMatch(/--token needs --server/);
    const serverOnly = await cli("status", "--server", server.url);
    expect(serverOnly.code).toBe(2);
    expect(serverOnly.stderr).toMatch(/no token: pass --token/);
  });
});
