import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port";
import { makeDataDir, removeDataDir } from "../helpers/data-dir";
import { startEnv } from "../helpers/e2e-server";
import { portIsFree } from "../../lib/database-server/database-server";

// `npm start` as a person runs it (npm's own process, its script, the whole tree below it):
// the closing block names the URL and every account, and Ctrl-C stops everything quietly,
// whether it reaches the terminal's whole process group or npm's process alone.

const ROOT = path.resolve(import.meta.dirname, "../..");
const dataDir = makeDataDir("start-stop-");
afterAll(() => {
  removeDataDir(path.join(dataDir, "postgres"));
  rmSync(dataDir, { recursive: true, force: true });
});

type Started = { npm: ChildProcess; output: () => string; port: number; pgPort: number };

async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  output: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs / 1000} s. Output so far:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `npm start` as the leader of its own process group, as a terminal's foreground job is. */
async function npmStart(): Promise<Started> {
  const [port, pgPort] = [await freePort(), await freePort()];
  const npm = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...startEnv(dataDir, port, pgPort),
      NEXTAUTH_SECRET: "start-stop-secret-not-for-production",
      ADMIN_EMAIL: "admin@swe-curator.local",
    },
  });
  let text = "";
  npm.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  npm.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const output = () => text;
  await waitFor(
    "the closing block of npm start",
    () => /SWE Curator is up at[\s\S]*stop with Ctrl-C/.test(text),
    15 * 60_000,
    output,
  );
  return { npm, output, port, pgPort };
}

async function stopsQuietly(started: Started, sendStop: () => void) {
  const exited = new Promise<number | null>((resolve) => started.npm.once("exit", (code) => resolve(code)));
  sendStop();
  await waitFor(
    "npm start to exit after Ctrl-C",
    () => started.npm.exitCode !== null || started.npm.signalCode !== null,
    60_000,
    started.output,
  );
  await exited;
  const afterStop = started.output().slice(started.output().lastIndexOf("stop with Ctrl-C"));
  expect(afterStop).toContain("[start] stopped");
  expect(afterStop).not.toMatch(
    /57P01|terminating connection|killing it|\[start\] (failed|worker stop|database stop)/i,
  );
  await waitFor(
    "the web server's port to be free",
    () => portIsFree(started.port, "127.0.0.1"),
    10_000,
    started.output,
  );
  await waitFor(
    "the embedded database's port to be free",
    () => portIsFree(started.pgPort, "127.0.0.1"),
    10_000,
    started.output,
  );
}

describe("npm start and Ctrl-C", () => {
  it("a first start ends with the URL, the admin login and every demo account; Ctrl-C on npm's process alone stops it all, quietly", async () => {
    const started = await npmStart();
    const banner = started.output().slice(started.output().lastIndexOf("SWE Curator is up at"));
    expect(banner).toContain(`http://localhost:${started.port}`);
    expect(banner).toMatch(/admin: +admin@swe-curator\.local \/ \S+ +\(generated/);
    for (const email of [
      "curator@swe-curator.local",
      "viewer@swe-curator.local",
      "annotator-a@swe-curator.local",
      "annotator-b@swe-curator.local",
    ]) {
      expect(banner).toContain(email);
    }
    expect(banner).toMatch(/demo accounts, each with password \S+/);
    await stopsQuietly(started, () => started.npm.kill("SIGINT"));
  });

  it("a later start reuses the build and data; Ctrl-C in the terminal (the whole process group) stops it all, quietly", async () => {
    const started = await npmStart();
    expect(started.output()).not.toContain("building the web app");
    expect(started.output()).toContain("its password was shown at the first start");
    await stopsQuietly(started, () => process.kill(-started.npm.pid!, "SIGINT"));
  });
});
