"use client";
import { SafeDiffEditor } from "@/components/diff/safe-diff-editor";
import { useMutation } from "@tanstack/react-query";
import { forwardRef, useImperativeHandle, useState } from "react";
import type { RevisionConflictDetails } from "@/lib/environments/save-revision";
import { apiFetch, ApiError } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { Tabs } from "@/components/ui/tabs";
import { CodeEditor } from "@/components/editor/code-editor";
import type { Jsonified } from "@/components/ui/jsonified";

type Revision = { number: number; dockerfile: string; evalScript: string; reason: string | null };
type FileId = "dockerfile" | "evalScript";
type Saved = { revision: { id: string; number: number; reason: string }; dockerfileChanged: boolean };

export type RecipeEditorHandle = { startEditing(): void };

type Props = {
  environmentId: string;
  revision: Revision | null;
  canEdit: boolean;
  onSaved: (saved: Saved) => void;
  /** an IMAGE or SPEC environment's eval script as derived for one task (what its runs execute), shown instead of the stored one */
  derivedEvalScript?: string | null;
  /** shown after a save: re-validate the task(s) against the new revision */
  renderAfterSave?: (saved: Saved) => React.ReactNode;
};

/**
 * The environment's Dockerfile and eval script in Monaco. Curators edit both and save them
 * as a new revision with a reason; if someone saved first, their revision is shown beside
 * this curator's text, which is kept.
 */
export const RecipeEditor = forwardRef<RecipeEditorHandle, Props>(function RecipeEditor(
  { environmentId, revision, canEdit, onSaved, renderAfterSave, derivedEvalScript },
  ref,
) {
  const [file, setFile] = useState<FileId>("evalScript");
  const [draft, setDraft] = useState<{ base: number; dockerfile: string; evalScript: string } | null>(null);
  const [reason, setReason] = useState("");
  const [lastSaved, setLastSaved] = useState<Saved | null>(null);
  const [compare, setCompare] = useState(false);

  const save = useMutation({
    mutationFn: (body: { baseRevision: number; dockerfile: string; evalScript: string; reason: string }) =>
      apiFetch<Saved>(`/api/v1/environments/${environmentId}/revisions`, { method: "POST", json: body }),
    onSuccess: (saved) => {
      setDraft(null);
      setReason("");
      setCompare(false);
      setLastSaved(saved);
      onSaved(saved);
    },
  });

  const startEditing = () => {
    if (!revision || draft) return;
    setLastSaved(null);
    setDraft({ base: revision.number, dockerfile: revision.dockerfile, evalScript: revision.evalScript });
  };
  useImperativeHandle(ref, () => ({ startEditing }));

  if (!revision) return <p className="text-sm text-slate-600">This environment has no revision yet.</p>;
  const conflict =
    save.error instanceof ApiError && save.error.code === "CONFLICT"
      ? (save.error.details as Jsonified<RevisionConflictDetails> | undefined)
      : undefined;
  const shown = draft ?? (derivedEvalScript ? { ...revision, evalScript: derivedEvalScript } : revision);
  const showsDerived = !draft && file === "evalScript" && !!derivedEvalScript;
  const dirty = draft && (draft.dockerfile !== revision.dockerfile || draft.evalScript !== revision.evalScript);

  return (
    <div className="flex flex-col gap-2" data-testid="recipe-editor">
      <div className="flex flex-wrap items-center gap-2">
        <Tabs
          label="Recipe files"
          value={file}
          onChange={setFile}
          tabs={[
            { id: "dockerfile", label: "Dockerfile" },
            { id: "evalScript", label: "Eval script" },
          ]}
        />
        <span className="text-xs text-slate-600" data-testid="revision-number">
          Revision {revision.number}
          {revision.reason ? ` — ${revision.reason}` : ""}
        </span>
        {canEdit && !draft && (
          <Button size="sm" className="ml-auto" onClick={startEditing} title="Edit (e)">
            Edit recipe <kbd className="text-xs text-slate-500">e</kbd>
          </Button>
        )}
      </div>
      {showsDerived && (
        <p className="text-xs text-slate-700" data-testid="derived-eval-script">
          Derived for this task: the environment&apos;s image is not built from this recipe, so its runs use this
          script, made per task from the test patch and the repository&apos;s test command, not the revision&apos;s
          stored one.
        </p>
      )}
      <CodeEditor
        key={`${file}-${draft ? "edit" : revision.number}-${showsDerived ? "derived" : "stored"}`}
        label={
          file === "dockerfile" ? "Dockerfile" : showsDerived ? "Eval script (derived for this task)" : "Eval script"
        }
        language={file === "dockerfile" ? "dockerfile" : "shell"}
        value={shown[file]}
        readOnly={!draft}
        onChange={(value) => setDraft((d) => (d ? { ...d, [file]: value } : d))}
      />
      {draft && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({
              baseRevision: draft.base,
              dockerfile: draft.dockerfile,
              evalScript: draft.evalScript,
              reason,
            });
          }}
        >
          <label className="flex min-w-[20rem] flex-1 flex-col text-xs font-medium text-slate-700">
            Why this change (saved with revision {draft.base + 1})
            <input
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              className="rounded border border-slate-300 px-2 py-1 text-sm"
              placeholder="e.g. pin pytest; the eval script forced exit 0"
            />
          </label>
          <Button
            type="submit"
            variant="primary"
            disabled={!dirty || reason.trim().length < 3 || save.isPending}
            data-testid="save-revision"
          >
            {save.isPending ? "Saving…" : "Save as new revision"}
          </Button>
          <Button
            onClick={() => {
              setDraft(null);
              save.reset();
            }}
          >
            Discard edits
          </Button>
          {!dirty && <span className="text-xs text-slate-500">Change the Dockerfile or eval script to save.</span>}
        </form>
      )}
      {conflict && draft ? (
        <div
          role="alert"
          data-testid="conflict"
          className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p className="font-medium">Conflict: {(save.error as Error).message}</p>
          <div className="mt-2 flex gap-2">
            <Button size="sm" onClick={() => setCompare((c) => !c)}>
              {compare ? "Hide" : "Compare"} revision {conflict.current.number} with my text
            </Button>
            <Button
              size="sm"
              onClick={() => {
                setDraft({ ...draft, base: conflict.current.number });
                save.reset();
              }}
            >
              Keep my text and save it on top of revision {conflict.current.number}
            </Button>
          </div>
          {compare && (
            <div className="mt-2 overflow-hidden rounded border border-amber-300 bg-white">
              <p className="px-2 py-1 text-xs">
                Left: revision {conflict.current.number} ({conflict.current.author ?? "someone"}); right: yours —{" "}
                {file === "dockerfile" ? "Dockerfile" : "eval script"}
              </p>
              <SafeDiffEditor
                sideLabels={{ original: `revision ${conflict.current.number}`, modified: "your edit" }}
                original={conflict.current[file]}
                modified={draft[file]}
                language={file === "dockerfile" ? "dockerfile" : "shell"}
                height={240}
                options={{ readOnly: true, minimap: { enabled: false } }}
              />
            </div>
          )}
        </div>
      ) : (
        <ErrorText error={save.error} />
      )}
      {lastSaved && (
        <div
          role="status"
          className="flex flex-wrap items-center gap-2 rounded border border-green-300 bg-green-50 p-2 text-sm text-green-900"
          data-testid="revision-saved"
        >
          Saved revision {lastSaved.revision.number}.
          {lastSaved.dockerfileChanged
            ? " The Dockerfile changed, so the image will be rebuilt."
            : " Only the eval script changed: the built image is reused."}
          {renderAfterSave?.(lastSaved)}
        </div>
      )}
    </div>
  );
});
