import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliImportInProcess as cliImport } from "../helpers/swe-curator-cli";
import { importTestBed } from "../helpers/imports";

// What the user says (--generator, the upload form's generator) wins on every importer path that
// reads a model from the file — predictions, SWE-agent .traj, OpenHands output.jsonl and event
// arrays, R2E-Gym runs, Inspect logs (harness run folders: harness-run-folders.test.ts) — and a
// file naming another model is told once in the batch's summary, however many records it holds.
// The command runs inside this process (the binary's boundary is imports-cli.test.ts's).

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const CONFLICT =
  /The generator you gave \("user\/model"\) was used for every result, although the files name another model \("([^"]+)"/g;

type Path = { name: string; file: string; format: string; fileModel: string; runs: number };
const PATHS: Path[] = [
  {
    name: "predictions JSONL",
    file: fixture("swe-agent/all_preds.jsonl"),
    format: "SWE_BENCH_PREDICTIONS",
    fileModel: "gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1",
    runs: 1,
  },
  {
    name: "SWE-agent .traj",
    file: fixture("trajectories/swe-agent_marshmallow-code__marshmallow-1867.traj"),
    format: "SWE_AGENT_TRAJECTORY",
    fileModel: "replay",
    runs: 1,
  },
  {
    name: "OpenHands output.jsonl (3 runs)",
    file: fixture("trajectories/openhands_multi_swe_bench_output.jsonl"),
    format: "OPENHANDS_TRAJECTORY",
    fileModel: "openai/openrouter-llama-4-maverick",
    runs: 3,
  },
  {
    name: "OpenHands event array",
    file: fixture("openhands/openhands_events__basic_interactions.json"),
    format: "OPENHANDS_TRAJECTORY",
    fileModel: "gpt-4o-2024-08-06",
    runs: 1,
  },
  {
    name: "R2E-Gym run",
    file: fixture("r2e-gym/trajectory_aiohttp_216e0828.json"),
    format: "R2E_GYM_TRAJECTORY",
    fileModel: "hosted_vllm//home/claude/work/rllm/models/Qwen3-32B",
    runs: 1,
  },
  {
    name: "Inspect log",
    file: fixture("inspect/inspect_log__log_formats.json"),
    format: "INSPECT_LOG",
    fileModel: "ollama/llama3.1",
    runs: 1,
  },
];

describe("an explicit generator wins on every importer path", () => {
  const bed = importTestBed("user-generator-");

  const trajectoriesOf = async (generator: string) =>
    (await bed.db.prisma.trajectory.findMany({ select: { metadata: true } })).filter(
      (t) => (t.metadata as { generator?: string | null }).generator === generator,
    ).length;

  it("the predictions' task exists", async () => {
    const task = {
      instance_id: "pydicom__pydicom-1458",
      repo: "pydicom/pydicom",
      base_commit: "8112bb69bfc0423c3a3cb7ce1a0de2e1b3c3d2b8",
      problem_statement: "p",
      FAIL_TO_PASS: ["t"],
      PASS_TO_PASS: [],
    };
    writeFileSync(path.join(bed.dir, "tasks.jsonl"), JSON.stringify(task) + "\n");
    expect((await cliImport([path.join(bed.dir, "tasks.jsonl")], bed.env)).batches[0]).toMatchObject({
      status: "SUCCEEDED",
      created: 1,
    });
  });

  for (const { name, file, format, fileModel, runs } of PATHS) {
    it(`${name}: every record is the user's, and the file's other model is told once`, async () => {
      const before = await trajectoriesOf("user/model");
      const { batches } = await cliImport([file], bed.env, undefined, ["--generator", "user/model"]);
      expect(batches[0]).toMatchObject({ status: "SUCCEEDED", format, failed: 0 });
      const told = [...(batches[0].summary as string).matchAll(CONFLICT)].map((m) => m[1]);
      expect(told).toEqual([fileModel]);
      if (format === "SWE_BENCH_PREDICTIONS") {
        const candidates = await bed.db.prisma.candidatePatch.findMany({
          where: { task: { instanceId: "pydicom__pydicom-1458" } },
          select: { generator: true },
        });
        expect(candidates.map((c) => c.generator)).toEqual(["user/model"]);
      } else {
        expect((await trajectoriesOf("user/model")) - before).toBe(runs);
        expect(await trajectoriesOf(fileModel)).toBe(0);
      }
    });
  }

  it("relabels an Inspect sample imported before under the file's model when it is imported again with --generator", async () => {
    const file = fixture("trajectories/inspect_log_tool_call_error.json");
    expect((await cliImport([file], bed.env)).batches[0]).toMatchObject({ status: "SUCCEEDED", created: 1 });
    const before = await trajectoriesOf("someone/else");
    const { batches } = await cliImport([file], bed.env, undefined, ["--generator", "someone/else"]);
    expect(batches[0]).toMatchObject({ status: "SUCCEEDED", updated: 1, created: 0 });
    expect((await trajectoriesOf("someone/else")) - before).toBe(1);
  });
});
