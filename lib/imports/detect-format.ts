import type { ImportFormat } from "../db/generated/enums";
import type { RecordLayout } from "./read/json-records";

// Decides what a file is from its name and first bytes only, so detection costs the
// same for a 1 KB file and a 10 GB one. Pure: unit-tested on every fixture.

export type Detection =
  /** independent records (instances, predictions, verdicts, steps, OpenHands eval lines) */
  | { kind: "records"; format: ImportFormat; layout: RecordLayout }
  /** one JSON document (a .traj, an OpenHands event array, an Inspect log, a report.json) */
  | { kind: "document"; format: ImportFormat }
  /** a plain-text harness log */
  | { kind: "log"; format: "SWE_BENCH_REPORT" }
  /** a .zip / .tar / .tar.gz whose entries decide (environment folders, harness run folders) */
  | { kind: "archive"; archive: "zip" | "tar" | "tar.gz" | "directory" }
  /** a Parquet file: its columns (in the footer, at the end) decide the format */
  | { kind: "parquet" }
  | { kind: "unknown"; reason: string };

export const DETECTION_HEAD_BYTES = 256 * 1024;

/** Keys of JSON objects found at a nesting depth of the text (1 = the top-level object's keys). */
export function keysAtDepth(text: string, wanted: number, limit = 200): string[] {
  const keys: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1;
  const containers: string[] = [];
  for (let i = 0; i < text.length && keys.length < limit; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') {
        inString = false;
        if (depth === wanted && containers[depth - 1] === "{") {
          let j = i + 1;
          while (j < text.length && /\s/.test(text[j])) j++;
          if (text[j] === ":") keys.push(text.slice(stringStart, i));
        }
      }
      continue;
    }
    if (c === '"') {
      inString = true;
      stringStart = i + 1;
    } else if (c === "{" || c === "[") {
      containers[depth++] = c;
    } else if (c === "}" || c === "]") {
      depth--;
    }
  }
  return keys;
}

const has = (keys: Set<string>, ...names: string[]) => names.some((n) => keys.has(n));

/** What one record is, from its keys. Null when nothing we import looks like it. */
export function classifyRecordKeys(keys: Set<string>): ImportFormat | null {
  if (keys.has("decision") && has(keys, "reviewer_model", "reviewer", "instance_id")) return "REVIEWER_VERDICTS";
  if (has(keys, "tests_status", "patch_successfully_applied", "patch_is_None")) return "SWE_BENCH_REPORT";
  if (keys.has("instance_id") && keys.has("model_patch")) return "SWE_BENCH_PREDICTIONS";
  if (keys.has("instance_id") && keys.has("history") && has(keys, "instruction", "metrics", "test_result")) return "OPENHANDS_TRAJECTORY";
  if (has(keys, "fail_to_pass", "reference_commit", "requirement", "newFuncNodes", "skeleton")) return "SWE_FLOW_STEPS";
  if (keys.has("instance_id") && has(keys, "dockerfile", "eval_script", "end_commit")) return "OPENSWE_ENVIRONMENT";
  if (keys.has("instance_id") && has(keys, "problem_statement", "patch", "test_patch", "base_commit", "FAIL_TO_PASS")) return "SWE_BENCH_INSTANCES";
  return null;
}

/** What a whole JSON document is, from its top-level keys (and its first element's, for arrays). */
function classifyDocument(topKeys: Set<string>, innerKeys: Set<string>): ImportFormat | null {
  if (has(topKeys, "trajectory", "history") && has(topKeys, "info", "environment", "replay_config")) return "SWE_AGENT_TRAJECTORY";
  if (topKeys.has("eval") && has(topKeys, "samples", "plan", "results", "stats")) return "INSPECT_LOG";
  // a report.json wrapped in its instance id: { "<instance_id>": { resolved, tests_status, … } }
  if (has(innerKeys, "resolved", "tests_status", "patch_successfully_applied")) return "SWE_BENCH_REPORT";
  return null;
}

function looksBinary(head: Buffer): boolean {
  const sample = head.subarray(0, 8192);
  let suspicious = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) suspicious++;
  }
  if (sample.length && suspicious / sample.length > 0.1) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

const HARNESS_LOG_MARKERS = [">>>>> Start Test Output", ">>>>> Applied Patch", ">>>>> All Tests Passed", ">>>>> Some Tests Failed", "OPENSWE_EXIT_CODE=", ">>>>> Test Exit Code", "Test Script:"];

function unknown(reason: string): Detection {
  return { kind: "unknown", reason };
}

export function detectFormat(fileName: string, head: Buffer): Detection {
  const name = fileName.toLowerCase();
  if (head.subarray(0, 4).toString("latin1") === "PAR1" || (name.endsWith(".parquet") && head.length > 0)) return { kind: "parquet" };
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    if (name.endsWith(".eval")) return unknown("this is an Inspect .eval archive; export it as JSON with `inspect log convert --to json` and import the .json");
    return { kind: "archive", archive: "zip" };
  }
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { kind: "archive", archive: "tar.gz" };
  if (head.length > 262 && head.subarray(257, 262).toString("latin1") === "ustar") return { kind: "archive", archive: "tar" };
  if (head.length === 0) return unknown("the file is empty");
  if (looksBinary(head)) return unknown("the file is binary, not JSON, JSONL or a text log (expected .json, .jsonl, .traj, .log, .zip or .tar)");

  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const start = text.search(/\S/);
  if (start === -1) return unknown("the file holds only whitespace");
  const first = text[start];

  // a legacy harness log starts with "[testbed] [instance_id] …", which is no JSON array
  const jsonArray = first === "[" && /^\[\s*([{["\]\d-]|true|false|null)/.test(text.slice(start, start + 64));
  if (jsonArray) {
    const elementKeys = new Set(keysAtDepth(text, 2));
    if (has(elementKeys, "action", "observation") && elementKeys.has("source")) return { kind: "document", format: "OPENHANDS_TRAJECTORY" };
    const format = classifyRecordKeys(elementKeys);
    if (format) return { kind: "records", format, layout: "array" };
    return unknown(`a JSON array whose records were not recognised (their fields: ${[...elementKeys].slice(0, 12).join(", ") || "none"})`);
  }

  if (first === "{" && /^\{\s*("|\})/.test(text.slice(start, start + 64))) {
    const newline = text.indexOf("\n", start);
    const firstLine = newline === -1 ? text.slice(start) : text.slice(start, newline);
    let firstRecord: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(firstLine);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) firstRecord = parsed as Record<string, unknown>;
    } catch {
      // not one record per line: a pretty-printed document, or a first line longer than the head
    }
    const topKeys = new Set(firstRecord ? Object.keys(firstRecord) : keysAtDepth(text, 1));
    const documentFormat = classifyDocument(topKeys, new Set(keysAtDepth(text, 2)));
    if (documentFormat) return { kind: "document", format: documentFormat };
    const format = classifyRecordKeys(topKeys);
    // a report.json is small and one document, wrapped in its instance id or not
    if (format === "SWE_BENCH_REPORT") return { kind: "document", format };
    if (format) return { kind: "records", format, layout: firstRecord || name.endsWith(".jsonl") ? "jsonl" : "single" };
    if (topKeys.has("total_instances") || topKeys.has("ids_resolved")) {
      return unknown("this is a run-level summary of a harness run; import the per-instance report.json files (or the run folder as a .zip/.tar) instead");
    }
    if (has(topKeys, "FAIL_TO_PASS") && has(topKeys, "FAIL_TO_FAIL", "PASS_TO_FAIL") && !topKeys.has("instance_id")) {
      return unknown("this is a SWE-smith validation report without an instance id; import it inside its instance folder (as a .zip/.tar)");
    }
    return unknown(`a JSON object that matches no known format (its fields: ${[...topKeys].slice(0, 12).join(", ") || "none"})`);
  }

  if (HARNESS_LOG_MARKERS.some((marker) => text.includes(marker)) || /\.(log|txt)$/.test(name)) return { kind: "log", format: "SWE_BENCH_REPORT" };
  return unknown("the file is neither JSON, JSONL, a harness log nor an archive");
}
