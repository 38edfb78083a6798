import { readFileSync } from "node:fs";
import path from "node:path";
import { ZodError } from "zod";
import { describe, expect, it } from "vitest";
import type { ImportFormat } from "@/lib/db/client";
import { recordImporterFor } from "@/lib/imports/importers";
import type { ImportContext } from "@/lib/imports/import-context";
import { describeError } from "@/lib/imports/import-records";
import { describeRefusal } from "@/lib/imports/records/record-errors";
import { reportEntries } from "@/lib/imports/formats/swe-bench-report/map";
import { OpenHandsStepper } from "@/lib/imports/formats/openhands-trajectory/map";

// No refusal is a schema dump: every record importer is fed the first record of every other
// format's real file, and what it says is a sentence naming the field that is wrong and what
// to do — never the schema library's own output. (The file and line travel beside the reason,
// in the batch's error: imports-errors.test.ts.)

const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../../fixtures", ...parts);

function firstRecord(file: string): unknown {
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".jsonl")) return JSON.parse(text.split("\n").find((line) => line.trim())!);
  const value = JSON.parse(text);
  if (Array.isArray(value)) return value[0];
  return value;
}

const SAMPLES: Record<string, unknown> = {
  "swe-bench/swe-bench-lite-test.json": firstRecord(fixture("swe-bench/swe-bench-lite-test.json")),
  "swe-agent/all_preds.jsonl": firstRecord(fixture("swe-agent/all_preds.jsonl")),
  "openswe/openswe_output__tinymed.synthetic.jsonl": firstRecord(
    fixture("openswe/openswe_output__tinymed.synthetic.jsonl"),
  ),
  "swe-flow/sweflow_dataset__test_merge.jsonl": firstRecord(fixture("swe-flow/sweflow_dataset__test_merge.jsonl")),
  "reviewer/reviewer_verdicts.synthetic.jsonl": firstRecord(fixture("reviewer/reviewer_verdicts.synthetic.jsonl")),
  "trajectories/openhands_multi_swe_bench_output.jsonl": firstRecord(
    fixture("trajectories/openhands_multi_swe_bench_output.jsonl"),
  ),
  "r2e-gym/trajectory_aiohttp_216e0828.json": firstRecord(fixture("r2e-gym/trajectory_aiohttp_216e0828.json")),
  "trajectories/inspect_log_tool_call_error.json": firstRecord(
    fixture("trajectories/inspect_log_tool_call_error.json"),
  ),
  "harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json": firstRecord(
    fixture("harness/report__swesmith_pandas-dev__pandas.95280573.pr_53652.json"),
  ),
  "openhands/sdk_events__goal.jsonl": firstRecord(fixture("openhands/sdk_events__goal.jsonl")),
};

const RECORD_FORMATS: ImportFormat[] = [
  "SWE_BENCH_INSTANCES",
  "SWE_BENCH_PREDICTIONS",
  "OPENSWE_ENVIRONMENT",
  "SWE_FLOW_STEPS",
  "REVIEWER_VERDICTS",
  "OPENHANDS_TRAJECTORY",
  "R2E_GYM_TRAJECTORY",
];
const ctx = { fileName: "x.jsonl", options: {} } as unknown as ImportContext;

/** What the import records as the reason: the sentence importRecords stores for a refused record. */
function refusal(format: ImportFormat, value: unknown): string | null {
  try {
    recordImporterFor(format, ctx).parse(value);
    return null;
  } catch (error) {
    return error instanceof ZodError ? describeRefusal(format, error) : describeError(error);
  }
}

const expectSentence = (reason: string) => {
  expect(reason).not.toMatch(/"code"|"expected"|invalid_type|Invalid input|^\s*[[{]/);
  expect(reason.length).toBeLessThan(600);
};

describe("refusals across formats", () => {
  for (const format of RECORD_FORMATS) {
    it(`${format} refuses the other formats' records with a sentence naming the field and what to do`, () => {
      let refused = 0;
      for (const [file, value] of Object.entries(SAMPLES)) {
        const reason = refusal(format, value);
        if (reason === null) continue;
        refused++;
        expectSentence(reason);
        // the field that is wrong, and what to do about it
        expect(reason, `${format} on ${file}`).toMatch(
          /\b[\w.[\]]+ (is missing|must be|is empty|has unknown fields)|model_patch is empty|: /,
        );
        expect(reason, `${format} on ${file}`).toMatch(/fix the record|import|nothing was stored|pass|add/i);
      }
      expect(refused).toBeGreaterThan(3);
    });
  }

  it("a report.json reader refuses other formats in a sentence", () => {
    for (const value of Object.values(SAMPLES)) {
      try {
        reportEntries(value);
      } catch (error) {
        expectSentence(describeError(error));
      }
    }
  });

  it("the OpenHands event reader refuses other formats' records in a sentence", () => {
    for (const value of [{ id: { nested: true }, source: 1 }, { id: [1] }]) {
      try {
        new OpenHandsStepper().add(value);
        throw new Error("accepted");
      } catch (error) {
        expect(error).toBeInstanceOf(ZodError);
        expectSentence(describeError(error));
      }
    }
  });
});
