import { z } from "zod";
import type { Difficulty, TaskKind, TaskSource } from "../../db/client";

// The normalised shape every task-bearing format (SWE-bench / Gym / smith / rebench
// instances, OpenSWE rows, SWE-Flow steps) is turned into before it is written.

export type Recipe = { dockerfile: string; evalScript: string };

export type TaskRecord = {
  instanceId: string;
  repository: { owner: string; name: string; url: string | null };
  environment: {
    key: string;
    baseCommit: string;
    setupCommit: string | null;
    version: string | null;
    source: TaskSource;
    /** null: the file carries no build recipe, a placeholder revision is written */
    recipe: Recipe | null;
    /** build context bundled with the recipe (path → content), from environment folders */
    contextFiles?: Record<string, string> | null;
    metadata: Record<string, unknown> | null;
  };
  task: {
    kind: TaskKind;
    source: TaskSource;
    difficulty: Difficulty | null;
    problemStatement: string;
    hintsText: string | null;
    fixPatch: string;
    testPatch: string;
    failToPass: string[];
    passToPass: string[];
    issueCreatedAt: Date | null;
    metadata: Record<string, unknown> | null;
  };
};

/** The fields every task row names itself by: its id, repository and starting commit. */
export function taskRowKeyFields() {
  return {
    instance_id: z.string().trim().min(1, "instance_id is empty"),
    repo: RepoNameSchema,
    base_commit: z.string().trim().min(1, "base_commit is empty"),
    patch: z.string().nullish(),
    test_patch: z.string().nullish(),
  };
}

/** FAIL_TO_PASS / PASS_TO_PASS: a list, or (Hugging Face export) a JSON-encoded list. */
export const TestIdListSchema = z.union([z.array(z.string()), z.string(), z.null()]).transform((value, ctx) => {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  const text = value.trim();
  if (text === "") return [];
  if (!text.startsWith("[")) {
    ctx.addIssue({ code: "custom", message: "expected a list of test ids or a JSON-encoded list" });
    return z.NEVER;
  }
  try {
    const decoded: unknown = JSON.parse(text);
    if (Array.isArray(decoded) && decoded.every((id) => typeof id === "string")) return decoded as string[];
  } catch {
    // reported below
  }
  ctx.addIssue({ code: "custom", message: "the JSON-encoded test list is not a list of strings" });
  return z.NEVER;
});

export const RepoNameSchema = z
  .string()
  .trim()
  .regex(/^[^/\s]+\/[^/\s]+$/, "expected owner/name")
  .transform((repo) => {
    const [owner, name] = repo.split("/");
    return { owner, name, url: `https://github.com/${repo}` };
  });

/** A version is a string ("4.2"); a number would lose "0.20" → 0.2, so only integers are accepted as numbers. */
export const VersionSchema = z
  .union([z.string(), z.number().int(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined || v === "" ? null : String(v)));

export function parseTimestamp(value: unknown): Date | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

// SWE-bench Verified's annotators' time estimates
const DIFFICULTY_BY_LABEL: Record<string, Difficulty> = {
  "<15 min fix": "EASY",
  "15 min - 1 hour": "MEDIUM",
  "1-4 hours": "HARD",
  ">4 hours": "VERY_HARD",
  easy: "EASY",
  medium: "MEDIUM",
  hard: "HARD",
  very_hard: "VERY_HARD",
};

export function parseDifficulty(value: unknown): Difficulty | null {
  if (typeof value !== "string") return null;
  return (
    DIFFICULTY_BY_LABEL[value.trim()] ??
    DIFFICULTY_BY_LABEL[
      value
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, "_")
    ] ??
    null
  );
}

export const environmentKey = (owner: string, name: string, commit: string) => `${owner}__${name}@${commit}`;

/** The fields of a row that no column holds, kept verbatim so an export can give them back. */
export function extrasOf(row: Record<string, unknown>, consumed: ReadonlySet<string>): Record<string, unknown> | null {
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!consumed.has(key)) extras[key] = value;
  return Object.keys(extras).length ? extras : null;
}
