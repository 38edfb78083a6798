"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { SafeDiffEditor } from "@/components/diff/safe-diff-editor";
import { useMonacoReady } from "@/components/editor/use-monaco";
import { languageForPath } from "@/lib/tasks/unified-diff";
import type { StepEdit } from "@/lib/trajectories/step-edits";

const OPERATION = { replace: "replaced text", create: "created the file", insert: "inserted text", lines: "replaced lines" } as const;

/** One edit as a Monaco diff of the region it changed. */
export function EditDiff({ edit }: { edit: StepEdit }) {
  const { ready } = useMonacoReady();
  const lines = Math.max((edit.before ?? "").split("\n").length, edit.after.split("\n").length);
  return (
    <section className="mb-4" aria-label="Edit as a diff" data-testid="edit-diff">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">
        Edit: {OPERATION[edit.operation]} in <span className="font-mono">{edit.path ?? "the open file"}</span>
        {edit.startLine !== undefined && <span className="font-normal text-slate-600"> from line {edit.startLine}{edit.endLine !== undefined && edit.endLine !== edit.startLine ? ` to ${edit.endLine}` : ""}</span>}
      </h3>
      {edit.before === null && <p className="mb-1 text-xs text-slate-600">The lines it replaced were not shown to the agent in the steps before it; the left side is empty.</p>}
      {ready ? (
        <div className="overflow-hidden rounded border border-slate-300" data-testid="monaco-diff">
          <SafeDiffEditor
            original={edit.before ?? ""}
            modified={edit.after}
            language={languageForPath(edit.path ?? "")}
            height={Math.min(420, Math.max(120, (lines + 4) * 19))}
            options={{ readOnly: true, originalEditable: false, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, fontSize: 12, automaticLayout: true, useInlineViewWhenSpaceIsLimited: false }}
          />
        </div>
      ) : (
        <p className="text-xs text-slate-500">Loading the diff viewer…</p>
      )}
    </section>
  );
}

type EditSoFar = { index: number; path: string | null; operation: StepEdit["operation"] };

/** Every edit up to this step, by file: the repository as the agent saw it here, one click from each edit. */
export function EditsSoFar({ trajectoryId, upTo, onStep }: { trajectoryId: string; upTo: number; onStep(index: number): void }) {
  const [open, setOpen] = useState(false);
  const edits = useQuery({
    queryKey: ["trajectory-edits", trajectoryId, upTo],
    queryFn: () => apiFetch<{ items: EditSoFar[] }>(`/api/v1/trajectories/${trajectoryId}/edits?upTo=${upTo}`),
    enabled: open,
  });
  const byFile = new Map<string, EditSoFar[]>();
  for (const edit of edits.data?.items ?? []) byFile.set(edit.path ?? "(the open file)", [...(byFile.get(edit.path ?? "(the open file)") ?? []), edit]);
  return (
    <section className="mb-4 text-sm">
      <button type="button" className="rounded border px-2 py-0.5 text-xs" aria-expanded={open} onClick={() => setOpen(!open)}>
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
                <button key={edit.index} type="button" className="ml-1 text-xs text-blue-700 underline" onClick={() => onStep(edit.index)}>
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
