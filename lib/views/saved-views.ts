import { z } from "zod";
import type { Db } from "../db/client";
import { AppError, notFound } from "../errors/app-error";
import { filtersFromSearchParams, filtersToSearchParams } from "../tasks/task-filters";

// A saved view is a named list URL state, per user. Task views are stored canonicalised
// (the same filters always give the same query string), so a view reopens exactly.

export const VIEW_SCOPES = ["tasks", "environments"] as const;
export const SavedViewInputSchema = z.object({
  name: z.string().trim().min(1, "name the view").max(100),
  scope: z.enum(VIEW_SCOPES).default("tasks"),
  query: z
    .string()
    .max(4_000)
    .transform((q) => q.replace(/^\?/, "")),
});
export type SavedViewInput = z.input<typeof SavedViewInputSchema>;

function canonicalQuery(scope: (typeof VIEW_SCOPES)[number], query: string): string {
  if (scope !== "tasks") return new URLSearchParams(query).toString();
  return filtersToSearchParams(filtersFromSearchParams(new URLSearchParams(query))).toString();
}

export async function listSavedViews(db: Db, userId: string, scope?: string) {
  return db.savedView.findMany({
    where: { userId, ...(scope ? { scope } : {}) },
    orderBy: { name: "asc" },
    select: { id: true, name: true, scope: true, query: true, updatedAt: true },
  });
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === "P2002";

/** Saves (or replaces, by name) one of the user's views. */
export async function saveView(db: Db, userId: string, rawInput: SavedViewInput) {
  const input = SavedViewInputSchema.parse(rawInput);
  const query = canonicalQuery(input.scope, input.query);
  return db.savedView.upsert({
    where: { userId_scope_name: { userId, scope: input.scope, name: input.name } },
    create: { userId, scope: input.scope, name: input.name, query },
    update: { query },
    select: { id: true, name: true, scope: true, query: true, updatedAt: true },
  });
}

export async function renameView(db: Db, userId: string, viewId: string, name: string) {
  const view = await db.savedView.findFirst({ where: { id: viewId, userId } });
  if (!view) throw notFound("The saved view");
  try {
    return await db.savedView.update({
      where: { id: viewId },
      data: { name: name.trim() },
      select: { id: true, name: true, scope: true, query: true, updatedAt: true },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", `You already have a view named "${name}"`);
    throw error;
  }
}

/** Deletes one of the user's own views (another user's view is "not found", not "forbidden"). */
export async function deleteView(db: Db, userId: string, viewId: string) {
  const { count } = await db.savedView.deleteMany({ where: { id: viewId, userId } });
  if (count === 0) throw notFound("The saved view");
}
