"use client";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { SafeDiffEditor } from "@/components/diff/safe-diff-editor";
import { useBaseFile } from "@/components/diff/use-base-file";
import { useMonacoReady } from "@/components/editor/use-monaco";
import { apiFetch } from "@/components/ui/api";
import { languageForPath } from "@/lib/tasks/unified-diff";
import { EDIT_OPERATION as OPERATION, samePath, wholeFileOfEdit, type StepEdit } from "@/lib/trajectories/step-edits";

type ListedEdit = Pick<StepEdit, "path" | "operation" | "before" | "after" | "startLine" | "endLine"> & {
  index: number;
};

/**
 * The whole file before and after this edit, when the task's base file is stored and every
 * earlier edit of that file replays on it; else why not (the diff then shows the region only).
 */
function useWholeFile(edit: StepEdit, at: { trajectoryId: string; index: number; taskId: string | null }) {
  const { loading, base } = useBaseFile(at.taskId, edit.path);
  // the same request (and cache entry) as "Show every edit up to step N"
  const edits = useQuery({
    queryKey: ["trajectory-edits", at.trajectoryId, at.index],
    queryFn: () => apiFetch<{ items: ListedEdit[] }>(`/api/v1/trajectories/${at.trajectoryId}/edits?upTo=${at.index}`),
    enabled: !!base && "content" in base,
  });
  return useMemo(() => {
    if (loading) return { loading: true as const };
    if (!base) return { failed: null };
    if ("reason" in base) return { failed: base.reason };
    if (edits.error) return { failed: `The earlier edits could not be loaded: ${edits.error.message}` };
    if (!edits.data) return { loading: true as const };
    if (!edits.data.items.some((item) => item.index === at.index))
      return { failed: "Too many edits before this step to replay them on the base file." };
    const whole = wholeFileOfEdit(
      base.content,
      edits.data.items.filter((item) => item.index < at.index),
      edit,
    );
    return "failed" in whole
      ? { failed: `The whole file is not shown: ${whole.failed}.` }
      : {
          ...whole,
          replayed: edits.data.items.filter(
            (item) => item.index < at.index && !!item.path && !!edit.path && samePath(item.path, edit.path),
          ).length,
        };
  }, [loading, base, edits.data, edits.error, edit, at.index]);
}

/** One edit as a Monaco diff: of the whole file when its base file is stored for the task, else of the region it changed. */
export function EditDiff({
  edit,
  trajectoryId,
  index,
  taskId,
}: {
  edit: StepEdit;
  trajectoryId: string;
  index: number;
  taskId: string | null;
}) {
  const { ready, ref } = useMonacoReady<HTMLParagraphElement>();
  const whole = useWholeFile(edit, { trajectoryId, index, taskId });
  const sides = "original" in whole ? whole : { original: edit.before ?? "", modified: edit.after };
  const changed = Math.max((edit.before ?? "").split("\n").length, edit.after.split("\n").length);
  const lines = "original" in whole ? Math.min(whole.modified.split("\n").length, changed + 10) : changed;
  return (
    <section className="mb-4" aria-label="Edit as a diff" data-testid="edit-diff">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">
        Edit: {OPERATION[edit.operation]} in <span className="font-mono">{edit.path ?? "the open file"}</span>
        {edit.startLine !== undefined && (
          <span className="font-normal text-slate-600">
            {" "}
            from line {edit.startLine}
            {edit.endLine !== undefined && edit.endLine !== edit.startLine ? ` to ${edit.endLine}` : ""}
          </span>
        )}
      </h3>
      {"original" in whole && (
        <p className="mb-1 text-xs text-slate-600" data-testid="whole-file-note">
          Whole file: the base commit
          {whole.replayed
            ? ` with the ${whole.replayed} earlier edit${whole.replayed === 1 ? "" : "s"} of it replayed`
            : ""}
          ; unchanged regions are folded.
        </p>
      )}
      {"failed" in whole && whole.failed && (
        <p className="mb-1 text-xs text-slate-600">{whole.failed} Only the region the edit changed is shown.</p>
      )}
      {!("original" in whole) && edit.before === null && (
        <p className="mb-1 text-xs text-slate-600">
          The lines it replaced were not shown to the agent in the steps before it; the left side is empty.
        </p>
      )}
      {ready && !("loading" in whole) ? (
        <div className="overflow-hidden rounded border border-slate-300" data-testid="monaco-diff">
          <SafeDiffEditor
            key={"original" in whole ? "whole" : "region"}
            original={sides.original}
            modified={sides.modified}
            sideLabels={{
              original: `${edit.path ?? "the open file"} before this edit`,
              modified: `${edit.path ?? "the open file"} after this edit`,
            }}
            language={languageForPath(edit.path ?? "")}
            height={Math.min(420, Math.max(120, (lines + 4) * 19))}
            options={{
              readOnly: true,
              originalEditable: false,
              renderSideBySide: true,
              minimap: { enabled: false },
              scrollBeyondLastLine: false,
              fontSize: 12,
              automaticLayout: true,
              useInlineViewWhenSpaceIsLimited: false,
              // a whole file ends with its newline: Monaco on Linux dims that last empty line's number below WCAG contrast
              renderFinalNewline: "on",
              hideUnchangedRegions: {
                enabled: "original" in whole,
                contextLineCount: 3,
                minimumLineCount: 3,
                revealLineCount: 20,
              },
            }}
          />
        </div>
      ) : (
        <p ref={ref} role="status" aria-busy="true" className="text-xs text-slate-600">
          Loading the diff viewer…
        </p>
      )}
    </section>
  );
}
