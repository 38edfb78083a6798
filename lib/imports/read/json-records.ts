// Splits a byte stream of JSON records — JSONL, a top-level JSON array, or one object whose
// member values are the records (predictions keyed by instance id) — into one
// text per record with the line it starts on, without holding more than one record in
// memory. Records are found by scanning bytes (strings, escapes, nesting), so a
// malformed record costs only itself and a record over the size cap is skipped, not
// buffered. JSON.parse then runs on each record alone.

import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isSpace,
  NL,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from "./json-bytes";

export type RecordLayout = "jsonl" | "array" | "keyed" | "single";

export type RawRecord = { line: number; text: string; bytes: number } | { line: number; error: string; bytes: number };

export type ReadRecordsOptions = {
  layout: RecordLayout;
  /** a record larger than this is reported and skipped (default 32 MB) */
  maxRecordBytes?: number;
};

export const DEFAULT_MAX_RECORD_BYTES = 32 * 1024 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;

/** Collects the bytes of one record, dropping them once the record exceeds the cap. */
class RecordBuffer {
  private parts: Buffer[] = [];
  size = 0;
  oversized = false;
  constructor(private readonly max: number) {}
  push(part: Buffer) {
    this.size += part.length;
    if (this.oversized) return;
    if (this.size > this.max) {
      this.oversized = true;
      this.parts = [];
      return;
    }
    if (part.length) this.parts.push(part);
  }
  /** the record's text, or an error a curator can act on */
  take(line: number): RawRecord {
    const bytes = this.size;
    const parts = this.parts;
    const oversized = this.oversized;
    this.parts = [];
    this.size = 0;
    this.oversized = false;
    if (oversized) {
      return {
        line,
        bytes,
        error: `the record is ${formatBytes(bytes)}, over the ${formatBytes(this.max)} limit for one record; it was skipped`,
      };
    }
    const buffer = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    try {
      return { line, bytes, text: utf8.decode(buffer) };
    } catch {
      return { line, bytes, error: "the record is not valid UTF-8 text (binary data?)" };
    }
  }
}

async function* readJsonl(source: AsyncIterable<Buffer>, max: number): AsyncGenerator<RawRecord> {
  const record = new RecordBuffer(max);
  let line = 1;
  let blank = true; // the current line holds only whitespace so far
  for await (const chunk of source) {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NL, start);
      const end = nl === -1 ? chunk.length : nl;
      if (blank) {
        for (let i = start; i < end; i++)
          if (!isSpace(chunk[i])) {
            blank = false;
            break;
          }
      }
      record.push(chunk.subarray(start, end));
      if (nl === -1) break;
      if (blank) record.take(line);
      else yield record.take(line);
      blank = true;
      line++;
      start = nl + 1;
    }
  }
  if (!blank) yield record.take(line);
}

/**
 * Elements of one top-level JSON array. Errors about the array itself (not an array,
 * never closed) come out as records with an error, so the caller reports them like any other.
 */
async function* readArray(source: AsyncIterable<Buffer>, max: number, keyed = false): AsyncGenerator<RawRecord> {
  const open = keyed ? OPEN_BRACE : OPEN_BRACKET;
  const close = keyed ? CLOSE_BRACE : CLOSE_BRACKET;
  const what = keyed ? "JSON object" : "JSON array";
  let inKey = false; // keyed: inside a member's key, which is skipped
  let keyEscaped = false;
  const record = new RecordBuffer(max);
  let line = 1;
  let state: "before" | "between" | "record" | "after" = "before";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let recordLine = 0;
  let trailingGarbageLine = 0;
  let sawKey = false;
  for await (const chunk of source) {
    let recordStart = state === "record" ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (state === "record") {
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) inString = false;
          else if (b === NL) line++;
          continue;
        }
        if (b === QUOTE) inString = true;
        else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
        else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
          if (depth === 0) {
            // a scalar element ended by the container's closing bracket
            record.push(chunk.subarray(recordStart, i));
            yield record.take(recordLine);
            state = "after";
            continue;
          }
          depth--;
          if (depth === 0) {
            record.push(chunk.subarray(recordStart, i + 1));
            yield record.take(recordLine);
            state = "between";
          }
        } else if (b === COMMA && depth === 0) {
          record.push(chunk.subarray(recordStart, i));
          yield record.take(recordLine);
          state = "between";
        } else if (b === NL) line++;
        continue;
      }
      if (b === NL) line++;
      if (inKey) {
        if (keyEscaped) keyEscaped = false;
        else if (b === BACKSLASH) keyEscaped = true;
        else if (b === QUOTE) inKey = false;
        continue;
      }
      if (isSpace(b)) continue;
      if (state === "before") {
        if (b !== open) {
          yield { line, bytes: 0, error: `the file does not start with a ${what}` };
          return;
        }
        state = "between";
      } else if (state === "between") {
        if (b === COMMA || (keyed && b === COLON)) continue;
        if (keyed && b === QUOTE && !sawKey) {
          // a member's key ("<instance_id>": …): its value, after the colon, is the record
          inKey = true;
          sawKey = true;
          continue;
        }
        if (b === close) {
          state = "after";
          continue;
        }
        state = "record";
        sawKey = false;
        recordLine = line;
        recordStart = i;
        depth = b === OPEN_BRACE || b === OPEN_BRACKET ? 1 : 0;
        inString = b === QUOTE;
        escaped = false;
      } else if (state === "after" && !trailingGarbageLine) {
        trailingGarbageLine = line;
      }
    }
    if (state === "record") record.push(chunk.subarray(recordStart));
  }
  const ended: string = state;
  if (ended === "record") yield record.take(recordLine);
  if (ended === "before") yield { line, bytes: 0, error: "the file is empty" };
  else if (ended !== "after")
    yield { line, bytes: 0, error: `the file ends before its ${what} is closed (was it truncated?)` };
  else if (trailingGarbageLine)
    yield { line: trailingGarbageLine, bytes: 0, error: `unexpected text after the end of the ${what}` };
}

async function* readSingle(source: AsyncIterable<Buffer>, max: number): AsyncGenerator<RawRecord> {
  const record = new RecordBuffer(max);
  for await (const chunk of source) record.push(chunk);
  yield record.take(1);
}

export function readJsonRecords(source: AsyncIterable<Buffer>, options: ReadRecordsOptions): AsyncGenerator<RawRecord> {
  const max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  if (options.layout === "jsonl") return readJsonl(source, max);
  if (options.layout === "array") return readArray(source, max);
  if (options.layout === "keyed") return readArray(source, max, true);
  return readSingle(source, max);
}

/** JSON.parse with an error that says what is wrong with this record and where. */
export function parseRecordJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    if (/end of (JSON )?input|Unterminated string/i.test(message)) {
      return { error: `the record is cut off (${message}); was the file truncated?` };
    }
    return { error: `malformed JSON: ${message}` };
  }
}
