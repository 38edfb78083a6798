import { createReadStream } from "node:fs";
import { importableExtensionsSentence } from "../importable-files";
import { open } from "node:fs/promises";
import type { ImportFormat } from "../../db/enums";
import type { RecordLayout } from "../read/json-records";
import { shapeOf, shapeOfStream, type JsonShape } from "../read/json-shape";
import { hasAny as has } from "./format-detector";
import { classifyDocument, classifyRecordKeys } from "./registry";
import { isOpenHandsEventList, isOpenHandsSdkEvent } from "./openhands-trajectory/detect";
import { isInspectEvalMember } from "./inspect-log/detect";
import { isHarnessLog } from "./swe-bench-report/detect";

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

const fieldList = (keys: Set<string>) => [...keys].slice(0, 12).join(", ") || "none";

/** The format of a JSON value of this shape; `truncated`: the shape may lack keys past the bytes scanned. */
export function classifyShape(shape: JsonShape, fileName: string, truncated: boolean): Detection {
  const name = fileName.toLowerCase();
  const incomplete = truncated && !shape.complete;
  if (shape.container === "array") {
    const elementKeys = shape.inner;
    if (isOpenHandsEventList(elementKeys)) return { kind: "document", format: "OPENHANDS_TRAJECTORY" };
    const format = classifyRecordKeys(elementKeys);
    if (format) return { kind: "records", format, layout: "array" };
    return unknown(
      `a JSON array whose records were not recognised (their fields: ${fieldList(elementKeys)})`,
      incomplete && !elementKeys.size,
    );
  }
  const { top, inner } = shape;
  // the SDK's events.jsonl: one run, an event a line
  if (shape.container === "lines" && isOpenHandsSdkEvent(top))
    return { kind: "document", format: "OPENHANDS_TRAJECTORY" };
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

  if (isHarnessLog(text) || /\.(log|txt)$/.test(name)) return { kind: "log", format: "SWE_BENCH_REPORT" };
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
