import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { importFile } from "@/lib/imports/import-file";
import type { RecordError } from "@/lib/imports/import-run";

// Every record importer fed real records, mutated: wrong types, huge strings, deep nesting,
// NUL characters, invalid UTF-8, duplicate keys, cut-off lines. Whatever arrives, the import
// never throws (what would be a 500), accounts for every line, names each bad record by its
// line with a plain sentence (no stack trace), and leaves no half-written record: a record
// that failed has no task. A fixed seed keeps runs repeatable; fast-check prints the seed
// and the shrunk counterexample when a property fails.

const SEED = 20261203;
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const fixture = (...parts: string[]) => path.join(import.meta.dirname, "../fixtures", ...parts);
const jsonl = (file: string) =>
  readFileSync(fixture(file), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);

type Family = { name: string; file: string; seeds: Record<string, unknown>[]; idKey: string | null };

const FAMILIES: Family[] = [
  {
    name: "SWE-bench instances",
    file: "instances.jsonl",
    seeds: JSON.parse(readFileSync(fixture("swe-bench/swe-bench-lite-test.json"), "utf8")),
    idKey: "instance_id",
  },
  {
    name: "SWE-Flow steps",
    file: "steps.jsonl",
    seeds: jsonl("swe-flow/sweflow_dataset__test_merge.jsonl"),
    idKey: "instance_id",
  },
  { name: "SWE-bench predictions", file: "preds.jsonl", seeds: jsonl("swe-agent/all_preds.jsonl"), idKey: null },
  {
    name: "reviewer verdicts",
    file: "verdicts.jsonl",
    seeds: jsonl("reviewer/reviewer_verdicts.synthetic.jsonl"),
    idKey: null,
  },
];

/** What replaces one field: the kinds of damage real exports and hand edits produce. */
const damagedValue = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.string({ maxLength: 40 }),
  fc.constant("a\u0000b"),
  fc.integer({ min: 100_000, max: 600_000 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 50, max: 3000 }).map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown),
);

type Mutation =
  | { kind: "field"; key: string; value: unknown }
  | { kind: "drop"; key: string }
  | { kind: "duplicateKey"; key: string; value: unknown }
  | { kind: "invalidUtf8" }
  | { kind: "cut"; at: number }
  | { kind: "none" };

const mutation = (keys: string[]) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant("field" as const), key: fc.constantFrom(...keys), value: damagedValue }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop" as const), key: fc.constantFrom(...keys) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("duplicateKey" as const),
        key: fc.constantFrom(...keys),
        value: damagedValue,
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "invalidUtf8" as const }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("cut" as const), at: fc.double({ min: 0.05, max: 0.95, noNaN: true }) }),
    },
    { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
  );

/** One line of the file: the seed record under a fresh id, then damaged. */
function line(record: Record<string, unknown>, m: Mutation): Buffer {
  const value = { ...record };
  if (m.kind === "field") value[m.key] = m.value;
  if (m.kind === "drop") delete value[m.key];
  const text = JSON.stringify(value);
  if (m.kind === "duplicateKey")
    return Buffer.from(`{${JSON.stringify(m.key)}: ${JSON.stringify(m.value)}, ${text.slice(1)}`);
  if (m.kind === "cut") return Buffer.from(text.slice(0, Math.floor(text.length * m.at)));
  if (m.kind === "invalidUtf8") {
    const bytes = Buffer.from(text);
    const middle = Math.floor(bytes.length / 2);
    return Buffer.concat([bytes.subarray(0, middle), Buffer.from([0xff, 0xfe, 0xc3]), bytes.subarray(middle)]);
  }
  return Buffer.from(text);
}

/** A fresh natural key per record, so a failed record can be looked for afterwards. */
function withFreshKey(family: Family, record: Record<string, unknown>, tag: string): Record<string, unknown> {
  if (family.idKey) return { ...record, [family.idKey]: `${String(record[family.idKey])}-${tag}` };
  if ("review_id" in record) return { ...record, review_id: `review-${tag}` };
  return { ...record, model_name_or_path: `fuzz-model-${tag}` };
}

describe("importers under fuzzed real records", () => {
  let db: TestDatabase;
  let dir: string;
  let run = 0;
  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), "fuzz-"));
    // predictions and verdicts refer to these tasks
    await importFile(db.prisma, fixture("swe-bench/swe-bench-dev-easy.json"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  for (const family of FAMILIES) {
    it(`${family.name}: never throws, accounts for every line, names each bad one, writes nothing half`, async () => {
      const keys = [...new Set(family.seeds.flatMap((seed) => Object.keys(seed)))];
      const lines = fc.array(fc.tuple(fc.nat({ max: family.seeds.length - 1 }), mutation(keys)), {
        minLength: 1,
        maxLength: 6,
      });
      await fc.assert(
        fc.asyncProperty(lines, async (picked) => {
          const tag = `f${run++}`;
          const records = picked.map(([seed, m], i) => ({
            record: withFreshKey(family, family.seeds[seed], `${tag}-${i}`),
            m,
          }));
          const file = path.join(dir, `${tag}-${family.file}`);
          writeFileSync(file, Buffer.concat(records.flatMap(({ record, m }) => [line(record, m), Buffer.from("\n")])));

          const batch = await importFile(db.prisma, file);
          const errors = batch.errors as RecordError[];
          const accounted = batch.created + batch.updated + batch.unchanged + batch.failed;
          // a file whose first line is damaged may not be recognised at all: then nothing is written and it says why
          if (batch.format === "UNKNOWN") {
            expect(batch.status).toBe("FAILED");
            expect(batch.errorMessage).toMatch(/^Unrecognised file: /);
          } else {
            expect(accounted).toBe(records.length);
            expect(errors).toHaveLength(batch.failed);
          }
          for (const error of errors) {
            expect(error.line).toBeGreaterThanOrEqual(1);
            expect(error.line).toBeLessThanOrEqual(records.length);
            expect(error.reason).not.toMatch(/\n\s+at |Invalid `prisma|PrismaClient|undefined is not/);
          }
          expect(batch.errorMessage ?? "").not.toMatch(/\n\s+at /);
          if (family.idKey) {
            const failedLines = new Set(errors.map((e) => e.line));
            for (const [index, { record }] of records.entries()) {
              const id = record[family.idKey];
              if (typeof id !== "string") continue;
              const task = await db.prisma.task.findUnique({ where: { instanceId: id }, select: { id: true } });
              if (failedLines.has(index + 1) || batch.format === "UNKNOWN")
                expect(task, `line ${index + 1} failed but its task exists`).toBeNull();
            }
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});
