import { spawnSync } from "node:child_process";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerForTests } from "../helpers/docker";
import { BASE_IMAGE } from "./build-helpers";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { LABEL_MANAGED } from "@/lib/docker/container-labels";
import type { ContainerLimits } from "@/lib/docker/docker-engine";

// Issue 10.3: what a test command can do inside a validation container. Each case runs
// the attack as the container's command on the real engine, through the product's engine.

const docker = await dockerForTests();
const LIMITS: ContainerLimits = { memoryMb: 512, cpus: 1, pids: 64, timeoutMs: 30_000, diskMb: 64 };
const TEST_LABEL = `io.swe-curator.security-test=${process.pid}`;

describe.skipIf(!docker.ready)("validation containers (real Docker)", () => {
  const engine = createDockerEngine();
  const raw = new Docker();
  const tag = `swe-curator/security-sandbox:${process.pid}`;
  const danglingIds: string[] = [];

  beforeAll(async () => {
    // an environment image like the demo ones: a work tree at WORKDIR, built from the base image
    await engine.buildImage({
      tag,
      dockerfile: `FROM ${BASE_IMAGE}\nCOPY repo/ /testbed/\nWORKDIR /testbed\nRUN echo ${Date.now()} > /testbed/stamp\n`,
      contextFiles: { "repo/README": "the work tree\n" },
      limits: { memoryMb: 512, cpus: 1, pids: 64, diskMb: 1024 },
    });
  });
  afterAll(async () => {
    await raw
      .getImage(tag)
      .remove({ force: true })
      .catch(() => {});
    for (const id of danglingIds)
      await raw
        .getImage(id)
        .remove({ force: true })
        .catch(() => {});
  });

  async function run(script: string, limits: Partial<ContainerLimits> = {}) {
    let log = "";
    const result = await engine.runContainer({
      image: tag,
      command: ["/bin/bash", "-c", script],
      files: { "/swe-curator/hello.txt": "from the worker\n" },
      labels: { [LABEL_MANAGED]: "true" },
      limits: { ...LIMITS, ...limits },
      onOutput: (text) => (log += text),
    });
    return { ...result, log };
  }

  it("runs the command as the image's non-root user with no capabilities, in a work tree it owns", async () => {
    const { exitCode, log } = await run(
      "id -un; id -u; grep CapEff /proc/self/status; pwd; cat README /swe-curator/hello.txt; echo change > README && git init -q . && echo worktree-writable",
    );
    expect(exitCode).toBe(0);
    expect(log).toContain("curator\n1000\n");
    expect(log).toMatch(/CapEff:\s+0000000000000000/);
    expect(log).toContain("/testbed\nthe work tree\nfrom the worker\n");
    expect(log).toContain("worktree-writable");
  });

  it("keeps the root filesystem read-only: the image outside the work tree cannot be changed", async () => {
    const { exitCode, log } = await run(
      "for f in /usr/bin/python3 /etc/passwd /root/x; do echo x >> $f 2>&1 || true; done; touch /usr/local/x 2>&1; echo done",
    );
    expect(exitCode).toBe(0);
    expect(log.match(/Read-only file system|Permission denied/g)?.length).toBeGreaterThanOrEqual(4);
    expect(log).not.toMatch(/^x$/m);
  });

  it("a disk filler stops at the disk limit in the work tree and in /tmp", async () => {
    const { exitCode, timedOut, log } = await run(
      "dd if=/dev/zero of=/testbed/fill bs=1M count=10000 status=none; dd if=/dev/zero of=/tmp/fill bs=1M count=10000 status=none; du -sm /testbed/fill /tmp/fill",
    );
    expect(timedOut).toBe(false);
    expect(exitCode).toBe(0);
    expect(log.match(/No space left on device/g)).toHaveLength(2);
    for (const size of [...log.matchAll(/^(\d+)\s+\/(testbed|tmp)\/fill$/gm)].map((match) => Number(match[1])))
      expect(size).toBeLessThanOrEqual(64);
  });

  it("a fork bomb stays within the pids limit and the run ends at its time limit; the host can still fork", async () => {
    const { timedOut, log } = await run(
      ":(){ :|:& };: ; sleep 1; echo processes=$(ls /proc | grep -c '^[0-9]'); sleep 600",
      { timeoutMs: 8_000 },
    );
    expect(timedOut).toBe(true);
    const processes = Number(/processes=(\d+)/.exec(log)?.[1] ?? 0);
    expect(processes).toBeLessThanOrEqual(LIMITS.pids);
    expect(spawnSync("true").status).toBe(0);
  });

  it("prune removes only dangling images this product built, never a user's other dangling image", async () => {
    async function danglingImage(labels: Record<string, string>) {
      const scratchTag = `swe-curator/security-dangling:${process.pid}`;
      const build = (stamp: string) =>
        engine.buildImage({
          tag: scratchTag,
          dockerfile: `FROM ${BASE_IMAGE}\nRUN echo ${stamp} > /stamp\n`,
          contextFiles: {},
          labels,
          limits: { memoryMb: 256, cpus: 1, pids: 64, diskMb: 256 },
        });
      const { imageId } = await build(`${Date.now()}-a`);
      await build(`${Date.now()}-b`);
      await raw.getImage(scratchTag).remove();
      danglingIds.push(imageId);
      return imageId;
    }
    const ours = await danglingImage({ [TEST_LABEL.split("=")[0]]: TEST_LABEL.split("=")[1] });
    const theirs = await danglingImage({
      [TEST_LABEL.split("=")[0]]: TEST_LABEL.split("=")[1],
      [LABEL_MANAGED]: "false",
    });
    // what a user's own `docker build` leaves: no label of ours at all
    expect((await raw.getImage(theirs).inspect()).Config.Labels?.[LABEL_MANAGED]).toBe("false");
    const report = await engine.pruneDanglingImages(0, { alsoLabelled: TEST_LABEL });
    expect(report.removed).toBe(1);
    expect(
      await raw
        .getImage(ours)
        .inspect()
        .catch(() => null),
    ).toBeNull();
    expect(await raw.getImage(theirs).inspect()).toMatchObject({ Id: theirs });
  });
});
