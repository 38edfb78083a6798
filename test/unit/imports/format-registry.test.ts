import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ImportFormat } from "@/lib/db/client";
import type { FormatDeclaration } from "@/lib/imports/formats/format";
import { FORMATS } from "@/lib/imports/formats/registry";
import { DETECTION_HEAD_BYTES } from "@/lib/imports/formats/detect-format";
import { shapeOf } from "@/lib/imports/read/json-shape";

// Adding a format is one folder (its index.ts) and one line in registry.ts. A folder whose
// declaration is not in the registry is never detected, so it fails here; and where two
// formats' detectors both accept a file, the registry must try the one the file really is first.

const formatsDir = path.join(import.meta.dirname, "../../../lib/imports/formats");
const fixtures = path.join(import.meta.dirname, "../../fixtures");

const isDeclaration = (value: unknown): value is FormatDeclaration =>
  typeof value === "object" && value !== null && "format" in value && "detect" in value;

const declaringFolders = readdirSync(formatsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(formatsDir, entry.name, "index.ts")))
  .map((entry) => entry.name);

describe("the format registry", () => {
  it("finds format folders to check", () => expect(declaringFolders.length).toBeGreaterThan(5));

  it.each(declaringFolders)("lists the format that %s/index.ts declares, exactly once", async (folder) => {
    const declarations = Object.values(await import(path.join(formatsDir, folder, "index.ts"))).filter(isDeclaration);
    expect(declarations).toHaveLength(1);
    expect(FORMATS.filter((listed) => listed === declarations[0])).toHaveLength(1);
  });

  it("lists nothing but those folders' declarations, one per format", () => {
    expect(FORMATS).toHaveLength(declaringFolders.length);
    expect(new Set(FORMATS.map((declaration) => declaration.format)).size).toBe(FORMATS.length);
  });
});

/** The formats whose record detector accepts these keys, in the order detection tries them. */
const acceptingRecord = (keys: Set<string>) =>
  FORMATS.filter((declaration) => declaration.detect.record?.(keys)).map((declaration) => declaration.format);

/** A record's keys: an array's first element's, else the top-level value's (a JSONL file's first line). */
function recordKeysOf(file: string): Set<string> {
  const shape = shapeOf(readFileSync(file).subarray(0, DETECTION_HEAD_BYTES));
  return shape.container === "array" ? shape.inner : shape.top;
}

function* jsonFixtures(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* jsonFixtures(file);
    else if (/\.(json|jsonl|traj)$/.test(name)) yield path.relative(fixtures, file);
  }
}

/**
 * Every real sample that more than one record detector accepts, and what it really is. SWE-bench
 * instances' detector is the general one: OpenSWE rows and SWE-Flow steps name an instance
 * id and a patch or problem statement too.
 */
const REAL_OVERLAPS: Record<string, ImportFormat> = {
  "openswe/env__local--tinymed--0001/metadata.json": "OPENSWE_ENVIRONMENT",
  "openswe/openswe_input__data.example.jsonl": "OPENSWE_ENVIRONMENT",
  "openswe/openswe_output__tinymed.synthetic.jsonl": "OPENSWE_ENVIRONMENT",
  "swe-flow/sweflow_dataset__test_merge.jsonl": "SWE_FLOW_STEPS",
  "swe-flow/sweflow_steps__tinyqueue.synthetic.jsonl": "SWE_FLOW_STEPS",
};

/** Overlaps the formats document rather than a sample shows: a verdict may name its candidate as a prediction does. */
const DOCUMENTED_OVERLAPS: Array<[string, string[], ImportFormat]> = [
  [
    "a reviewer verdict in the predictions' shorthand",
    ["instance_id", "model_name_or_path", "model_patch", "reviewer_model", "decision"],
    "REVIEWER_VERDICTS",
  ],
];

describe("the registry's order where detectors overlap", () => {
  it("knows what every fixture is that two record detectors accept", () => {
    const overlapping = [...jsonFixtures(fixtures)].filter(
      (file) => acceptingRecord(recordKeysOf(path.join(fixtures, file))).length > 1,
    );
    expect(overlapping.sort()).toEqual(Object.keys(REAL_OVERLAPS).sort());
  });

  it.each(Object.entries(REAL_OVERLAPS))("tries %s's own format before the general one", (file, real) => {
    const accepting = acceptingRecord(recordKeysOf(path.join(fixtures, file)));
    expect(accepting.length).toBeGreaterThan(1);
    expect(accepting[0]).toBe(real);
  });

  it.each(DOCUMENTED_OVERLAPS)("tries %s as what it is first", (_what, keys, real) => {
    const accepting = acceptingRecord(new Set(keys));
    expect(accepting.length).toBeGreaterThan(1);
    expect(accepting[0]).toBe(real);
  });
});
