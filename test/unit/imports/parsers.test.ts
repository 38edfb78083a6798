import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSweBenchInstance, detectInstanceSource } from "../../../lib/imports/formats/swe-bench-instances/map";
import { parsePrediction } from "../../../lib/imports/formats/swe-bench-predictions/import";
import { parseOpenSweRow } from "../../../lib/imports/formats/openswe-environment/map";
import { parseSweFlowStep } from "../../../lib/imports/formats/swe-flow-steps/map";
import { parseReviewerVerdict, ReviewerVerdictSchema } from "../../../lib/imports/formats/reviewer-verdicts/import";
import { produceSweAgentTrajectory } from "../../../lib/imports/formats/swe-agent-trajectory/map";
import { OpenHandsStepper, openHandsHeader } from "../../../lib/imports/formats/openhands-trajectory/map";
import { inspectSample } from "../../../lib/imports/formats/inspect-log/map";
import {
  harnessResultFromReport,
  identifyLog,
  reportEntries,
  testsFromLog,
} from "../../../lib/imports/formats/swe-bench-report/map";
import { parseEnvironmentFolder } from "../../../lib/imports/formats/environment-folder/map";
import type { StepRecord } from "../../../lib/imports/records/trajectory-record";

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../../fixtures", ...parts);
const json = (...parts: string[]) => JSON.parse(readFileSync(fixture(...parts), "utf8"));
const jsonl = (...parts: string[]) =>
  readFileSync(fixture(...parts), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));

async function sweAgent(file: string) {
  const steps: StepRecord[] = [];
  const header = await produceSweAgentTrajectory(
    createReadStream(fixture("swe-agent", file)),
    file,
    { add: async (s) => void steps.push(s) },
    "trajectory",
  );
  return { header, steps };
}

describe("SWE-bench instances", () => {
  it("reads the Lite test sample: lists, the repo, commits and version", () => {
    const rows = json("swe-bench/swe-bench-lite-test.json").map((row: unknown) => parseSweBenchInstance(row));
    expect(rows.map((r: { instanceId: string }) => r.instanceId)).toEqual([
      "django__django-16255",
      "sympy__sympy-13031",
      "pytest-dev__pytest-11143",
      "scikit-learn__scikit-learn-13584",
      "django__django-15781",
    ]);
    const [django] = rows;
    expect(django.repository).toEqual({ owner: "django", name: "django", url: "https://github.com/django/django" });
    expect(django.environment).toMatchObject({
      key: "django__django@444b6da7cc229a58a2c476a52e45233001dc7073",
      setupCommit: "0fbdb9784da915fce5dcc1fe82bac9b4785749e5",
      version: "4.2",
      source: "SWE_BENCH",
      recipe: null,
    });
    expect(django.task.failToPass).toEqual([
      "test_callable_sitemod_no_items (sitemaps_tests.test_http.HTTPSitemapTests)",
    ]);
    expect(django.task.hintsText).toBe("Thanks for the report.\nThe default argument of max() can be used.");
    expect(django.task.fixPatch).toMatch(/^diff --git a\/django\/contrib\/sitemaps\/__init__.py/);
    expect(django.task.issueCreatedAt?.toISOString()).toBe("2022-11-04T13:49:40.000Z");
    expect(django.task.metadata).toBeNull();
    expect(rows[4].task.failToPass).toEqual(["BaseCommand.create_parser() passes kwargs to CommandParser."]);
    expect(rows[3].task.hintsText).toBe("");
  });

  it("keeps SWE-agent's extra fields (query, task_id) in metadata", () => {
    const [pydicom] = json("swe-bench/swe-bench-dev-easy.json").map((row: unknown) => parseSweBenchInstance(row));
    expect(pydicom.instanceId).toBe("pydicom__pydicom-1458");
    expect(pydicom.task.metadata).toMatchObject({
      task_id: "pydicom__pydicom-1458",
      query: expect.stringMatching(/^Pixel Representation attribute should be optional/),
    });
    expect(pydicom.task.failToPass[0]).toBe(
      "pydicom/tests/test_numpy_pixel_data.py::TestNumpy_GetPixelData::test_missing_required_elem_pixel_data_monochrome",
    );
    expect(pydicom.environment.version).toBe("2.2");
  });

  it("decodes the Hugging Face export's JSON-encoded test lists and Verified's difficulty", () => {
    const [row] = json("swe-bench/swe-bench-lite-test.json");
    const hf = {
      ...row,
      FAIL_TO_PASS: JSON.stringify(row.FAIL_TO_PASS),
      PASS_TO_PASS: "[]",
      difficulty: "15 min - 1 hour",
    };
    const record = parseSweBenchInstance(hf);
    expect(record.task.failToPass).toEqual(row.FAIL_TO_PASS);
    expect(record.task.passToPass).toEqual([]);
    expect(record.task.difficulty).toBe("MEDIUM");
  });

  it("rejects wrong types with the field that is wrong", () => {
    const [row] = json("swe-bench/swe-bench-lite-test.json");
    expect(() => parseSweBenchInstance({ ...row, FAIL_TO_PASS: 42 })).toThrow(/FAIL_TO_PASS/);
    expect(() => parseSweBenchInstance({ ...row, FAIL_TO_PASS: "[1, 2]" })).toThrow(/not a list of strings/);
    expect(() => parseSweBenchInstance({ ...row, repo: "django" })).toThrow(/owner\/name/);
    expect(() => parseSweBenchInstance({ ...row, instance_id: undefined })).toThrow(/instance_id/);
  });

  it("tells SWE-smith, SWE-rebench and SWE-Gym rows apart and keeps their image fields", () => {
    const smith = {
      instance_id: "pandas-dev__pandas.95280573.pr_53652",
      repo: "swesmith/pandas-dev__pandas.95280573",
      base_commit: "pr_53652",
      patch: "",
      image_name: "swesmith.x86_64.pandas-dev_1776_pandas.95280573",
    };
    expect(detectInstanceSource(smith)).toBe("SWE_SMITH");
    const record = parseSweBenchInstance(smith);
    expect(record.task.source).toBe("SWE_SMITH");
    expect(record.task.metadata).toEqual({ image_name: "swesmith.x86_64.pandas-dev_1776_pandas.95280573" });
    expect(
      detectInstanceSource({
        instance_id: "a__b-1",
        install_config: { test_cmd: "pytest" },
        docker_image: "swerebench/sweb.eval.x86_64.a_1776_b-1",
      }),
    ).toBe("SWE_REBENCH");
    expect(detectInstanceSource({ instance_id: "a__b-1", docker_image: "xingyaoww/sweb.eval.x86_64.a_s_b-1" })).toBe(
      "SWE_GYM",
    );
    expect(detectInstanceSource({ instance_id: "a__b-1" }, "swe-gym-train.jsonl")).toBe("SWE_GYM");
  });
});

describe("SWE-bench predictions", () => {
  it("reads all_preds.jsonl as a candidate patch of its generator", () => {
    const [prediction] = jsonl("swe-agent/all_preds.jsonl").map((row) => parsePrediction(row));
    expect(prediction.instanceId).toBe("pydicom__pydicom-1458");
    expect(prediction.generator).toBe(
      "gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1",
    );
    // the .patch beside it lost a context line's trailing space; the prediction is the source of truth
    expect(prediction.patch).toMatch(/^\ndiff --git a\/pydicom\/pixel_data_handlers\/numpy_handler.py/);
    expect(prediction.patch).toContain("+        required_elements.append('PixelRepresentation')");
    expect(prediction.patch).toHaveLength(803);
  });

  it("refuses an empty or null patch as no candidate, and needs a generator", () => {
    for (const empty of [null, "", "  \n"])
      expect(() => parsePrediction({ instance_id: "a__b-1", model_name_or_path: "m", model_patch: empty })).toThrow(
        /model_patch is empty, so there is no candidate/,
      );
    expect(() => parsePrediction({ instance_id: "a__b-1", model_patch: "" })).toThrow(/model_name_or_path/);
  });
});

describe("SWE-agent trajectories", () => {
  it("reads the 0.x pydicom run: 12 steps, parsed state, tokens and cost", async () => {
    const { header, steps } = await sweAgent("pydicom__pydicom-1458.traj");
    expect(header).toMatchObject({
      instanceId: "pydicom__pydicom-1458",
      format: "SWE_AGENT",
      exitStatus: "submitted",
      tokensIn: 122612,
      tokensOut: 1369,
      costUsd: 1.26719,
    });
    expect(header.metadata).toMatchObject({ environment: "swe_main", sweAgentVersion: "0.x", apiCalls: 12 });
    expect(steps).toHaveLength(12);
    expect(steps[0]).toMatchObject({
      action: "create reproduce_bug.py\n",
      observation: "[File: /pydicom__pydicom/reproduce_bug.py (1 lines total)]\n1:\n",
    });
    expect(steps[0].metadata?.state).toEqual({ open_file: "n/a", working_dir: "/pydicom__pydicom" });
    expect(steps[0].thought).toMatch(/^First, I'll create a new Python script to reproduce the bug/);
    expect(header.submission).toBe(JSON.parse(readFileSync(fixture("swe-agent/all_preds.jsonl"), "utf8")).model_patch);
  });

  it("reads the 0.x test-repo run", async () => {
    const { header, steps } = await sweAgent("swe-agent__test-repo-i1.traj");
    expect(header).toMatchObject({
      instanceId: "swe-agent__test-repo-i1",
      tokensIn: 52861,
      tokensOut: 326,
      costUsd: 0.53839,
    });
    expect(steps.map((s) => s.action)).toEqual([
      'find_file "missing_colon.py"\n',
      "open tests/missing_colon.py\n",
      "edit 4:4\ndef division(a: float, b: float) -> float:\nend_of_edit\n",
      "python tests/missing_colon.py\n",
      "submit\n",
    ]);
    expect(steps[3].observation).toBe("8.2\n");
  });
});

describe("OpenHands event streams", () => {
  it("turns the basic-interactions events into steps with the finish call's tokens", () => {
    const stepper = new OpenHandsStepper();
    const steps = json("openhands/openhands_events__basic_interactions.json").flatMap((e: unknown) => stepper.add(e));
    steps.push(...stepper.finish());
    expect(steps).toHaveLength(6);
    expect(steps[0]).toMatchObject({
      thought: null,
      observation: "what's 1+1?",
      metadata: expect.objectContaining({ source: "user", eventId: 0 }),
    });
    expect(steps[1]).toMatchObject({
      thought: "1 + 1 equals 2.",
      metadata: expect.objectContaining({ source: "agent", kind: "message" }),
    });
    expect(steps[5]).toMatchObject({ action: "finish", tokensIn: 2473, tokensOut: 10 });
    const header = openHandsHeader(stepper, { instanceId: null });
    expect(header).toMatchObject({
      format: "OPENHANDS",
      model: "gpt-4o-2024-08-06",
      tokensIn: 2473,
      tokensOut: 10,
      exitStatus: "finished",
    });
  });
});

describe("Inspect AI logs", () => {
  it("reads the log_formats sample: the model, its answer and score", () => {
    const log = json("inspect/inspect_log__log_formats.json");
    const { externalId, header, steps } = inspectSample(log.samples[0], log.eval, "log.json");
    expect(externalId).toBe("inspect:BpiPFmbVcMCRUAXv8ovCTx:1:1");
    expect(header).toMatchObject({
      format: "INSPECT",
      model: "ollama/llama3.1",
      tokensIn: 66,
      tokensOut: 2,
      instanceId: "1",
    });
    expect(header.metadata).toMatchObject({ task: "popularity", scores: { match: { value: "I", answer: "No" } } });
    expect(steps).toEqual([expect.objectContaining({ action: "No", observation: null })]);
  });
});

describe("SWE-bench harness results", () => {
  it("reads SWE-smith's unwrapped report.json with its test buckets", () => {
    const [entry] = reportEntries(json("harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json"));
    expect(entry.instanceId).toBeNull();
    expect(entry.report.model_name_or_path).toBe("swesmith_gen__claude-3.7__t-0.00_p-1.00__c.2.00__exp9__ig_orig");
    const result = harnessResultFromReport({
      instanceId: "pandas-dev__pandas.95280573.pr_53652",
      generator: entry.report.model_name_or_path!,
      report: entry.report,
      log: null,
      patch: null,
    });
    expect(result.resolved).toBe(true);
    expect(result.flags).toEqual([]); // SWE-smith says patch_successfully_applied:false even when resolved
    expect(result.tests).toHaveLength(11);
    expect(result.tests[0]).toEqual({
      testId: "pandas/tests/indexing/test_datetime.py::TestDatetimeIndex::test_getitem_pyarrow_index[DataFrame]",
      group: "FAIL_TO_PASS",
      expected: "PASSED",
      actual: "PASSED",
    });
  });

  it("reads the docker-era test_output.txt between its xtrace markers", () => {
    const log = readFileSync(fixture("harness/test_output__swesmith_pandas-dev__pandas.95280573.pr_53652.txt"), "utf8");
    const parsed = testsFromLog(log, {
      failToPass: ["pandas/tests/indexing/test_datetime.py::TestDatetimeIndex::test_getitem_pyarrow_index[Series]"],
      passToPass: ["pandas/tests/indexing/test_datetime.py::TestDatetimeIndex::test_indexing_fast_xs"],
    });
    expect(parsed.resolved).toBe(true);
    expect(parsed.tests.map((t) => t.actual)).toEqual(["PASSED", "PASSED"]);
    expect(identifyLog(log).legacy).toBe(false);
  });

  it("reads a legacy eval.log: its instance and model, graded from its statuses", () => {
    const log = readFileSync(fixture("harness/testlog_pytest__pytest-dev__pytest-5227.golden.eval.log"), "utf8");
    expect(identifyLog(log)).toEqual({
      instanceId: "pytest-dev__pytest-5227",
      generator: "SWE-bench_Lite_golden",
      legacy: true,
    });
    const parsed = testsFromLog(log, {
      failToPass: ["testing/logging/test_reporting.py::test_log_cli_enabled_disabled[True]"],
      passToPass: [],
      repo: "pytest-dev/pytest",
    });
    expect(parsed.tests[0].actual).toBe("PASSED");
    expect(parsed.resolved).toBe(true);
    // the log's ">>>>> All Tests Passed" line does not decide: a test it lacks fails the grade
    expect(
      testsFromLog(log, { failToPass: ["testing/test_absent.py::test_x"], passToPass: [], repo: "pytest-dev/pytest" })
        .resolved,
    ).toBe(false);
  });
});

describe("OpenSWE rows and folders", () => {
  it("reads the real input row as a task whose environment still needs a recipe", () => {
    const [row] = jsonl("openswe/openswe_input__data.example.jsonl");
    const record = parseOpenSweRow(row);
    expect(record.instanceId).toBe("local--tinymed--0001");
    expect(record.repository).toMatchObject({ owner: "local", name: "tinymed" });
    expect(record.environment).toMatchObject({
      key: "local__tinymed@69be3918225b6863e88670af9a3da75a0a90ee1c",
      version: "0.0.1",
      source: "OPENSWE",
      recipe: null,
    });
    expect(record.task.metadata).toEqual({
      end_commit: "7eb49f100a3e41f76e956f6d6cd8f308e7208e42",
      language: "python",
    });
    expect(record.task.testPatch).toMatch(/^diff --git a\/tests\/test_stats.py/);
  });

  it("reads an output row's Dockerfile and eval script as the recipe", () => {
    const [row] = jsonl("openswe/openswe_output__tinymed.synthetic.jsonl");
    const record = parseOpenSweRow(row);
    expect(record.environment.recipe?.evalScript).toContain('echo "OPENSWE_EXIT_CODE=$rc"');
    expect(record.environment.recipe?.dockerfile).toContain("FROM python:3.11-slim");
    expect(record.environment.metadata).toEqual({ recipeAuthor: "synthetic-env-writer" });
    expect(() => parseOpenSweRow({ ...row, eval_script: undefined })).toThrow(/both dockerfile and eval_script/);
  });

  it("reads an environment folder: recipe, patches, metadata and build context", () => {
    const dir = fixture("openswe/env__local--tinymed--0001");
    const files = new Map(
      [
        "Dockerfile",
        "eval.sh",
        "fix.patch",
        "test.patch",
        "metadata.json",
        "repo/pyproject.toml",
        "repo/tinymed/__init__.py",
        "repo/tinymed/stats.py",
      ].map((f) => [f, readFileSync(path.join(dir, f))]),
    );
    const record = parseEnvironmentFolder("env__local--tinymed--0001", files);
    expect(record.instanceId).toBe("local--tinymed--0001");
    expect(record.task.failToPass).toEqual(["tests/test_stats.py::test_calculate_meduim_even_length_returns_average"]);
    expect(record.task.fixPatch).toContain("return (ordered[mid - 1] + ordered[mid]) / 2");
    expect(Object.keys(record.environment.contextFiles ?? {})).toEqual([
      "repo/pyproject.toml",
      "repo/tinymed/__init__.py",
      "repo/tinymed/stats.py",
    ]);
    expect(record.environment.recipe?.dockerfile).toContain("COPY repo/ /testbed/");
  });
});

describe("SWE-Flow TDD steps", () => {
  it("reads merge.py's rows with lowercase test lists as TDD steps", () => {
    const [first, second] = jsonl("swe-flow/sweflow_dataset__test_merge.jsonl").map(parseSweFlowStep);
    expect(first).toMatchObject({
      instanceId: "test__--__repo-dev-1",
      task: {
        kind: "TDD_STEP",
        source: "SWE_FLOW",
        problemStatement: "Spec 0",
        fixPatch: "patch0",
        failToPass: ["test0"],
        passToPass: [],
      },
    });
    expect(first.task.metadata).toEqual({ reference_commit: "ref0" });
    expect(second.task.passToPass).toEqual(["test0", "test1"]);
    expect(second.environment).toMatchObject({
      key: "test__repo@base2",
      metadata: { image: "hambaobao/sweflow:test__--__repo" },
    });
  });

  it("keeps the skeleton and new functions of a richer step", () => {
    const [step] = jsonl("swe-flow/sweflow_steps__tinyqueue.synthetic.jsonl").map(parseSweFlowStep);
    expect(step.task.testPatch).toContain("def test_pop_on_empty_queue_raises");
    expect(step.task.metadata).toMatchObject({
      newFuncNodes: ["tinyqueue/queue.py::Queue.push", "tinyqueue/queue.py::Queue.pop"],
      skeleton_patch: expect.stringContaining("raise NotImplementedError"),
    });
  });
});

describe("reviewer verdicts (our schema)", () => {
  it("reads both sample verdicts, SWE-Review's dict decision included", () => {
    const [approve, changes] = jsonl("reviewer/reviewer_verdicts.synthetic.jsonl").map(parseReviewerVerdict);
    expect(approve.externalId).toBe("review:review-0001");
    expect(approve.verdict).toMatchObject({
      decision: "APPROVE",
      confidence: 0.82,
      reviewer_model: "reviewer-model-a",
    });
    expect(approve.steps).toHaveLength(2);
    expect(approve.steps[0]).toMatchObject({ tokensIn: 5120, tokensOut: 210 });
    expect(changes.verdict.decision).toBe("REQUEST_CHANGES");
    expect(changes.verdict.diagnosis).toEqual({
      defects: [],
      text: expect.stringMatching(/^Removing PixelRepresentation/),
    });
    expect(changes.verdict.candidate.patch).toMatch(/^diff --git/);
  });

  it("refuses a confidence outside 0–1, an unknown decision and a missing candidate", () => {
    const base = { instance_id: "a__b-1", reviewer_model: "r", decision: "approve", candidate: { generator: "g" } };
    expect(ReviewerVerdictSchema.safeParse(base).success).toBe(true);
    expect(() => parseReviewerVerdict({ ...base, confidence: 1.5 })).toThrow(/between 0 and 1/);
    expect(() => parseReviewerVerdict({ ...base, decision: "maybe" })).toThrow(/approve.*request_changes/);
    expect(() => parseReviewerVerdict({ ...base, candidate: {} })).toThrow(/generator/);
    expect(
      parseReviewerVerdict({ ...base, candidate: undefined, model_name_or_path: "g" }).verdict.candidate.generator,
    ).toBe("g");
  });
});

describe("SWE-agent 1.x layouts (shapes from FORMATS-DETAIL.md §2, no 1.x sample in fixtures)", () => {
  it("reads a dict state, execution_time and the instance and model from replay_config", async () => {
    const { sweAgentStep, sweAgentHeader } = await import("../../../lib/imports/formats/swe-agent-trajectory/map");
    const step = sweAgentStep({
      action: "ls",
      observation: "a\r\nb",
      thought: "look",
      response: "look\n```ls```",
      state: { open_file: "n/a", working_dir: "/repo" },
      execution_time: 0.25,
    });
    expect(step).toMatchObject({
      action: "ls",
      observation: "a\r\nb",
      durationMs: 250,
      metadata: { state: { working_dir: "/repo" }, response: "look\n```ls```" },
    });
    const header = sweAgentHeader(
      {
        info: {
          exit_status: "submitted",
          submission: "\r\ndiff --git a/x b/x",
          model_stats: { instance_cost: 0.5, tokens_sent: 10, tokens_received: 2, api_calls: 1 },
        },
        environment: "main",
        replayConfig: JSON.stringify({
          agent: { model: { name: "gpt-4o" } },
          problem_statement: { id: "astropy__astropy-12907" },
        }),
      },
      "whatever.traj",
    );
    expect(header).toMatchObject({
      instanceId: "astropy__astropy-12907",
      model: "gpt-4o",
      costUsd: 0.5,
      tokensIn: 10,
      metadata: { sweAgentVersion: "1.x" },
    });
  });

  it("derives steps from history when a file has no trajectory", async () => {
    const { chatSteps } = await import("../../../lib/imports/formats/chat-steps");
    const steps = chatSteps(
      [
        { role: "system", content: "you are an agent" },
        { role: "user", content: "demo", is_demo: true },
        {
          role: "assistant",
          content: "I will list",
          tool_calls: [{ function: { name: "bash", arguments: '{"command":"ls"}' } }],
        },
        { role: "tool", content: [{ type: "text", text: "README.md" }] },
        { role: "assistant", content: "done", thought: "done", action: "submit" },
      ],
      "history",
    );
    expect(steps.map((s) => [s.thought, s.action, s.observation])).toEqual([
      ["I will list", 'bash({"command":"ls"})', "README.md"],
      ["done", "submit", null],
    ]);
  });
});

describe("instance rows that name the issue otherwise", () => {
  it("takes the problem statement from title and body, or from Multi-SWE-bench's resolved_issues", async () => {
    const { issueTextOf } = await import("../../../lib/imports/formats/swe-bench-instances/map");
    expect(issueTextOf({ problem_statement: "the issue", title: "t" })).toBe("the issue");
    expect(issueTextOf({ problem_statement: "", title: "Crash on empty input", body: "Steps: run it." })).toBe(
      "Crash on empty input\n\nSteps: run it.",
    );
    expect(issueTextOf({ title: "PR title", resolved_issues: [{ number: 3, title: "Bug", body: "It fails" }] })).toBe(
      "Bug\n\nIt fails",
    );
    expect(issueTextOf({})).toBe("");
  });
});

describe("Multi-SWE-bench rows", () => {
  it("map org/repo, base.sha, fix_patch and the per-test objects onto a task, with the issue text from resolved_issues", () => {
    // a real row (test/fixtures/SOURCES.txt); before, it failed on `repo` and `base_commit` and had no problem statement
    const [row] = readFileSync(
      path.join(import.meta.dirname, "../../fixtures/swe-bench/multi-swe-bench_darkreader.jsonl"),
      "utf8",
    )
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const record = parseSweBenchInstance(row);
    expect(record).toMatchObject({
      instanceId: "darkreader__darkreader-7241",
      repository: { owner: "darkreader", name: "darkreader" },
      environment: { baseCommit: "991883df4d5910851130e3dc0e21fcbce604ea7d", source: "OTHER" },
      task: {
        fixPatch: row.fix_patch,
        testPatch: row.test_patch,
        failToPass: Object.keys(row.f2p_tests),
        passToPass: Object.keys(row.p2p_tests),
      },
    });
    expect(record.task.problemStatement).toMatch(/^\[Bug\] Base64 padding in themes breaks the extension\n\n/);
    expect(record.task.metadata).not.toHaveProperty("fix_patch");
    expect(record.task.metadata).toMatchObject({ number: 7241, title: row.title });
  });
});
