import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectFile, detectFormat, DETECTION_HEAD_BYTES } from "../../../lib/imports/formats/detect-format";

const fixtures = path.join(import.meta.dirname, "../../fixtures");
const head = (rel: string) => readFileSync(path.join(fixtures, rel)).subarray(0, DETECTION_HEAD_BYTES);
const detect = (rel: string) => detectFormat(path.basename(rel), head(rel));

describe("format detection from a file's first bytes", () => {
  it.each([
    ["swe-bench/swe-bench-lite-test.json", { kind: "records", format: "SWE_BENCH_INSTANCES", layout: "array" }],
    ["swe-bench/swe-bench-dev-easy.json", { kind: "records", format: "SWE_BENCH_INSTANCES", layout: "array" }],
    ["swe-agent/all_preds.jsonl", { kind: "records", format: "SWE_BENCH_PREDICTIONS", layout: "jsonl" }],
    ["swe-agent/pydicom__pydicom-1458.traj", { kind: "document", format: "SWE_AGENT_TRAJECTORY" }],
    ["swe-agent/swe-agent__test-repo-i1.traj", { kind: "document", format: "SWE_AGENT_TRAJECTORY" }],
    ["openhands/openhands_events__basic_interactions.json", { kind: "document", format: "OPENHANDS_TRAJECTORY" }],
    ["inspect/inspect_log__log_formats.json", { kind: "document", format: "INSPECT_LOG" }],
    [
      "harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json",
      { kind: "document", format: "SWE_BENCH_REPORT" },
    ],
    ["harness/testlog_pytest__pytest-dev__pytest-5227.golden.eval.log", { kind: "log", format: "SWE_BENCH_REPORT" }],
    [
      "harness/test_output__swesmith_pandas-dev__pandas.95280573.pr_53652.txt",
      { kind: "log", format: "SWE_BENCH_REPORT" },
    ],
    ["openswe/openswe_input__data.example.jsonl", { kind: "records", format: "OPENSWE_ENVIRONMENT", layout: "jsonl" }],
    [
      "openswe/openswe_output__tinymed.synthetic.jsonl",
      { kind: "records", format: "OPENSWE_ENVIRONMENT", layout: "jsonl" },
    ],
    ["openswe/env__local--tinymed--0001.synthetic.zip", { kind: "archive", archive: "zip" }],
    ["openswe/env__local--tinymed--0001.synthetic.tar.gz", { kind: "archive", archive: "tar.gz" }],
    ["swe-flow/sweflow_dataset__test_merge.jsonl", { kind: "records", format: "SWE_FLOW_STEPS", layout: "jsonl" }],
    [
      "swe-flow/sweflow_steps__tinyqueue.synthetic.jsonl",
      { kind: "records", format: "SWE_FLOW_STEPS", layout: "jsonl" },
    ],
    ["reviewer/reviewer_verdicts.synthetic.jsonl", { kind: "records", format: "REVIEWER_VERDICTS", layout: "jsonl" }],
    ["trajectories/swe-agent_function_calling_simple.traj", { kind: "document", format: "SWE_AGENT_TRAJECTORY" }],
    [
      "trajectories/mini-swe-agent_django__django-16255.traj.json",
      { kind: "document", format: "SWE_AGENT_TRAJECTORY" },
    ],
    ["trajectories/mini-swe-agent_preds.json", { kind: "records", format: "SWE_BENCH_PREDICTIONS", layout: "keyed" }],
    [
      "trajectories/openhands_multi_swe_bench_output.jsonl",
      { kind: "records", format: "OPENHANDS_TRAJECTORY", layout: "jsonl" },
    ],
    ["trajectories/inspect_log_tool_call_error.json", { kind: "document", format: "INSPECT_LOG" }],
    ["trajectories/inspect_log_message_deduplication.eval", { kind: "document", format: "INSPECT_LOG" }],
    [
      "trajectories/swe-gym_openhands_sampled_trajectories.json",
      { kind: "records", format: "OPENHANDS_TRAJECTORY", layout: "array" },
    ],
    ["r2e-gym/trajectory_aiohttp_216e0828.json", { kind: "records", format: "R2E_GYM_TRAJECTORY", layout: "single" }],
  ])("%s", (file, expected) => {
    expect(detect(file)).toEqual(expected);
  });

  it("knows R2E-Gym records as JSONL, and in forks that keep the chat `history` beside the steps", () => {
    const record = JSON.parse(readFileSync(path.join(fixtures, "r2e-gym/trajectory_aiohttp_216e0828.json"), "utf8"));
    expect(
      detectFormat("exp.jsonl", Buffer.from(JSON.stringify(record) + "\n" + JSON.stringify(record) + "\n")),
    ).toEqual({ kind: "records", format: "R2E_GYM_TRAJECTORY", layout: "jsonl" });
    const fork = {
      trajectory_steps: [],
      history: [{ role: "system", content: "You are a programming agent" }],
      ...record,
    };
    expect(detectFormat("run.json", Buffer.from(JSON.stringify(fork)))).toEqual({
      kind: "records",
      format: "R2E_GYM_TRAJECTORY",
      layout: "single",
    });
  });

  it("wraps a SWE-bench report in its instance id and still knows it", () => {
    const wrapped = JSON.stringify({
      "django__django-16255": { patch_is_None: false, resolved: true, tests_status: {} },
    });
    expect(detectFormat("report.json", Buffer.from(wrapped))).toEqual({ kind: "document", format: "SWE_BENCH_REPORT" });
  });

  it("refuses a binary file, an empty file and unknown JSON with a reason", () => {
    expect(detectFormat("x.json", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toMatchObject({
      kind: "unknown",
      reason: expect.stringMatching(/binary/),
    });
    expect(detectFormat("x.json", Buffer.alloc(0))).toMatchObject({ kind: "unknown", reason: "the file is empty" });
    expect(detectFormat("x.json", Buffer.from('{"hello": "world"}\n'))).toMatchObject({
      kind: "unknown",
      reason: expect.stringContaining("hello"),
    });
    expect(detectFormat("x.json", Buffer.from('[{"a": 1}]'))).toMatchObject({
      kind: "unknown",
      reason: expect.stringContaining("a"),
    });
  });

  it("says what a harness run summary is and what to import instead", () => {
    expect(
      detectFormat("report.json", Buffer.from('{"resolved": 3, "unresolved": 1, "total": 4, "ids_resolved": []}')),
    ).toMatchObject({
      kind: "unknown",
      reason: expect.stringContaining("per-instance report.json"),
    });
  });

  it("reads HF-style rows with JSON-encoded test lists as instances", () => {
    const row = { instance_id: "a__b-1", repo: "a/b", base_commit: "c", FAIL_TO_PASS: '["t1"]', PASS_TO_PASS: "[]" };
    expect(detectFormat("x.jsonl", Buffer.from(JSON.stringify(row) + "\n"))).toEqual({
      kind: "records",
      format: "SWE_BENCH_INSTANCES",
      layout: "jsonl",
    });
  });

  it("knows an Inspect .eval zip by its members, whatever its name", () => {
    const eval_ = readFileSync(path.join(fixtures, "trajectories/inspect_log_message_deduplication.eval"));
    expect(detectFormat("log.zip", eval_)).toEqual({ kind: "document", format: "INSPECT_LOG" });
    expect(detect("openswe/env__local--tinymed--0001.synthetic.zip")).toEqual({ kind: "archive", archive: "zip" });
  });

  it("reads past the first 256 KB when a .traj's first key holds a large value", async () => {
    const file = "trajectories/swe-agent_marshmallow-code__marshmallow-1867.traj";
    expect(detect(file)).toMatchObject({ kind: "unknown", incomplete: true });
    expect(await detectFile(path.join(fixtures, file), path.basename(file))).toEqual({
      kind: "document",
      format: "SWE_AGENT_TRAJECTORY",
    });
  });

  it("lists the top-level keys it saw, all of them, when nothing matches", async () => {
    const big = JSON.stringify({ notes: "x".repeat(DETECTION_HEAD_BYTES), author: "a", tags: [] });
    const file = path.join(tmpdir(), `unknown-${process.pid}.json`);
    writeFileSync(file, big);
    const detection = await detectFile(file, "notes.json");
    expect(detection).toMatchObject({ kind: "unknown", reason: expect.stringContaining("notes, author, tags") });
  });
});
