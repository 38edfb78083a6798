import { describe, expect, it } from "vitest";
import { reportsOomKill } from "@/lib/docker/container-sandbox";

// The sandbox's own out-of-memory report, read from the end of a run's output: it stands in
// for the engine's OOMKilled flag, which the runtime drops when the container exits soon after.
describe("the sandbox's out-of-memory report", () => {
  it("is read from the end of the output, after the test's own last lines", () => {
    const tail = "Killed\n[swe-curator] out of memory: the kernel ended 2 process(es) of this run\n";
    expect(reportsOomKill(`collected 3 items\n${tail}`)).toBe(true);
  });

  it("is not claimed by a run that printed no report, or a report of none", () => {
    expect(reportsOomKill("3 passed in 0.2s\nOPENSWE_EXIT_CODE=0\n")).toBe(false);
    expect(reportsOomKill("[swe-curator] out of memory: the kernel ended 0 process(es) of this run\n")).toBe(false);
    expect(reportsOomKill("out of memory: the kernel ended 1 process\n")).toBe(false);
  });
});
