import { z } from "zod";
import {
  AutomatedVerdict,
  CurationStatus,
  DecisionReason,
  Difficulty,
  FailureClass,
  ReviewerDecision,
  TaskKind,
  TaskSource,
} from "../db/enums";

// The task list's whole state lives in the URL: the same schema parses the page's
// search params, the API's query string and a saved view. Browser-safe (no db client).

const values = <T extends Record<string, string>>(e: T) => Object.values(e) as [T[keyof T], ...T[keyof T][]];

/** "A,B" or ["A","B"] or ["A,B","C"] → ["A","B","C"]; an empty value means "no filter". */
export function listOf<T extends string>(item: z.ZodType<T, string>) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((raw) =>
      raw === undefined
        ? []
        : (Array.isArray(raw) ? raw : [raw])
            .flatMap((v) => v.split(","))
            .map((v) => v.trim())
            .filter(Boolean),
    )
    .pipe(z.array(item).max(50));
}

// Date.parse rolls 2026-02-31 over to March 3, and Postgres then refused it with a 500:
// z.iso.date checks the calendar (month lengths, leap years); Postgres has no year 0.
const isoDay = z.iso
  .date({ message: "use a real calendar date as YYYY-MM-DD" })
  .refine((v) => !v.startsWith("0000"), "use a real calendar date as YYYY-MM-DD (year 1 or later)")
  .optional();

export const TASK_SORTS = [
  "relevance",
  "created_desc",
  "created_asc",
  "updated_desc",
  "instance_asc",
  "instance_desc",
] as const;
export type TaskSort = (typeof TASK_SORTS)[number];
export const TASK_SORT_LABELS: Record<TaskSort, string> = {
  relevance: "Best match",
  created_desc: "Newest first",
  created_asc: "Oldest first",
  updated_desc: "Recently updated",
  instance_asc: "Instance id A→Z",
  instance_desc: "Instance id Z→A",
};

/** Filter values that mean "the field is empty" (a task with no failure class, no reviewer verdict…). */
export const NONE = "NONE";

export const TaskFiltersSchema = z.object({
  q: z
    .string()
    .trim()
    .max(200, "search is limited to 200 characters")
    .optional()
    .transform((v) => v || undefined),
  status: listOf(z.enum(values(CurationStatus))),
  verdict: listOf(z.enum(values(AutomatedVerdict))),
  failureClass: listOf(z.enum([...values(FailureClass), NONE])),
  source: listOf(z.enum(values(TaskSource))),
  /** "owner/name" */
  repository: listOf(z.string().regex(/^[^/\s]+\/[^/\s]+$/, "use owner/name")),
  kind: listOf(z.enum(values(TaskKind))),
  difficulty: listOf(z.enum([...values(Difficulty), NONE])),
  reviewerDecision: listOf(z.enum([...values(ReviewerDecision), NONE])),
  /** "yes": at least one curator decided; "no": nobody did */
  decided: z.enum(["yes", "no"]).optional(),
  /** "yes": tasks of the latest release whose controls' verdicts changed since it (lib/releases) */
  flipped: z.enum(["yes"]).optional(),
  /** a reason any curator cited */
  reason: listOf(z.enum(values(DecisionReason))),
  label: listOf(z.string().min(1).max(64)),
  environment: z.string().min(1).max(200).optional(),
  /** "me", "none" or a user id */
  assignee: z.string().min(1).max(64).optional(),
  createdFrom: isoDay,
  createdTo: isoDay,
  /** the tasks behind one number on an analytics page (lib/analytics/slice-key.ts) */
  slice: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .transform((v) => v || undefined),
  /** relevance: with a search, the exact instance id, then full-text rank (lib/tasks/list-tasks.ts); without one, newest first */
  sort: z.enum(TASK_SORTS).default("relevance"),
});
export type TaskFilters = z.infer<typeof TaskFiltersSchema>;
export type TaskFiltersInput = z.input<typeof TaskFiltersSchema>;

export const TaskListQuerySchema = TaskFiltersSchema.extend({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type TaskListQuery = z.infer<typeof TaskListQuerySchema>;
export type TaskListQueryInput = z.input<typeof TaskListQuerySchema>;

const LIST_KEYS = [
  "status",
  "verdict",
  "failureClass",
  "source",
  "repository",
  "kind",
  "difficulty",
  "reviewerDecision",
  "reason",
  "label",
] as const;
const SCALAR_KEYS = [
  "q",
  "decided",
  "flipped",
  "environment",
  "assignee",
  "createdFrom",
  "createdTo",
  "slice",
] as const;
export type TaskListFilterKey = (typeof LIST_KEYS)[number];
export const TASK_LIST_FILTER_KEYS = LIST_KEYS;

export function emptyTaskFilters(): TaskFilters {
  return TaskFiltersSchema.parse({});
}

/** Reads filters from URL search params; an invalid value is dropped rather than breaking the page. */
export function filtersFromSearchParams(params: URLSearchParams): TaskFilters {
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    raw[key] = all.length > 1 ? all : all[0];
  }
  const parsed = TaskFiltersSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  for (const key of bad) delete raw[key];
  return TaskFiltersSchema.parse(raw);
}

/** Filters → canonical search params (stable key order, defaults omitted) for links, history and saved views. */
export function filtersToSearchParams(filters: Partial<TaskFilters>): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of SCALAR_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  for (const key of LIST_KEYS) {
    const list = filters[key] as readonly string[] | undefined;
    if (list?.length) params.set(key, [...list].join(","));
  }
  if (filters.sort && filters.sort !== "relevance") params.set("sort", filters.sort);
  return params;
}

/** How many filters are active (the search box included), for a badge. */
export function countActiveFilters(filters: TaskFilters): number {
  return SCALAR_KEYS.filter((k) => filters[k]).length + LIST_KEYS.filter((k) => filters[k].length > 0).length;
}

// Keyset cursor: the sort key of the last row shown and its id, opaque to clients.
const CursorSchema = z.tuple([z.union([z.string(), z.null()]), z.string()]);
export type TaskCursor = z.infer<typeof CursorSchema>;

export function encodeCursor(cursor: TaskCursor): string {
  const json = JSON.stringify(cursor);
  return typeof Buffer !== "undefined"
    ? Buffer.from(json).toString("base64url")
    : btoa(json)
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/(?<!=)=+$/, "");
}

export function decodeCursor(value: string): TaskCursor | null {
  try {
    const json =
      typeof Buffer !== "undefined"
        ? Buffer.from(value, "base64url").toString("utf8")
        : atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    const parsed = CursorSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
