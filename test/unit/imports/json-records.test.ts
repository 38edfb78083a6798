import { describe, expect, it } from "vitest";
import { parseRecordJson, readJsonRecords, type RawRecord } from "../../../lib/imports/read/json-records";

async function collect(
  text: string | Buffer,
  layout: "jsonl" | "array" | "keyed" | "single",
  chunkSize = 7,
  maxRecordBytes?: number,
) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
  }
  const out: RawRecord[] = [];
  for await (const record of readJsonRecords(chunks(), { layout, maxRecordBytes })) out.push(record);
  return out.map((r) => {
    if (!("text" in r)) return { line: r.line, error: r.error };
    const parsed = parseRecordJson(r.text);
    return "value" in parsed ? { line: r.line, value: parsed.value } : { line: r.line, error: parsed.error };
  });
}

describe("splitting a byte stream into records", () => {
  it("gives each JSONL record its line, skipping blank lines and tolerating CRLF", async () => {
    expect(await collect('{"a":1}\r\n\n  \n{"b":"x\\ny"}\n{"c":[1,2]}', "jsonl")).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { b: "x\ny" } },
      { line: 5, value: { c: [1, 2] } },
    ]);
  });

  it("gives each element of a pretty-printed JSON array the line it starts on, across chunk boundaries", async () => {
    const text = '[\n  {\n    "a": "}, {\\" ]"\n  },\n  {"b": [1, {"c": 2}]},\n\n  {"d": null}\n]\n';
    expect(await collect(text, "array", 3)).toEqual([
      { line: 2, value: { a: '}, {" ]' } },
      { line: 5, value: { b: [1, { c: 2 }] } },
      { line: 7, value: { d: null } },
    ]);
  });

  it("reports a file that ends inside its array (truncated) after the records before the cut", async () => {
    const records = await collect('[{"a": 1},\n{"b": 2},\n{"c": ', "array");
    expect(records[0]).toEqual({ line: 1, value: { a: 1 } });
    expect(records[1]).toEqual({ line: 2, value: { b: 2 } });
    expect(records.slice(2)).toEqual([
      { line: 3, error: expect.stringMatching(/cut off/) },
      { line: 3, error: expect.stringMatching(/truncated/) },
    ]);
  });

  it("skips a record over the size cap without buffering it and carries on", async () => {
    const big = JSON.stringify({ blob: "x".repeat(5000) });
    const records = await collect(`{"a":1}\n${big}\n{"b":2}\n`, "jsonl", 64, 1000);
    expect(records).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, error: expect.stringMatching(/over the 1000 B limit/) },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it("flags invalid UTF-8 in one record and keeps the others", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"a":1}\n{"b":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n{"c":3}\n'),
    ]);
    expect(await collect(bytes, "jsonl")).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, error: expect.stringMatching(/UTF-8/) },
      { line: 3, value: { c: 3 } },
    ]);
  });

  it("explains malformed and cut-off JSON", () => {
    expect(parseRecordJson('{"a": 1,, }')).toMatchObject({ error: expect.stringMatching(/^malformed JSON/) });
    expect(parseRecordJson('{"a": "unterminated')).toMatchObject({ error: expect.stringMatching(/cut off/) });
  });

  it("reads the member values of an object keyed by instance id, keys with quotes and braces included", async () => {
    const text =
      '{\n  "a__b-1": {"instance_id": "a__b-1", "model_patch": "x"},\n  "we\\"ird}{": {"instance_id": "c", "model_patch": null}\n}\n';
    expect(await collect(text, "keyed", 5)).toEqual([
      { line: 2, value: { instance_id: "a__b-1", model_patch: "x" } },
      { line: 3, value: { instance_id: "c", model_patch: null } },
    ]);
    expect(await collect('{"a": {"x": 1}', "keyed")).toEqual([
      { line: 1, value: { x: 1 } },
      { line: 1, error: "the file ends before its JSON object is closed (was it truncated?)" },
    ]);
  });
});
