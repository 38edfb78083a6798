"use client";
import { SafeDiffEditor } from "@/components/diff/safe-diff-editor";
import { useMonacoReady } from "@/components/editor/use-monaco";
import { languageForPath } from "@/lib/tasks/unified-diff";
import { EDIT_OPERATION as OPERATION, type StepEdit } from "@/lib/trajectories/step-edits";


/** One edit as a Monaco diff of the region it changed. */
export function EditDiff({ edit }: { edit: StepEdit }) {
  const { ready, ref } = useMonacoReady<HTMLParagraphElement>();
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
            sideLabels={{ original: `${edit.path ?? "the open file"} before this edit`, modified: `${edit.path ?? "the open file"} after this edit` }}
            language={languageForPath(edit.path ?? "")}
            height={Math.min(420, Math.max(120, (lines + 4) * 19))}
            options={{ readOnly: true, originalEditable: false, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, fontSize: 12, automaticLayout: true, useInlineViewWhenSpaceIsLimited: false }}
          />
        </div>
      ) : (
        <p ref={ref} className="text-xs text-slate-500">Loading the diff viewer…</p>
      )}
    </section>
  );
}
