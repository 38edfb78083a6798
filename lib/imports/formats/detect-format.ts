import { createReadStream } from "node:fs";
import { importableExtensionsSentence } from "../importable-files";
import { open } from "node:fs/promises";
import type { ImportFormat } from "../../db/enums";
import type { RecordLayout } from "../read/json-records";
import { shapeOf, shapeOfStream, type JsonShape } from "../read/json-shape";

// Decides what a file is from its structure: the keys of its top-level JSON value, wherever
// they sit in the file (json-shape.ts), or a zip's member names, or a log's markers.
// `detectFormat` looks at the first bytes only and is pure; `detectFile` goes on scanning
// the whole file when a JSON value is larger than those bytes and they did not decide.

export type Detection =
  /** independent records (instances, predictions, verdicts, steps, OpenHands eval lines) */
  | { kind: "records"; format: ImportFormat; layout: RecordLayout }
  /** one JSON document (a .traj, an OpenHands event array, an Inspect log or .eval zip, a report.json) */
  | { kind: "document"; format: ImportFormat }
  /** a plain-text harness log */
  | { kind: "log"; format: "SWE_BENCH_REPORT" }
  /** a .zip / .tar / .tar.gz whose entries decide (environment folders, harness run folders) */
  | { kind: "archive"; archive: "zip" | "tar" | "tar.gz" | "directory" }
  /** a Parquet file: its columns (in the footer, at the end) decide the format */
  | { kind: "parquet" }
  /** `incomplete`: the first bytes ended inside a JSON value, so the whole file may still decide */
  | { kind: "unknown"; reason: string; incomplete?: boolean };

export const DETECTION_HEAD_BYTES = 256 * 1024;

const has = (keys: Set<string> | undefined, ...names: string[]) => !!keys && names.some((n) => keys.has(n));

/** What one record is, from its keys. Null when nothing we import looks like it. */
export function classifyRecordKeys(keys: Set<string>): ImportFormat | null {
  if (keys.has("decision") && has(keys, "reviewer_model", "reviewer", "instance_id")) return "REVIEWER_VERDICTS";
  if (has(keys, "tests_status", "patch_successfully_applied", "patch_is_None")) return "SWE_BENCH_REPORT";
  if (keys.has("instance_id") && keys.has("model_patch")) return "SWE_BENCH_PREDICTIONS";
  if (keys.has("instance_id") && keys.has("history") && has(keys, "instruction", "metrics", "test_result"))
    return "OPENHANDS_TRAJECTORY";
  // SWE-Gym's sampled OpenHands trajectories: one run per row as chat messages
  if (keys.has("instance_id") && keys.has("messages") && has(keys, "run_id", "resolved", "test_result"))
    return "OPENHANDS_TRAJECTORY";
  // R2E-Gym's Trajectory (model_dump_json per line): steps, and how the run ended
  if (keys.has("trajectory_steps") && has(keys, "output_patch", "exit_reason")) return "R2E_GYM_TRAJECTORY";
  if (has(keys, "fail_to_pass", "reference_commit", "requirement", "newFuncNodes", "skeleton")) return "SWE_FLOW_STEPS";
  if (keys.has("instance_id") && has(keys, "dockerfile", "eval_script", "end_commit")) return "OPENSWE_ENVIRONMENT";
  if (keys.has("instance_id") && has(keys, "problem_statement", "patch", "test_patch", "base_commit", "FAIL_TO_PASS"))
    return "SWE_BENCH_INSTANCES";
  return null;
}

const isChat = (keys: Set<string> | undefined) => has(keys, "role") && has(keys, "content", "tool_calls");

/** What a whole JSON object is, from its top-level keys and the keys one level down. */
function classifyDocument(shape: JsonShape): ImportFormat | null {
  const { top, inner, memberElements } = shape;
  if (has(top, "trajectory", "history") && has(top, "info", "environment", "replay_config"))
    return "SWE_AGENT_TRAJECTORY";
  // SWE-agent function-calling demonstrations and newer runs: only a `history` of chat messages
  // (R2E-Gym forks that keep the chat `history` beside `trajectory_steps` are R2E-Gym records)
  if (top.has("history") && !has(top, "instance_id", "trajectory_steps") && isChat(memberElements.get("history")))
    return "SWE_AGENT_TRAJECTORY";
  // mini-swe-agent: `messages` plus `info` (exit status, submission) and its trajectory_format
  if (top.has("messages") && has(top, "trajectory_format", "info") && !has(top, "run_id", "resolved"))
    return "SWE_AGENT_TRAJECTORY";
  if (top.has("eval") && has(top, "samples", "plan", "results", "stats")) return "INSPECT_LOG";
  // a report.json wrapped in its instance id: { "<instance_id>": { resolved, tests_status, … } }
  if (has(inner, "resolved", "tests_status", "patch_successfully_applied")) return "SWE_BENCH_REPORT";
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

const HARNESS_LOG_MARKERS = [
  ">>>>> Start Test Output",
  ">>>>> Applied Patch",
  ">>>>> All Tests Passed",
  ">>>>> Some Tests Failed",
  "OPENSWE_EXIT_CODE=",
  ">>>>> Test Exit Code",
  "Test Script:",
];

function unknown(reason: string, incomplete = false): Detection {
  return incomplete ? { kind: "unknown", reason, incomplete } : { kind: "unknown", reason };
}

const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Member names of the zip local headers that lie within the first bytes. */
export function zipMemberNames(head: Buffer): string[] {
  const names: string[] = [];
  for (
    let at = head.indexOf(ZIP_LOCAL_HEADER);
    at !== -1 && at + 30 <= head.length;
    at = head.indexOf(ZIP_LOCAL_HEADER, at + 4)
  ) {
    const length = head.readUInt16LE(at + 26);
    if (at + 30 + length > head.length) break;
    names.push(head.subarray(at + 30, at + 30 + length).toString("utf8"));
  }
  return names;
}

/** Inspect AI's native log: a zip of header.json, samples/<id>_epoch_<n>.json and a _journal. */
const isInspectEvalMember = (name: string) =>
  name === "header.json" || name === "_journal/start.json" || /^samples\/[^/]+\.json$/.test(name);

/** An OpenHands SDK event (events.jsonl, one per line, or an array of them): a `kind`, its source, a string id and a time. */
const isSdkEvent = (keys: Set<string>) => ["kind", "source", "id", "timestamp"].every((key) => keys.has(key));

const fieldList = (keys: Set<string>) => [...keys].slice(0, 12).join(", ") || "none";

/** The format of a JSON value of this shape; `truncated`: the shape may lack keys past the bytes scanned. */
export function classifyShape(shape: JsonShape, fileName: string, truncated: boolean): Detection {
  const name = fileName.toLowerCase();
  const incomplete = truncated && !shape.complete;
  if (shape.container === "array") {
    const elementKeys = shape.inner;
    if ((has(elementKeys, "action", "observation") && elementKeys.has("source")) || isSdkEvent(elementKeys))
      return { kind: "document", format: "OPENHANDS_TRAJECTORY" };
    const format = classifyRecordKeys(elementKeys);
    if (format) return { kind: "records", format, layout: "array" };
    return unknown(
      `a JSON array whose records were not recognised (their fields: ${fieldList(elementKeys)})`,
      incomplete && !elementKeys.size,
    );
  }
  const { top, inner } = shape;
  // the SDK's events.jsonl: one run, an event a line
  if (shape.container === "lines" && isSdkEvent(top)) return { kind: "document", format: "OPENHANDS_TRAJECTORY" };
  if (shape.container === "object") {
    const documentFormat = classifyDocument(shape);
    if (documentFormat) return { kind: "document", format: documentFormat };
  }
  const format = classifyRecordKeys(top);
  // a report.json is small and one document, wrapped in its instance id or not
  if (format === "SWE_BENCH_REPORT") return { kind: "document", format };
  if (format)
    return {
      kind: "records",
      format,
      layout: shape.container === "lines" || name.endsWith(".jsonl") ? "jsonl" : "single",
    };
  // predictions as one object keyed by instance id (SWE-bench's harness, mini-swe-agent's preds.json)
  if (shape.container === "object" && classifyRecordKeys(inner) === "SWE_BENCH_PREDICTIONS")
    return { kind: "records", format: "SWE_BENCH_PREDICTIONS", layout: "keyed" };
  if (top.has("total_instances") || top.has("ids_resolved")) {
    return unknown(
      "this is a run-level summary of a harness run; import the per-instance report.json files (or the run folder as a .zip/.tar) instead",
    );
  }
  if (has(top, "FAIL_TO_PASS") && has(top, "FAIL_TO_FAIL", "PASS_TO_FAIL") && !top.has("instance_id")) {
    return unknown(
      "this is a SWE-smith validation report without an instance id; import it inside its instance folder (as a .zip/.tar)",
    );
  }
  return unknown(`a JSON object that matches no known format (its fields: ${fieldList(top)})`, incomplete);
}

export function detectFormat(fileName: string, head: Buffer): Detection {
  const name = fileName.toLowerCase();
  if (head.subarray(0, 4).toString("latin1") === "PAR1" || (name.endsWith(".parquet") && head.length > 0))
    return { kind: "parquet" };
  if (head.length >= 4 && head.subarray(0, 4).equals(ZIP_LOCAL_HEADER)) {
    if (name.endsWith(".eval") || zipMemberNames(head).some(isInspectEvalMember))
      return { kind: "document", format: "INSPECT_LOG" };
    return { kind: "archive", archive: "zip" };
  }
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { kind: "archive", archive: "tar.gz" };
  if (head.length > 262 && head.subarray(257, 262).toString("latin1") === "ustar")
    return { kind: "archive", archive: "tar" };
  if (head.length === 0) return unknown("the file is empty");
  if (looksBinary(head))
    return unknown(`the file is binary, not JSON, JSONL or a text log (expected ${importableExtensionsSentence()})`);

  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const start = text.search(/\S/);
  if (start === -1) return unknown("the file holds only whitespace");
  // a legacy harness log starts with "[testbed] [instance_id] …", which is no JSON array
  const opening = text.slice(start, start + 64);
  const json =
    (text[start] === "[" && /^\[\s*([{["\]\d-]|true|false|null)/.test(opening)) ||
    (text[start] === "{" && /^\{\s*("|\})/.test(opening));
  if (json) return classifyShape(shapeOf(head), fileName, head.length >= DETECTION_HEAD_BYTES);

  if (HARNESS_LOG_MARKERS.some((marker) => text.includes(marker)) || /\.(log|txt)$/.test(name))
    return { kind: "log", format: "SWE_BENCH_REPORT" };
  return unknown("the file is neither JSON, JSONL, a harness log nor an archive");
}

async function readHead(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, "r");
  try {
    const buffer = Buffer.alloc(DETECTION_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The format of a file on disk: its first bytes first, then — when a JSON value runs past them
 * (a .traj whose first key holds megabytes) — its whole structure, streamed.
 */
export async function detectFile(filePath: string, fileName: string): Promise<Detection> {
  const first = detectFormat(fileName, await readHead(filePath));
  if (first.kind !== "unknown" || !first.incomplete) return first;
  const stream = createReadStream(filePath, { highWaterMark: 1 << 20 });
  try {
    return classifyShape(await shapeOfStream(stream), fileName, false);
  } finally {
    stream.destroy();
  }
}
