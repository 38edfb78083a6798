"use client";
import type { UseInfiniteQueryResult } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";

/** How close to the end of the loaded rows the next page is fetched. */
const PREFETCH_ROWS = 20;

/**
 * Virtual rows over a cursor-paginated list: only the visible rows are in the DOM, and the
 * next page is fetched as the user scrolls near the end of what is loaded.
 */
/** the scroll box a virtual list assumes before it can be measured (server render, first paint): without it, no row is rendered on the server */
export const SERVER_RECT = { width: 1280, height: 800 };

export function useInfiniteRows(
  query: Pick<UseInfiniteQueryResult, "hasNextPage" | "isFetchingNextPage" | "fetchNextPage">,
  count: number,
  rowHeight: number,
) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual returns functions React Compiler cannot memoize; callers are not compiled
  // initialRect: on the server there is no scroll element to measure, and without a size the
  // virtualizer renders no row, so a list whose first page came with the HTML showed it only
  // after hydration; a viewport's worth is rendered at once and corrected on the first measure
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    initialRect: SERVER_RECT,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows[rows.length - 1]?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= count - PREFETCH_ROWS) void fetchNextPage();
  }, [lastIndex, count, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { scrollRef, rows, totalSize: virtualizer.getTotalSize() };
}
