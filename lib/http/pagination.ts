import { z, type ZodType } from "zod";
import { AppError } from "../errors/app-error";
import type { Page, PageQuery } from "../db/keyset-page";

// Every /api/v1 list answers { items, nextCursor }: pass nextCursor back as ?cursor= for the
// next page; null means the last page. Cursors are opaque to clients. The page request and
// keyset paging are the domain's (lib/db/keyset-page.ts); routes take them from here too.
export { PageQuerySchema, type Page, type PageQuery } from "../db/keyset-page";

export const pageSchema = <T extends ZodType>(item: T) =>
  z.looseObject({ items: z.array(item), nextCursor: z.string().nullable() });

/**
 * A page of a list the domain returns whole because it is small by nature (workers, the
 * assignable users): the same contract as keysetPage (lib/db/keyset-page.ts), cut after the item the cursor names.
 */
export function pageOf<T>(all: T[], page: PageQuery, keyOf: (item: T) => string): Page<T> {
  let start = 0;
  if (page.cursor) {
    const at = all.findIndex((item) => keyOf(item) === page.cursor);
    if (at < 0)
      throw new AppError(
        "BAD_REQUEST",
        "The page cursor is not valid (its item is gone); reload the list from the first page",
        undefined,
        [{ field: "cursor", in: "query", pointer: "/cursor", detail: "cursor names no item of this list" }],
      );
    start = at + 1;
  }
  const items = all.slice(start, start + page.limit);
  return { items, nextCursor: start + page.limit < all.length ? keyOf(items[items.length - 1]) : null };
}
