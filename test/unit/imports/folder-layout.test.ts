import { describe, expect, it } from "vitest";
import { harnessPlace, parseResultsFile } from "@/lib/imports/formats/folder-layout";

// Where the harnesses put model and run in a path; only their own markers count.

describe("harnessPlace", () => {
  it("reads SWE-bench's run_evaluation/<run_id>/<model>/<instance_id>, turning __ back into /", () => {
    expect(
      harnessPlace(["home", "logs", "run_evaluation", "nightly", "openai__gpt-4o", "django__django-15781"]),
    ).toEqual({ layout: "swe-bench-run", runId: "nightly", model: "openai/gpt-4o" });
  });

  it("reads SWE-smith's run_evaluation/<run_id>/<instance_id> as a run without a model in the path", () => {
    expect(harnessPlace(["run_evaluation", "exp9", "pandas-dev__pandas.95280573.pr_53652"])).toEqual({
      layout: "swe-bench-run",
      runId: "exp9",
      model: null,
    });
  });

  it("tells SWE-smith's run_validation apart, and names nothing from other folders such as logs", () => {
    expect(harnessPlace(["logs", "run_validation", "r1", "x__y.1"])).toMatchObject({
      layout: "swe-smith-validation",
      runId: "r1",
    });
    expect(harnessPlace(["tmp", "logs", "django__django-15781"])).toEqual({
      layout: "harness-folder",
      runId: null,
      model: null,
    });
  });
});

describe("parseResultsFile", () => {
  it("reads SWE-bench's resolved_ids and SWE-smith's ids_resolved, and nothing else", () => {
    expect(
      parseResultsFile(JSON.stringify({ resolved_ids: ["a"], unresolved_ids: ["b"], completed_ids: ["a", "b"] })),
    ).toEqual({ resolved: new Set(["a"]), judged: new Set(["a", "b"]) });
    expect(parseResultsFile(JSON.stringify({ ids_resolved: ["a"], ids_unresolved: ["c"] }))?.judged).toEqual(
      new Set(["a", "c"]),
    );
    expect(parseResultsFile(JSON.stringify({ "x__y-1": { resolved: true } }))).toBeNull();
    expect(parseResultsFile("not json")).toBeNull();
  });
});
