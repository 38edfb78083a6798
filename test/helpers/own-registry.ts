import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "./free-port";
import { waitFor } from "./worker";

/** Docker's own registry (Debian's docker-registry package), the one a pool moves images through. */
export const REGISTRY_BINARY = "docker-registry";
export const canRunRegistry = spawnSync("sh", ["-c", `command -v ${REGISTRY_BINARY}`]).status === 0;

/** A registry of a test's own on loopback (an engine treats 127.0.0.1 as a registry it may use over plain HTTP). */
export async function startOwnRegistry(): Promise<{ host: string; stop(): Promise<void> }> {
  const dir = mkdtempSync("/tmp/swc-registry-");
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  writeFileSync(
    path.join(dir, "config.yml"),
    [
      "version: 0.1",
      "log:",
      "  level: error",
      "storage:",
      "  filesystem:",
      `    rootdirectory: ${dir}/data`,
      "http:",
      `  addr: ${host}`,
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn(REGISTRY_BINARY, ["serve", path.join(dir, "config.yml")], { stdio: "ignore" });
  await waitFor(
    "our own registry to answer",
    async () =>
      fetch(`http://${host}/v2/`).then(
        (response) => response.ok,
        () => false,
      ),
    30_000,
    200,
  );
  return {
    host,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
