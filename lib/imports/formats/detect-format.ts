import { createReadStream } from "node:fs";
import { importableExtensionsSentence } from "../importable-files";
import { open } from "node:fs/promises";
import type { ImportFormat } from "../../db/enums";
import type { RecordLayout } from "../read/json-records";
import { shapeOf, shapeOfStream, type JsonShape } from "../read/json-shape";
import { hasAny, type FormatDetector } from "./format";
import { FORMATS } from "./registry";

// Decides what a file is from its structure: the keys of its top-level JSON value, wherever
// they sit in the file (json-shape.ts), or a zip's member names, or a log's markers. What each
// format looks like is declared in its folder (<format>/index.ts); this walks the registry in
// order, one question at a time, around what is no one format's: archives, Parquet, binary files.
// `detectFormat` looks at the first bytes only and is pure; `detectFile` goes on scanning
// the whole file when a JSON value is larger than those bytes and they did not decide.

export type Detection =
  /** independent records (instances, predictions, verdicts, steps, OpenHands eval lines) */
  | { kind: "records"; format: ImportFormat; layout: RecordLayout }
  /** one JSON document (a .traj, an OpenHands event array, an Inspect log or .eval zip, a report.json) */
  | { kind: "document"; format: ImportFormat }
  /** a plain-text file (a harness log) */
  | { kind: "log"; format: ImportFormat }
  /** a .zip / .tar / .tar.gz whose entries decide (environment folders, harness run folders) */
  | { kind: "archive"; archive: "zip" | "tar" | "tar.gz" | "directory" }
  /** a Parquet file: its columns (in the footer, at the end) decide the format */
  | { kind: "parquet" }
  /** `incomplete`: the first bytes ended inside a JSON value, so the whole file may still decide */
  | { kind: "unknown"; reason: string; incomplete?: boolean };

export const DETECTION_HEAD_BYTES = 256 * 1024;

/** The first format, in the registry's order, whose detector says yes. */
const firstFormat = (says: (detector: FormatDetector) => boolean | undefined) =>
  FORMATS.find((declaration) => says(declaration.detect));

/** What one record is, from its keys. Null when nothing we import looks like it. */
export const classifyRecordKeys = (keys: Set<string>): ImportFormat | null =>
  firstFormat((detect) => detect.record?.(keys))?.format ?? null;

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
  const document = firstFormat((detect) => detect.document?.(shape));
  if (document) return { kind: "document", format: document.format };
  if (shape.container === "array") {
    const elementKeys = shape.inner;
    const format = classifyRecordKeys(elementKeys);
    if (format) return { kind: "records", format, layout: "array" };
    return unknown(
      `a JSON array whose records were not recognised (their fields: ${fieldList(elementKeys)})`,
      incomplete && !elementKeys.size,
    );
  }
  const { top, inner } = shape;
  const record = firstFormat((detect) => detect.record?.(top));
  // a format without a record importer (a report.json) is one document, however its keys sit
  if (record && !record.records) return { kind: "document", format: record.format };
  if (record)
    return {
      kind: "records",
      format: record.format,
      layout: shape.container === "lines" || name.endsWith(".jsonl") ? "jsonl" : "single",
    };
  // records as one object keyed by instance id (SWE-bench's harness, mini-swe-agent's preds.json)
  const keyed = shape.container === "object" ? firstFormat((detect) => detect.record?.(inner)) : undefined;
  if (keyed?.detect.keyedByInstance) return { kind: "records", format: keyed.format, layout: "keyed" };
  if (top.has("total_instances") || top.has("ids_resolved")) {
    return unknown(
      "this is a run-level summary of a harness run; import the per-instance report.json files (or the run folder as a .zip/.tar) instead",
    );
  }
  if (hasAny(top, "FAIL_TO_PASS") && hasAny(top, "FAIL_TO_FAIL", "PASS_TO_FAIL") && !top.has("instance_id")) {
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
    const memberNames = zipMemberNames(head);
    const document = firstFormat((detect) => detect.zip?.(memberNames, name));
    if (document) return { kind: "document", format: document.format };
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

  const textFormat = firstFormat((detect) => detect.text?.(text, name));
  if (textFormat) return { kind: "log", format: textFormat.format };
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
