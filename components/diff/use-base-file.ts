"use client";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import type { BaseFile } from "@/lib/tasks/task-base-files";

/**
 * A file of the task's repository at the base commit, or why it is not stored; `null` path asks
 * nothing. A failed request is a reason too: the diff falls back to its hunks and says so.
 */
export function useBaseFile(
  taskId: string | null,
  path: string | null,
): { loading: boolean; base: { content: string } | { reason: string } | null } {
  const query = useQuery({
    queryKey: queryKeys.baseFile(taskId ?? "", path ?? ""),
    queryFn: () =>
      apiFetch<BaseFile>(`/api/v1/tasks/${encodeURIComponent(taskId!)}/base-files?path=${encodeURIComponent(path!)}`),
    enabled: !!taskId && !!path,
    staleTime: 60_000,
  });
  const asked = !!taskId && !!path;
  const { data, error } = query;
  // one object per answer: the diff applies the patch again only when the file changes
  return useMemo(() => {
    if (!asked) return { loading: false, base: null };
    if (error) return { loading: false, base: { reason: `The base file could not be loaded: ${error.message}` } };
    if (!data) return { loading: true, base: null };
    return { loading: false, base: data.stored ? { content: data.content } : { reason: data.reason } };
  }, [asked, data, error]);
}
