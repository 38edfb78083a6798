import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportFormat } from "../../../lib/db/enums";
import { FORMAT_DETECTORS, classifyRecordKeys } from "../../../lib/imports/formats/registry";

const FORMATS_DIR = path.join(__dirname, "../../../lib/imports/formats");
const registrySource = readFileSync(path.join(FORMATS_DIR, "registry.ts"), "utf8");
const foldersWithDetector = readdirSync(FORMATS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(FORMATS_DIR, entry.name, "detect.ts")))
  .map((entry) => entry.name);

describe("the format registry", () => {
  it("imports every format folder's detect.ts exactly once, so a new folder without its registry line fails", () => {
    expect(foldersWithDetector.length).toBeGreaterThan(5);
    for (const folder of foldersWithDetector)
      expect(registrySource.split(`from "./${folder}/detect"`).length - 1, folder).toBe(1);
  });

  it("recognises every format a file can hold, each in one entry", () => {
    const formats = FORMAT_DETECTORS.map((d) => d.format);
    expect(new Set(formats).size).toBe(formats.length);
    expect(new Set(formats)).toEqual(new Set(Object.values(ImportFormat).filter((f) => f !== "UNKNOWN")));
  });

  it("tries a narrower format first: a verdict or a prediction names an instance id as an instance does", () => {
    expect(classifyRecordKeys(new Set(["instance_id", "decision", "reviewer_model"]))).toBe("REVIEWER_VERDICTS");
    expect(classifyRecordKeys(new Set(["instance_id", "model_patch", "problem_statement"]))).toBe(
      "SWE_BENCH_PREDICTIONS",
    );
    expect(classifyRecordKeys(new Set(["instance_id", "dockerfile", "problem_statement"]))).toBe("OPENSWE_ENVIRONMENT");
    expect(classifyRecordKeys(new Set(["instance_id", "problem_statement", "patch"]))).toBe("SWE_BENCH_INSTANCES");
  });
});
