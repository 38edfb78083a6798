"use client";
import { Link } from "@/components/ui/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { useCan } from "@/components/auth/actor-context";

type Annotation = {
  id: string;
  stepIndex: number;
  label: string | null;
  comment: string | null;
  author: { name: string | null; email: string };
};
type LabelCount = { label: string; count: number };

export const annotationsKey = (trajectoryId: string) => ["trajectory-annotations", trajectoryId];

/** The labels and comments on one step, and (for curators) a form to add one. */
export function StepAnnotations({ trajectoryId, index }: { trajectoryId: string; index: number }) {
  const canAnnotate = useCan("tasks:decide");
  const client = useQueryClient();
  const all = useQuery({
    queryKey: annotationsKey(trajectoryId),
    queryFn: () => apiFetch<{ items: Annotation[] }>(`/api/v1/trajectories/${trajectoryId}/annotations`),
  });
  const labels = useQuery({
    queryKey: queryKeys.trajectoryLabels(),
    queryFn: () => apiFetch<{ items: LabelCount[] }>("/api/v1/trajectories/labels"),
    enabled: canAnnotate,
  });
  const [label, setLabel] = useState("");
  const [comment, setComment] = useState("");
  const save = useMutation({
    mutationFn: () =>
      apiFetch<Annotation>(`/api/v1/trajectories/${trajectoryId}/annotations`, {
        method: "POST",
        json: { stepIndex: index, ...(label ? { label } : {}), ...(comment.trim() ? { comment: comment.trim() } : {}) },
      }),
    onSuccess: () => {
      setLabel("");
      setComment("");
      void client.invalidateQueries({ queryKey: annotationsKey(trajectoryId) });
      void client.invalidateQueries({ queryKey: queryKeys.trajectoryLabels() });
    },
  });
  const mine = (all.data?.items ?? []).filter((a) => a.stepIndex === index);
  return (
    <section className="mb-4" aria-label="Annotations">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">Annotations</h3>
      {!mine.length && <p className="text-xs text-slate-500">No label or comment on this step yet.</p>}
      <ul className="mb-2 space-y-1 text-sm" data-testid="step-annotations">
        {mine.map((a) => (
          <li key={a.id}>
            {a.label && (
              <Link
                href={`/trajectories/labels?label=${encodeURIComponent(a.label)}`}
                className="mr-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 underline"
              >
                {a.label}
              </Link>
            )}
            {a.comment} <span className="text-xs text-slate-500">— {a.author.name ?? a.author.email}</span>
          </li>
        ))}
      </ul>
      {canAnnotate && (
        <form
          className="flex flex-wrap items-start gap-2 text-xs"
          onSubmit={(event) => {
            event.preventDefault();
            if (label || comment.trim()) save.mutate();
          }}
        >
          <label className="flex flex-col">
            Label
            <select value={label} onChange={(e) => setLabel(e.target.value)} className="rounded border px-1 py-0.5">
              <option value="">(none)</option>
              {labels.data?.items.map((l) => (
                <option key={l.label} value={l.label}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex grow flex-col">
            Comment
            <textarea
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              rows={1}
              className="rounded border px-1 py-0.5"
            />
          </label>
          <button
            type="submit"
            className="self-end rounded border bg-white px-2 py-1"
            disabled={save.isPending || (!label && !comment.trim())}
          >
            Annotate step {index + 1}
          </button>
          {save.error && (
            <p role="alert" className="w-full text-red-700">
              {save.error.message}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
