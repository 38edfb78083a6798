"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TaskDetail as TaskDetailData } from "@/lib/curation/get-task-detail";
import { apiFetch } from "@/components/ui/api";
import type { Jsonified } from "@/components/ui/jsonified";
import { queryKeys } from "@/components/ui/query-keys";
import { validationsKey } from "@/components/validation/validation-panel";

/** verdictHidden: a blind campaign keeps the verdict, the decisions and the approvals count from this annotator until they submit (lib/auth/blind.ts) */
export type TaskDetailJson = Jsonified<TaskDetailData> & { verdictHidden?: string };

const taskKey = queryKeys.task;

export function useTask(taskId: string) {
  return useQuery({ queryKey: taskKey(taskId), queryFn: () => apiFetch<TaskDetailJson>(`/api/v1/tasks/${taskId}`) });
}

/** Everything a change to the task makes stale, refetched at once. */
export function useRefreshTask(taskId: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: taskKey(taskId) }),
      // by prefix: the page may be addressed by instance id while the history is keyed by the task id
      client.invalidateQueries({ queryKey: ["task-history"] }),
      client.invalidateQueries({ queryKey: ["tasks"] }),
      client.invalidateQueries({ queryKey: ["task-facets"] }),
    ]);
}

/** Queue a validation (both controls): the v key, the page's next step and "re-validate after an edit". */
export function useValidateTask(taskId: string, validationTaskId: string | undefined) {
  const client = useQueryClient();
  const refresh = useRefreshTask(taskId);
  return useMutation({
    mutationFn: () => apiFetch("/api/v1/runs", { method: "POST", json: { taskId: validationTaskId ?? taskId } }),
    onSettled: () =>
      Promise.all([refresh(), client.invalidateQueries({ queryKey: validationsKey(validationTaskId ?? taskId) })]),
  });
}

/** Retry a failed or cancelled validation run (its whole group). */
export function useRetryRun(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => apiFetch(`/api/v1/runs/${runId}/retry`, { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: validationsKey(taskId) }),
  });
}
