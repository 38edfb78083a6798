import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFile } from "@/lib/imports/import-file";
import { createTestDatabase, type TestDatabase } from "../helpers/database";

// An empty submission is no candidate, on every path that can carry one: predictions as JSONL,
// a JSON list or an object keyed by instance id, a SWE-agent .traj, an OpenHands output.jsonl
// line, an R2E-Gym run and a harness run folder's patch.diff. Property: whatever blank text
// (or null) stands for the patch, importing it stores no CandidatePatch. The files are real
// samples (test/fixtures) with only their patch replaced.

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const TASK = "pydicom__pydicom-1458";
const MODEL = "some-org/some-model";

type Writer = (dir: string, patch: string | null, model?: string) => string;

const json = (file: string, value: unknown) => (writeFileSync(file, JSON.stringify(value)), file);

const WRITERS: Record<string, Writer> = {
  "predictions JSONL": (dir, patch, model = MODEL) => {
    const file = path.join(dir, "preds.jsonl");
    writeFileSync(file, JSON.stringify({ instance_id: TASK, model_name_or_path: model, model_patch: patch }) + "\n");
    return file;
  },
  "predictions JSON list": (dir, patch, model = MODEL) =>
    json(path.join(dir, "preds.json"), [{ instance_id: TASK, model_name_or_path: model, model_patch: patch }]),
  "predictions keyed by instance": (dir, patch, model = MODEL) =>
    json(path.join(dir, "all_preds.json"), {
      [TASK]: { instance_id: TASK, model_name_or_path: model, model_patch: patch },
    }),
  "SWE-agent .traj": (dir, patch) => {
    const traj = JSON.parse(readFileSync(fixture("swe-agent/pydicom__pydicom-1458.traj"), "utf8"));
    traj.info.submission = patch;
    return json(path.join(dir, `${TASK}.traj`), traj);
  },
  "OpenHands output.jsonl": (dir, patch, model = MODEL) => {
    const file = path.join(dir, "output.jsonl");
    writeFileSync(
      file,
      JSON.stringify({
        instance_id: TASK,
        instruction: "fix",
        history: [],
        metadata: { llm_config: { model } },
        test_result: { git_patch: patch },
        metrics: {},
      }) + "\n",
    );
    return file;
  },
  "R2E-Gym run": (dir, patch) => {
    const run = JSON.parse(readFileSync(fixture("r2e-gym/trajectory_aiohttp_216e0828.json"), "utf8"));
    // the dataset row names the task, as in runs on SWE-bench rows
    return json(path.join(dir, "r2e.json"), { ...run, ds: { instance_id: TASK }, output_patch: patch });
  },
  "harness run folder": (dir, patch) => {
    const folder = path.join(dir, "run_evaluation", "nightly", MODEL.replace("/", "__"), TASK);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, "test_output.txt"),
      readFileSync(fixture("harness/test_output__swesmith_pandas-dev__pandas.95280573.pr_53652.txt")),
    );
    if (patch !== null) writeFileSync(path.join(folder, "patch.diff"), patch);
    return path.join(dir, "run_evaluation");
  },
};

const blank = fc.oneof(
  fc.constant(null),
  fc.array(fc.constantFrom("", " ", "\t", "\n", "\r\n"), { maxLength: 6 }).map((parts) => parts.join("")),
);

describe("an empty patch is never a candidate", () => {
  let db: TestDatabase;
  let scratch: string;
  beforeAll(async () => {
    db = await createTestDatabase();
    scratch = mkdtempSync(path.join(tmpdir(), "empty-patches-"));
    expect((await importFile(db.prisma, fixture("swe-bench/swe-bench-dev-easy.json"))).failed).toBe(0);
  });
  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    await db?.drop();
  });

  for (const [name, write] of Object.entries(WRITERS)) {
    it(`${name}: a blank or missing patch stores no CandidatePatch`, async () => {
      await fc.assert(
        fc.asyncProperty(blank, async (patch) => {
          const dir = mkdtempSync(path.join(scratch, "case-"));
          await importFile(db.prisma, write(dir, patch));
          expect(await db.prisma.candidatePatch.count({ where: { task: { instanceId: TASK } } })).toBe(0);
        }),
        { numRuns: 6 },
      );
    });
  }

  it("the same files with a real patch each store one (the property is not vacuous)", async () => {
    const patch = readFileSync(fixture("swe-agent/pydicom__pydicom-1458.patch"), "utf8");
    const writers = Object.values(WRITERS);
    for (const [i, write] of writers.entries()) {
      const dir = mkdtempSync(path.join(scratch, "real-"));
      // a model and a patch of its own per path, so no path finds another's candidate
      const model = `${MODEL}-${i}`;
      const batch = await importFile(db.prisma, write(dir, `${patch}# path ${i}\n`, model), { generator: model });
      expect(batch.errors, `path ${i}`).toEqual([]);
    }
    const stored = await db.prisma.candidatePatch.findMany({
      where: { task: { instanceId: TASK } },
      select: { generator: true },
    });
    expect(stored.map((c) => c.generator).sort()).toEqual(writers.map((_, i) => `${MODEL}-${i}`).sort());
  });
});
