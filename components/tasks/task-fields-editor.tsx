"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Difficulty } from "@/lib/db/enums";
import type { TaskConflictDetails } from "@/lib/tasks/task-version";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { humanize } from "@/components/ui/badge";
import { inputClass } from "@/components/ui/field";
import { ConflictNotice, isConflict } from "./conflict-notice";

type Fields = { labels: string[]; difficulty: string | null; failToPass: string[]; passToPass: string[] };
// the draft remembers the version it started from: a refetch underneath must not make a stale edit look fresh
type Draft = { labels: string; difficulty: string; failToPass: string; passToPass: string; version: number };

const toDraft = (f: Fields, version: number): Draft => ({
  version,
  labels: f.labels.join(", "),
  difficulty: f.difficulty ?? "",
  failToPass: f.failToPass.join("\n"),
  passToPass: f.passToPass.join("\n"),
});
const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** Edits a task's labels, difficulty and test lists at the version the curator saw. */
export function TaskFieldsEditor({
  taskId,
  version,
  fields,
  onSaved,
}: {
  taskId: string;
  version: number;
  fields: Fields;
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const save = useMutation({
    mutationFn: ({ draft, version }: { draft: Draft; version: number }) =>
      apiFetch(`/api/v1/tasks/${taskId}`, {
        method: "PATCH",
        json: {
          version,
          labels: draft.labels
            .split(",")
            .map((l) => l.trim())
            .filter(Boolean),
          difficulty: draft.difficulty || null,
          failToPass: lines(draft.failToPass),
          passToPass: lines(draft.passToPass),
        },
      }),
    onSuccess: () => {
      setDraft(null);
      onSaved();
    },
  });
  if (!draft) {
    return (
      <Button size="sm" onClick={() => setDraft(toDraft(fields, version))} data-testid="edit-task-fields">
        Edit labels, difficulty and tests
      </Button>
    );
  }
  const set =
    (key: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setDraft({ ...draft, [key]: e.target.value });
  return (
    <form
      aria-label="Edit task"
      className="flex flex-col gap-2 rounded border border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ draft, version: draft.version });
      }}
    >
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-1 flex-col text-xs font-medium">
          Labels (comma-separated)
          <input value={draft.labels} onChange={set("labels")} className={inputClass} data-testid="labels-input" />
        </label>
        <label className="flex flex-col text-xs font-medium">
          Difficulty
          <select value={draft.difficulty} onChange={set("difficulty")} className={inputClass}>
            <option value="">Unknown</option>
            {Object.values(Difficulty).map((d) => (
              <option key={d} value={d}>
                {humanize(d)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="flex flex-col text-xs font-medium">
        FAIL_TO_PASS tests (one per line)
        <textarea
          value={draft.failToPass}
          onChange={set("failToPass")}
          rows={3}
          className={`${inputClass} font-mono text-xs`}
        />
      </label>
      <label className="flex flex-col text-xs font-medium">
        PASS_TO_PASS tests (one per line)
        <textarea
          value={draft.passToPass}
          onChange={set("passToPass")}
          rows={3}
          className={`${inputClass} font-mono text-xs`}
        />
      </label>
      {isConflict(save.error) ? (
        <ConflictNotice
          error={save.error}
          onRetry={() => {
            const latest = (save.error as { details?: TaskConflictDetails }).details?.currentVersion ?? version;
            setDraft({ ...draft, version: latest });
            save.mutate({ draft, version: latest });
          }}
        />
      ) : (
        <ErrorText error={save.error} />
      )}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={save.isPending} data-testid="save-task-fields">
          Save
        </Button>
        <Button onClick={() => setDraft(null)}>Cancel</Button>
        <span className="self-center text-xs text-slate-500">editing version {draft.version}</span>
      </div>
    </form>
  );
}
