import { describe, expect, it } from "vitest";
import { waitForExit } from "@/lib/docker/container-run";
import { EngineStoppedError } from "@/lib/docker/docker-errors";
import type { EngineConnection } from "@/lib/docker/engine-connection";

// Issue 27.6: a dockerd killed and started again between two engine checks leaves our wait on
// the container pending for ever (Docker's wait never settles after a SIGKILL of dockerd), and
// the worker used to wait until its own timer called the run a TIMEOUT. The engine here is a
// fake at the dockerode boundary: it answers every check, and reports the container stopped.

const engine = {
  endpoint: "unix:///fake/docker.sock",
  status: async () => ({ reachable: true, endpoint: "unix:///fake/docker.sock" }),
} as unknown as EngineConnection;
const never = () => new Promise<never>(() => {});
const state = (running: boolean) => ({
  State: {
    Running: running,
    Status: running ? "running" : "exited",
    ExitCode: running ? 0 : 143,
    FinishedAt: "2026-12-05T21:00:00Z",
    Error: "",
  },
});

describe("waiting for a container's exit", () => {
  it("ends a wait the engine dropped as the engine's fault, in its own words, instead of waiting for the timeout", async () => {
    const container = { id: "c1", wait: never, inspect: async () => state(false) } as never;
    const error = await waitForExit(engine, container, 20).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineStoppedError);
    expect((error as Error).message).toBe(
      "The Docker engine at unix:///fake/docker.sock stopped the container before the tests finished (the engine says the container is exited with exit code 143 since 2026-12-05T21:00:00Z, yet never answered our wait for it); nothing it printed is judged",
    );
  });

  it("ends the wait when the engine no longer knows the container", async () => {
    const gone = Object.assign(new Error("(HTTP code 404) no such container - No such container: c2"), {
      statusCode: 404,
    });
    const container = { id: "c2", wait: never, inspect: async () => Promise.reject(gone) } as never;
    const error = await waitForExit(engine, container, 20).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(
      /stopped the container before the tests finished \(the engine no longer knows the container: .*No such container: c2\)/,
    );
  });

  it("returns the exit of a container that ends while the engine answers its wait, and of one still running meanwhile", async () => {
    let checks = 0;
    let settle: (exit: { StatusCode: number }) => void = () => {};
    const container = {
      id: "c3",
      wait: () => new Promise<{ StatusCode: number }>((resolve) => (settle = resolve)),
      inspect: async () => {
        if (++checks === 5) settle({ StatusCode: 1 });
        return state(true);
      },
    } as never;
    await expect(waitForExit(engine, container, 20)).resolves.toEqual({ exit: { StatusCode: 1 }, blinked: false });
  });
});
