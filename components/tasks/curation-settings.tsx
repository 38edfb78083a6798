"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CurationSettings } from "@/lib/curation/settings";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { inputClass } from "@/components/ui/field";
import { useCan } from "@/components/auth/actor-context";

/** Approvals required and the review lease length; admins change them, everyone sees them. */
export function CurationSettingsPanel() {
  const canManage = useCan("settings:manage");
  const client = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.curationSettings(),
    queryFn: () => apiFetch<CurationSettings>("/api/v1/settings"),
  });
  const [draft, setDraft] = useState<CurationSettings | null>(null);
  const save = useMutation({
    mutationFn: (body: CurationSettings) =>
      apiFetch<CurationSettings>("/api/v1/settings", { method: "PUT", json: body }),
    onSuccess: () => {
      setDraft(null);
      return client.invalidateQueries({ queryKey: queryKeys.curationSettings() });
    },
  });
  if (!data) return null;
  const shown = draft ?? data;
  return (
    <form
      aria-label="Curation settings"
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft) save.mutate(draft);
      }}
    >
      <label className="flex flex-col text-xs font-medium">
        Approvals required before a task is APPROVED
        <input
          type="number"
          min={1}
          max={10}
          disabled={!canManage}
          value={shown.approvalsRequired}
          onChange={(e) => setDraft({ ...shown, approvalsRequired: Number(e.target.value) })}
          className={`${inputClass} w-24`}
        />
      </label>
      <label className="flex flex-col text-xs font-medium">
        Review lease (minutes)
        <input
          type="number"
          min={1}
          max={1440}
          disabled={!canManage}
          value={shown.leaseMinutes}
          onChange={(e) => setDraft({ ...shown, leaseMinutes: Number(e.target.value) })}
          className={`${inputClass} w-24`}
        />
      </label>
      {canManage && (
        <Button type="submit" variant="primary" disabled={!draft || save.isPending}>
          Save settings
        </Button>
      )}
      {!canManage && <span className="text-xs text-slate-500">Only admins change these.</span>}
      <ErrorText error={save.error} />
    </form>
  );
}
