"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api";
import { IMPORT_HISTORY_SIZE, queryKeys } from "@/components/ui/query-keys";
import { isActive, type ImportBatchView } from "./types";

/** all: the history (app/(dashboard)/imports/page.tsx fills it with the page), and the prefix of every batch's own key */
export const importKeys = { all: queryKeys.imports(), one: (id: string) => [...queryKeys.imports(), id] };

/** One batch, polled while it runs. */
export function useImportBatch(id: string | null) {
  return useQuery({
    queryKey: importKeys.one(id ?? "none"),
    queryFn: () => apiFetch<ImportBatchView>(`/api/v1/imports/${id}`),
    enabled: !!id,
    refetchInterval: (query) => (query.state.data && isActive(query.state.data) ? 700 : false),
  });
}

export function useImportHistory() {
  return useQuery({
    queryKey: importKeys.all,
    queryFn: () =>
      apiFetch<{ items: ImportBatchView[]; nextCursor: string | null }>(`/api/v1/imports?limit=${IMPORT_HISTORY_SIZE}`),
    refetchInterval: (query) => (query.state.data?.items.some(isActive) ? 2000 : false),
  });
}

export function useCancelImport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<ImportBatchView>(`/api/v1/imports/${id}/cancel`, { method: "POST" }),
    onSuccess: (batch) => {
      client.setQueryData(importKeys.one(id), batch);
      void client.invalidateQueries({ queryKey: importKeys.all });
    },
  });
}

export type UploadOptions = { source?: string; generator?: string; instanceId?: string };

/**
 * Uploads with XMLHttpRequest because fetch reports no upload progress; the file is sent
 * as the raw body (the server streams it to disk), so no multipart buffering either side.
 */
export function uploadFile(
  file: File,
  options: UploadOptions,
  onProgress: (loaded: number, total: number) => void,
): Promise<ImportBatchView> {
  const query = new URLSearchParams(Object.entries(options).filter(([, v]) => v) as [string, string][]);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/imports${query.size ? `?${query}` : ""}`);
    xhr.setRequestHeader("x-file-name", encodeURIComponent(file.name));
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      let body: { error?: { message?: string } } | ImportBatchView | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // reported below
      }
      if (xhr.status === 202 && body) resolve(body as ImportBatchView);
      else
        reject(
          new Error(
            (body as { error?: { message?: string } } | null)?.error?.message ?? `The upload failed (${xhr.status})`,
          ),
        );
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted (network error); nothing was imported"));
    xhr.send(file);
  });
}
