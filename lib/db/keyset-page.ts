import { z } from "zod";

// Lists are read a page at a time: the request is a cursor (the last id seen) and a limit; the
// answer is { items, nextCursor }, nextCursor null on the last page.

export const PageQuerySchema = z.object({
  cursor: z.string().min(1).max(200).optional().describe("nextCursor of the previous page"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** One page of a list and the cursor of the next (null on the last page); every /api/v1 list answers this shape. */
export type Page<T> = { items: T[]; nextCursor: string | null };

/** A page through Prisma's keyset cursor on a unique id (the query's orderBy must end with id). */
export async function keysetPage<T extends { id: string }>(
  page: PageQuery,
  find: (args: { take: number; skip?: number; cursor?: { id: string } }) => Promise<T[]>,
): Promise<Page<T>> {
  const rows = await find({ take: page.limit + 1, ...(page.cursor ? { cursor: { id: page.cursor }, skip: 1 } : {}) });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? items[items.length - 1].id : null };
}

/** Every item of a paged list, following its cursor: on the server, what a client gathers page by page (components/ui/api.ts apiFetchAll). */
export async function allPages<T>(read: (page: PageQuery) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read({ limit: 200, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}
