import { createReadStream } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { produceSweAgentTrajectory, type StepsFrom } from "../../../lib/imports/formats/swe-agent-trajectory/map";
import type { StepRecord } from "../../../lib/imports/records/trajectory-record";
import { classifyStep } from "../../../lib/trajectories/step-kind";
import { alignSteps } from "../../../lib/trajectories/compare";

const fixture = (...parts: string[]) => path.resolve(import.meta.dirname, "../../fixtures", ...parts);

async function rows(file: string, from: StepsFrom = "trajectory") {
  const steps: StepRecord[] = [];
  await produceSweAgentTrajectory(
    createReadStream(fixture(file)),
    path.basename(file),
    { add: async (s) => void steps.push(s) },
    from,
  );
  return steps.map((s, index) => ({ index, kind: classifyStep(s), summary: (s.action ?? "").slice(0, 160) }));
}

describe("aligning two trajectories by what they did", () => {
  it("pairs two runs on the same task act by act although they quote and edit differently", async () => {
    const a = await rows("swe-agent/swe-agent__test-repo-i1.traj");
    const b = await rows("trajectories/swe-agent_function_calling_simple.traj", "history");
    const aligned = alignSteps(a, b);
    expect(aligned.map((r) => [r.a?.index, r.b?.index])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    // the two edits changed the same line in different ways: paired, but not the same act
    expect(aligned.map((r) => r.same)).toEqual([true, true, false, true, true]);
  });

  it("leaves a gap where one side took steps the other did not, instead of shifting every later pair", async () => {
    const full = await rows("swe-agent/pydicom__pydicom-1458.traj");
    const withoutRefusedEdits = full.filter((r) => r.kind !== "ERROR");
    const aligned = alignSteps(full, withoutRefusedEdits);
    expect(aligned).toHaveLength(12);
    expect(aligned.filter((r) => r.b === null).map((r) => r.a!.index)).toEqual([5, 6, 7]);
    expect(aligned.filter((r) => r.a && r.b).every((r) => r.a!.index === r.b!.index && r.same)).toBe(true);
  });
});
