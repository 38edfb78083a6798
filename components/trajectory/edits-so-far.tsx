"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { EDIT_OPERATION as OPERATION, type StepEdit } from "@/lib/trajectories/step-edits";

type EditSoFar = { index: number; path: string | null; operation: StepEdit["operation"] };

/** Every edit up to this step, by file: the repository as the agent saw it here, one click from each edit. */
export function EditsSoFar({
  trajectoryId,
  upTo,
  onStep,
}: {
  trajectoryId: string;
  upTo: number;
  onStep(index: number): void;
}) {
  const [open, setOpen] = useState(false);
  const edits = useQuery({
    queryKey: ["trajectory-edits", trajectoryId, upTo],
    queryFn: () => apiFetch<{ items: EditSoFar[] }>(`/api/v1/trajectories/${trajectoryId}/edits?upTo=${upTo}`),
    enabled: open,
  });
  const byFile = new Map<string, EditSoFar[]>();
  for (const edit of edits.data?.items ?? [])
    byFile.set(edit.path ?? "(the open file)", [...(byFile.get(edit.path ?? "(the open file)") ?? []), edit]);
  return (
    <section className="mb-4 text-sm">
      <button
        type="button"
        className="rounded border px-2 py-0.5 text-xs"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {open ? "Hide" : "Show"} every edit up to step {upTo + 1}
      </button>
      {open && (
        <div className="mt-2 rounded border bg-slate-50 p-2" data-testid="edits-so-far">
          {edits.isLoading && <p className="text-xs">Loading…</p>}
          {edits.data && !edits.data.items.length && <p className="text-xs">No edit up to here.</p>}
          {[...byFile].map(([path, list]) => (
            <div key={path} className="mb-1">
              <span className="font-mono text-xs">{path}</span>{" "}
              {list.map((edit) => (
                <button
                  key={edit.index}
                  type="button"
                  className="ml-1 text-xs text-blue-700 underline"
                  onClick={() => onStep(edit.index)}
                >
                  step {edit.index + 1} ({OPERATION[edit.operation]})
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
