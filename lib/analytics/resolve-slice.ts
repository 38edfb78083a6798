import type { Db } from "../db/client";
import { AppError } from "../errors/app-error";
import { raw, sql, type SqlFragment } from "../db/sql";
import type { FilterContext } from "../tasks/task-list-sql";
import { funnelCondition, FunnelSliceSchema } from "./funnel";
import { generatedTestSliceTaskIds } from "./generated-tests";
import { reviewerSliceTaskIds } from "./reviewers";
import { revisionSliceTaskIds } from "./revisions";
import { decodeSlice } from "./slice-key";
import { verifiabilitySliceTaskIds } from "./verifiability";

/**
 * The task-list condition for ?slice=: the funnel's own SQL predicate, or the ids of the
 * tasks the page's computation selected with the same predicates it counted with.
 */
export async function resolveSlice(db: Db, text: string): Promise<SqlFragment> {
  const slice = decodeSlice(text);
  if (!slice)
    throw new AppError(
      "BAD_REQUEST",
      "The analytics slice in this link is not valid; open the number again from its analytics page",
    );
  switch (slice.page) {
    case "funnel": {
      const parsed = FunnelSliceSchema.safeParse(slice.params);
      if (!parsed.success)
        throw new AppError(
          "BAD_REQUEST",
          "The funnel slice in this link names an unknown stage; open the number again from the funnel page",
        );
      return sql`(${funnelCondition(parsed.data)})`;
    }
    case "reviewers":
      return idsCondition(await reviewerSliceTaskIds(db, slice.params));
    case "revisions":
      return idsCondition(await revisionSliceTaskIds(db, slice.params));
    case "generated-tests":
      return idsCondition(await generatedTestSliceTaskIds(db, slice.params));
    case "verifiability":
      return idsCondition(await verifiabilitySliceTaskIds(db, slice.params));
  }
}

const idsCondition = (ids: string[]) => (ids.length ? sql`t.id = ANY(${ids}::text[])` : raw("FALSE"));

/** The list's context with ?slice= resolved: every caller of listTasks / taskFacets that passes filters from a URL. */
export async function withResolvedSlice<C extends FilterContext>(
  db: Db,
  slice: string | undefined,
  context: C,
): Promise<C> {
  return slice && !context.slice ? { ...context, slice: await resolveSlice(db, slice) } : context;
}
