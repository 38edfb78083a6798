import { describe, expect, it } from "vitest";
import { whileEngineAnswers } from "@/lib/docker/engine-connection";

// The engine is the boundary faked here: its status answers are scripted. The integration
// pool test kills a real dockerd under running work.
const engineAnswering = (answers: boolean[]) => {
  let i = 0;
  return { status: async () => ({ reachable: answers[Math.min(i++, answers.length - 1)] }) as never };
};
const never = new Promise<string>(() => {});
const watch = { everyMs: 5, missedChecks: 3 };

describe("a long call to a Docker engine", () => {
  it("gives up with the caller's error once the engine misses the checks in a row, though the call itself never ends", async () => {
    const error = await whileEngineAnswers(
      engineAnswering([true, false, false, false]),
      never,
      (cause) => new Error(`engine gone: ${cause.message}`),
      watch,
    ).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("engine gone: the engine missed 3 checks in a row");
  });

  it("keeps waiting through fewer missed checks than the limit, and returns the call's own result", async () => {
    let finish!: (value: string) => void;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const engine = engineAnswering([false, false, true, false, false, true, true]);
    setTimeout(() => finish("exited 0"), 60);
    await expect(whileEngineAnswers(engine, work, () => new Error("gone"), watch)).resolves.toBe("exited 0");
  });

  it("passes the call's own failure on unchanged", async () => {
    await expect(
      whileEngineAnswers(
        engineAnswering([true]),
        Promise.reject(new Error("no such container")),
        () => new Error("gone"),
        watch,
      ),
    ).rejects.toThrow("no such container");
  });
});
