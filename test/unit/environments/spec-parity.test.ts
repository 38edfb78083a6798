import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { harnessSpecFor, testCommandFor, type HarnessSpec, type SpecInstance } from "@/lib/environments/spec";

// Each case: a real SWE-bench row (the fields make_test_spec reads) and what SWE-bench's own harness generated for it
// at the pinned commit (test/fixtures/SOURCES.txt says how). No normalisation: texts are compared byte for byte.
type ParityCase = { input: Omit<SpecInstance, "failToPass" | "passToPass">; expected: HarnessSpec };

const corpusDir = path.join(import.meta.dirname, "../../fixtures/swe-bench-spec-parity");
const cases = readdirSync(corpusDir)
  .filter((name) => name.endsWith(".json"))
  .map((name) => JSON.parse(readFileSync(path.join(corpusDir, name), "utf8")) as ParityCase);

// The test lists do not change what the harness generates, so the corpus leaves them out.
const instanceOf = (input: ParityCase["input"]): SpecInstance => ({ ...input, failToPass: [], passToPass: [] });

describe("harnessSpecFor matches SWE-bench's harness byte for byte", () => {
  it("covers at least 40 instances across the 12 SWE-bench repositories", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(cases.map((c) => c.input.repo)).size).toBeGreaterThanOrEqual(12);
  });

  it.each(cases.map((c) => [c.input.instanceId, c] as const))("%s", (_id, { input, expected }) => {
    const result = harnessSpecFor(instanceOf(input));
    if (!result.ok) throw new Error(result.reason);
    for (const field of Object.keys(expected) as (keyof HarnessSpec)[]) {
      expect(result.spec[field], field).toEqual(expected[field]);
    }
    const testCommand = testCommandFor(instanceOf(input));
    expect(testCommand.ok && [testCommand.command, ...testCommand.directives].join(" ")).toBe(expected.testCommand);
  });
});
