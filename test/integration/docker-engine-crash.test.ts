import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerForTests } from "../helpers/docker";
import { ownDockerd, whyNoOwnDockerd } from "../helpers/own-dockerd";
import { skipBecause } from "../helpers/skips";
import { waitFor } from "../helpers/worker";
import { createDockerEngine } from "@/lib/docker/dockerode-engine";
import { EngineStoppedError } from "@/lib/docker/docker-errors";
import { LABEL_MANAGED } from "@/lib/docker/container-labels";

// Issue 16.4: a Docker engine that dies (SIGKILL: dockerd, its containerd and shims) under a
// running container. Docker's wait call on that container never ends by itself: a worker
// waiting on it renewed its run's lease for ever, so the run never moved to another engine
// and the worker could not even stop. The run must end as "the engine stopped", an outage the
// queue retries elsewhere, and must not be judged.

const docker = await dockerForTests();
const BASE_IMAGE = process.env.BASE_IMAGE || "swe-curator/python-base:bookworm";

describe.skipIf(!docker.ready || skipBecause(whyNoOwnDockerd))(
  "when the Docker engine is killed under a running container (own dockerd)",
  () => {
    const engine = ownDockerd();

    beforeAll(async () => {
      await engine.start();
      engine.loadFromSharedEngine(BASE_IMAGE);
    }, 300_000);

    afterAll(async () => engine.cleanup());

    it("ends the run as the engine stopping, instead of waiting on the dead engine for ever", async () => {
      const engineClient = createDockerEngine({ DOCKER_HOST: engine.host });
      let containerId: string | null = null;
      const run = engineClient
        .runContainer({
          image: BASE_IMAGE,
          command: ["sh", "-c", "sleep 600"],
          labels: { [LABEL_MANAGED]: "true" },
          limits: { memoryMb: 256, cpus: 1, pids: 64, timeoutMs: 900_000 },
          onCreated: (id) => void (containerId = id),
        })
        .then(
          () => "finished as if the tests had run",
          (error: unknown) => error,
        );
      await waitFor(
        "the container to be running",
        async () => containerId && (await engine.client.getContainer(containerId).inspect()).State.Running,
        60_000,
      );
      await engine.crash();

      // a bound only so that a hang fails the test instead of the suite: the run's own limit is 15 minutes
      const outcome = await waitFor(
        "the run to end",
        () => Promise.race([run, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000))]),
        120_000,
        0,
      );
      expect(outcome).toBeInstanceOf(EngineStoppedError);
      expect((outcome as EngineStoppedError).message).toMatch(
        /stopped the container before the tests finished.*nothing it printed is judged/,
      );
      expect((outcome as EngineStoppedError).containerId).toBe(containerId);
    }, 240_000);
  },
);
