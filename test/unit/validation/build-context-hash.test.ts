import { describe, expect, it } from "vitest";
import { buildContextHash, imageTagFor } from "@/lib/environments/build-context-hash";
import { revisionBuildContext } from "@/lib/builds/revision-build-context";
import { patchesFor, validationContainerFiles } from "@/lib/runs/validation-container";
import { workerConfigFromEnv } from "@/lib/worker-runtime/worker-config";

const context = {
  dockerfile: "FROM base\nCOPY repo/ /testbed/\n",
  contextFiles: { "repo/a.py": "a = 1\n", "repo/b.py": "b = 2\n" },
  buildArgs: {},
};

describe("the build-context hash that keys images", () => {
  it("ignores the eval script and the order of files, and changes with any byte of the context", () => {
    const hash = buildContextHash(context);
    expect(buildContextHash({ ...context, contextFiles: { "repo/b.py": "b = 2\n", "repo/a.py": "a = 1\n" } })).toBe(
      hash,
    );
    expect(buildContextHash({ ...context, dockerfile: context.dockerfile + "RUN true\n" })).not.toBe(hash);
    expect(
      buildContextHash({ ...context, contextFiles: { ...context.contextFiles, "repo/a.py": "a = 2\n" } }),
    ).not.toBe(hash);
    expect(buildContextHash({ ...context, buildArgs: { BASE_IMAGE: "python:3.11-slim" } })).not.toBe(hash);
    // no two contexts concatenate alike
    expect(buildContextHash({ ...context, contextFiles: { "repo/ab": "" } })).not.toBe(
      buildContextHash({ ...context, contextFiles: { "repo/a": "b" } }),
    );
    expect(imageTagFor(hash)).toMatch(/^swe-curator\/env:[0-9a-f]{24}$/);
  });

  it("two revisions differing only in their eval script share an image tag", () => {
    const environment = { contextFiles: context.contextFiles, memoryMb: null };
    // whole revisions, as stored: the eval script travels with them
    const revision = { dockerfile: context.dockerfile, evalScript: "#!/bin/bash\npytest -rA tests\n", environment };
    const evalEdited = {
      ...revision,
      evalScript: "#!/bin/bash\npytest -rA -x tests/test_ops.py\necho OPENSWE_EXIT_CODE=$?\n",
    };
    expect(revisionBuildContext(evalEdited, {}).tag).toBe(revisionBuildContext(revision, {}).tag);
    // while any change to what is built gives another tag: the tag is not a constant
    expect(revisionBuildContext({ ...revision, dockerfile: `${revision.dockerfile}RUN true\n` }, {}).tag).not.toBe(
      revisionBuildContext(revision, {}).tag,
    );
    expect(
      revisionBuildContext(
        { ...revision, environment: { ...environment, contextFiles: { "repo/a.py": "a = 2\n" } } },
        {},
      ).tag,
    ).not.toBe(revisionBuildContext(revision, {}).tag);
    expect(() =>
      revisionBuildContext(
        { dockerfile: "FROM x", environment: { contextFiles: ["not", "a", "map"], memoryMb: null } },
        {},
      ),
    ).toThrow(/path → text/);
  });
});

describe("what goes into a validation container", () => {
  it("carries the patches in order (test before fix), the eval script and the runner, never applied on the host", () => {
    const task = { testPatch: "diff --git a/t b/t\n", fixPatch: "diff --git a/f b/f" };
    const files = validationContainerFiles(patchesFor("POSITIVE_CONTROL", task), "pytest\n");
    expect(Object.keys(files).sort()).toEqual([
      "/swe-curator/eval.sh",
      "/swe-curator/patches/1-test.patch",
      "/swe-curator/patches/2-fix.patch",
      "/swe-curator/run.sh",
    ]);
    expect(files["/swe-curator/patches/2-fix.patch"]).toBe("diff --git a/f b/f\n");
    expect(Object.keys(validationContainerFiles(patchesFor("NEGATIVE_CONTROL", task), ""))).not.toContain(
      "/swe-curator/patches/2-fix.patch",
    );
    expect(patchesFor("CANDIDATE", task, "diff --git a/c b/c\n").map((p) => p.name)).toEqual(["test", "candidate"]);
  });
});

describe("worker settings", () => {
  it("have safe defaults and refuse nonsense with a message naming the setting", () => {
    expect(workerConfigFromEnv({})).toMatchObject({
      concurrency: 1,
      leaseMs: 30_000,
      limits: { memoryMb: 2048, cpus: 1, pids: 512, timeoutSeconds: 1800 },
    });
    expect(() => workerConfigFromEnv({ WORKER_LEASE_MS: "soon" })).toThrow(/WORKER_LEASE_MS/);
  });
});
