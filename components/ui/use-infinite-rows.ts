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
export function useInfiniteRows(query: Pick<UseInfiniteQueryResult, "hasNextPage" | "isFetchingNextPage" | "fetchNextPage">, count: number, rowHeight: number) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual returns functions React Compiler cannot memoize; callers are not compiled
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 12 });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows[rows.length - 1]?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= count - PREFETCH_ROWS) void fetchNextPage();
  }, [lastIndex, count, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { scrollRef, rows, totalSize: virtualizer.getTotalSize() };
}
