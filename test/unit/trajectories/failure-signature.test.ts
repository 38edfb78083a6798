import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { produceSweAgentTrajectory } from "../../../lib/imports/formats/swe-agent-trajectory/map";
import { OpenHandsStepper } from "../../../lib/imports/formats/openhands-trajectory/map";
import { chatSteps } from "../../../lib/imports/formats/chat-steps";
import type { StepRecord } from "../../../lib/imports/records/trajectory-record";
import {
  errorClassOf,
  failureSignature,
  NO_ERROR_SEEN,
  signatureKey,
  toolOf,
  type SignatureStep,
} from "../../../lib/trajectories/failure-signature";

// Real observations of public runs (test/fixtures, sources in test/fixtures/SOURCES.txt), read
// by the importers users use, then given their signature.
const fixture = (...parts: string[]) => path.resolve(import.meta.dirname, "../../fixtures", ...parts);
const indexed = (steps: StepRecord[]): SignatureStep[] =>
  steps.map((s, index) => ({ index, action: s.action, observation: s.observation, metadata: s.metadata }));

async function sweAgentSteps(file: string, from: "trajectory" | "history") {
  const steps: StepRecord[] = [];
  await produceSweAgentTrajectory(
    createReadStream(fixture(file)),
    path.basename(file),
    { add: async (s) => void steps.push(s) },
    from,
  );
  return indexed(steps);
}

function openHandsRuns(): SignatureStep[][] {
  return readFileSync(fixture("trajectories/openhands_multi_swe_bench_output.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const stepper = new OpenHandsStepper();
      return indexed([...(JSON.parse(line).history as unknown[]).flatMap((e) => stepper.add(e)), ...stepper.finish()]);
    });
}

const upTo = (steps: SignatureStep[], index: number) => steps.slice(0, index + 1).reverse();

describe("the error class of a real observation", () => {
  it("reads the exception a Python traceback ends with (SWE-agent's reproduce_bug.py run on pydicom)", async () => {
    const steps = await sweAgentSteps("swe-agent/pydicom__pydicom-1458.traj", "trajectory");
    expect(errorClassOf(steps[2].observation)).toBe("AttributeError");
    expect(toolOf(steps[2])).toBe("python");
  });

  it("reads SWE-agent's refused edit as an edit rejected by the edit tool", async () => {
    const steps = await sweAgentSteps("swe-agent/pydicom__pydicom-1458.traj", "trajectory");
    expect(failureSignature(upTo(steps, 7), [])).toMatchObject({
      errorClass: "edit rejected",
      tool: "edit",
      stepIndex: 7,
    });
  });

  it("reads OpenHands' missing program as command not found, and make's failure by its exit code", () => {
    const [ponyc] = openHandsRuns();
    const notFound = ponyc.findIndex((s) => s.observation?.includes("ponyc: command not found"));
    expect(notFound).toBeGreaterThan(0);
    expect(failureSignature(upTo(ponyc, notFound), [])).toMatchObject({
      errorClass: "command not found",
      stepIndex: notFound,
    });
    const make = ponyc.findIndex((s) => s.observation?.includes("make: *** [Makefile:192: build] Error 2"));
    expect(errorClassOf(ponyc[make].observation, ponyc[make].metadata)).toBe("exit 2");
  });

  it("does not call a successful step an error", async () => {
    const steps = await sweAgentSteps("swe-agent/pydicom__pydicom-1458.traj", "trajectory");
    expect(errorClassOf(steps[4].observation)).toBeNull(); // `open numpy_handler.py 293`: a file window
    expect(errorClassOf(steps[8].observation)).toBeNull(); // the edit it took
  });

  it("reads the timeout OpenHands reports, not the words of its instructions", () => {
    expect(errorClassOf("Command timed out. Sending SIGINT to the process")).toBe("timeout");
    const rows = JSON.parse(readFileSync(fixture("trajectories/swe-gym_openhands_sampled_trajectories.json"), "utf8"));
    const steps = indexed(chatSteps(rows[0].messages, "messages"));
    // the system prompt mentions timeouts; no step's observation of this run timed out
    expect(steps.map((s) => errorClassOf(s.observation, s.metadata))).not.toContain("timeout");
  });
});

describe("a failed trajectory's signature", () => {
  it("takes the last failing step, its tool and the candidate's failing tests, sorted", async () => {
    const steps = await sweAgentSteps("swe-agent/pydicom__pydicom-1458.traj", "trajectory");
    const signature = failureSignature(upTo(steps, 3), [
      "tests/test_b.py::t",
      "tests/test_a.py::t",
      "tests/test_b.py::t",
    ]);
    expect(signature).toEqual({
      errorClass: "AttributeError",
      tool: "python",
      failingTests: ["tests/test_a.py::t", "tests/test_b.py::t"],
      stepIndex: 2,
    });
    expect(signatureKey(signature)).toBe("AttributeError | python | tests/test_a.py::t,tests/test_b.py::t");
  });

  it("is the same for the same run every time, and says so when no observation shows an error", async () => {
    const steps = await sweAgentSteps("swe-agent/pydicom__pydicom-1458.traj", "trajectory");
    expect(failureSignature(upTo(steps, 1), [])).toEqual({
      errorClass: NO_ERROR_SEEN,
      tool: null,
      failingTests: [],
      stepIndex: null,
    });
    const [a, b] = [failureSignature([...steps].reverse(), []), failureSignature([...steps].reverse(), [])];
    expect(signatureKey(a)).toBe(signatureKey(b));
  });
});
