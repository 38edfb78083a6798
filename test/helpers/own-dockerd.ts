import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import Docker from "dockerode";
import { waitFor } from "./worker";

/** Whether this machine can start a Docker engine of a test's own (root and dockerd present). */
export const canRunDockerd = process.getuid?.() === 0 && spawnSync("sh", ["-c", "command -v dockerd"]).status === 0;

/** Why this machine cannot start a Docker engine of a test's own, for skipBecause; undefined when it can. */
export const whyNoOwnDockerd = canRunDockerd
  ? undefined
  : "starting a Docker engine of its own needs root and dockerd on the PATH";

export type OwnDockerd = ReturnType<typeof ownDockerd>;

/**
 * A Linux bridge of a test's own, for an engine whose containers get a default network that
 * reaches the host at `gateway` (no iptables: nothing is routed beyond the host).
 */
export function ownBridge() {
  const name = `swcbr${process.pid % 100_000}`;
  const subnet = 100 + (process.pid % 150);
  const gateway = `10.213.${subnet}.1`;
  const run = (command: string) => {
    const result = spawnSync("sh", ["-c", command], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command}: ${result.stderr}`);
  };
  return {
    name,
    gateway,
    create() {
      run(`ip link add ${name} type bridge && ip addr add ${gateway}/24 dev ${name} && ip link set ${name} up`);
    },
    remove() {
      spawnSync("ip", ["link", "del", name]);
    },
  };
}

/**
 * A Docker engine of a test's own — own socket, data root, exec root and pidfile — so a
 * test may stop or kill it without touching the shared engine other tests use. With a
 * bridge (ownBridge) its containers' default network reaches the host; without, they have none.
 */
export function ownDockerd(options: { bridge?: string } = {}) {
  const dir = mkdtempSync("/tmp/swc-engine-");
  const socket = path.join(dir, "docker.sock");
  const args = [
    `--host=unix://${socket}`,
    `--data-root=${dir}/data`,
    `--exec-root=${dir}/exec`,
    `--pidfile=${dir}/docker.pid`,
    "--storage-driver=overlay2",
    "--iptables=false",
    "--ip6tables=false",
    `--bridge=${options.bridge ?? "none"}`,
    "--log-level=error",
  ];
  let child: ChildProcess | undefined;
  const host = `unix://${socket}`;
  const client = new Docker({ socketPath: socket });
  /** every process of this engine (dockerd, its containerd, the shims of its containers) */
  const processesOfEngine = () =>
    (spawnSync("pgrep", ["-f", dir], { encoding: "utf8" }).stdout ?? "")
      .split("\n")
      .map(Number)
      .filter((pid) => pid && pid !== process.pid);
  return {
    host,
    client,
    dir,
    async start() {
      child = spawn("dockerd", args, { stdio: ["ignore", "ignore", "pipe"], detached: true });
      await waitFor(
        "our own dockerd to answer",
        async () =>
          client.ping().then(
            () => true,
            () => false,
          ),
        60_000,
        250,
      );
    },
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
    /** SIGKILL, as a crash would: no clean shutdown of the engine, its containerd or its containers */
    async crash() {
      for (const pid of processesOfEngine()) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      if (child && child.exitCode === null && child.signalCode === null)
        await new Promise((resolve) => child!.once("exit", resolve));
    },
    /** copies an image from the shared engine into this one (docker save | docker load) */
    loadFromSharedEngine(image: string) {
      const load = spawnSync("sh", ["-c", `docker save ${image} | docker -H ${host} load -q`], { encoding: "utf8" });
      if (load.status !== 0) throw new Error(`could not load ${image} into our own engine: ${load.stderr}`);
    },
    async cleanup() {
      await this.crash();
      spawnSync("sh", ["-c", `grep ' ${dir}' /proc/mounts | cut -d' ' -f2 | sort -r | xargs -r -n1 umount -l`]);
      rmSync(dir, { recursive: true, force: true });
    },
    pidfileGone: () => !existsSync(`${dir}/docker.pid`) || !readFileSync(`${dir}/docker.pid`, "utf8").trim(),
  };
}
