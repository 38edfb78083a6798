import { describe, expect, it } from "vitest";
import { forbiddenFlagsFor, type EngineView } from "@/lib/worker-runtime/claim-flags";
import { JOB_FLAG, imageFlag } from "@/lib/jobs/job-flags";

const engine = (workerId: string, over: Partial<EngineView> = {}): EngineView => ({
  workerId,
  healthy: true,
  draining: false,
  hasRoom: true,
  imageHashes: [],
  ...over,
});

describe("which jobs a worker of the pool leaves to others", () => {
  it("leaves a run to an engine that holds its image and has room", () => {
    const self = engine("a", { imageHashes: ["h1"] });
    expect(forbiddenFlagsFor(self, [self, engine("b", { imageHashes: ["h1", "h2"] })])).toEqual([imageFlag("h2")]);
  });

  it("never defers to an engine that is busy, draining or down, so nothing starves", () => {
    const self = engine("a");
    const peers = [
      engine("busy", { hasRoom: false, imageHashes: ["h1"] }),
      engine("drain", { draining: true, imageHashes: ["h2"] }),
      engine("down", { healthy: false, imageHashes: ["h3"] }),
    ];
    expect(forbiddenFlagsFor(self, [self, ...peers])).toEqual([]);
  });

  it("takes no Docker job while its own engine is down and another can take it, but still imports", () => {
    expect(forbiddenFlagsFor(engine("a", { healthy: false }), [engine("b", { imageHashes: ["h1"] })])).toEqual([
      JOB_FLAG.docker,
    ]);
  });

  it("still claims when no engine of the pool can run, so the run is handed back with its reason", () => {
    const self = engine("a", { healthy: false });
    expect(forbiddenFlagsFor(self, [self, engine("b", { healthy: false }), engine("c", { draining: true })])).toEqual(
      [],
    );
  });

  it("takes nothing new while draining", () => {
    expect(forbiddenFlagsFor(engine("a", { draining: true }), [])).toEqual([JOB_FLAG.docker, JOB_FLAG.import]);
  });
});
