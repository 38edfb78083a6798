"use client";
import { useQueries, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys, TRAJECTORY_WINDOW } from "@/components/ui/query-keys";
import type { StepRow } from "@/lib/trajectories/get-trajectory";
import type { StepKind } from "@/lib/trajectories/step-kind";

// The step list is virtual: only the windows (blocks of WINDOW rows) under the visible rows
// are asked for and kept. A window no row shows any more is dropped after a short while
// (gcTime), so the heap stays bounded however far one scrolls or jumps.

export const WINDOW = TRAJECTORY_WINDOW;
const FORGET_AFTER_MS = 10_000;

type Window = { offset: number; position: number | null; items: StepRow[] };

const windowKey = queryKeys.trajectoryWindow;
const windowUrl = (trajectoryId: string, kind: StepKind | null, params: string) =>
  `/api/v1/trajectories/${trajectoryId}/steps?limit=${WINDOW}${kind ? `&kind=${kind}` : ""}&${params}`;

/** The opening step's window, asked for with the trajectory itself instead of after it (unfiltered only: a filtered position needs the counts). */
export function prefetchOpeningWindow(client: QueryClient, trajectoryId: string, step: number) {
  const block = Math.floor(step / WINDOW);
  void client.prefetchQuery({
    queryKey: windowKey(trajectoryId, null, block),
    queryFn: () => apiFetch<Window>(windowUrl(trajectoryId, null, `from=${block * WINDOW}`)),
    staleTime: Infinity,
    gcTime: FORGET_AFTER_MS,
  });
}

export function useStepWindows(trajectoryId: string, kind: StepKind | null, visiblePositions: number[]) {
  const client = useQueryClient();
  const blocks = useMemo(() => [...new Set(visiblePositions.map((p) => Math.floor(p / WINDOW)))], [visiblePositions]);
  const results = useQueries({
    queries: blocks.map((block) => ({
      queryKey: windowKey(trajectoryId, kind, block),
      queryFn: () => apiFetch<Window>(windowUrl(trajectoryId, kind, `from=${block * WINDOW}`)),
      staleTime: Infinity,
      gcTime: FORGET_AFTER_MS,
    })),
  });
  const byBlock = new Map(blocks.map((block, i) => [block, results[i]?.data]));
  const rowAt = (position: number): StepRow | undefined =>
    byBlock.get(Math.floor(position / WINDOW))?.items[position % WINDOW];

  /** Where a step stands in the list, asked once; the window it lies in arrives with the answer and is cached. */
  const locate = useCallback(
    async (index: number): Promise<number> => {
      if (!kind) return index;
      const found = await apiFetch<Window>(windowUrl(trajectoryId, kind, `at=${index}`));
      client.setQueryData(windowKey(trajectoryId, kind, found.offset / WINDOW), found);
      return found.position ?? 0;
    },
    [client, kind, trajectoryId],
  );
  return { rowAt, locate };
}
