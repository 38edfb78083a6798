"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { RubricVersionView } from "@/lib/campaigns/rubrics";
import { ApiError, apiFetch, apiFetchAll } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { Field, inputClass } from "@/components/ui/field";
import { can, type RoleName } from "@/lib/auth/permissions";

type User = { id: string; email: string; name: string | null; role: RoleName; disabled: boolean };
type View = { id: string; name: string; query: string };

/** An admin starts a campaign: rubric, the tasks of a saved view, annotators, overlap, rules, blindness, gold bar. */
export function CreateCampaignForm() {
  const router = useRouter();
  const rubrics = useQuery({
    queryKey: queryKeys.rubrics(),
    queryFn: () => apiFetchAll<RubricVersionView>("/api/v1/campaigns/rubrics"),
  });
  const users = useQuery({ queryKey: queryKeys.users(), queryFn: () => apiFetchAll<User>("/api/v1/users") });
  const views = useQuery({
    queryKey: ["views", "tasks"],
    queryFn: () => apiFetchAll<View>("/api/v1/views?scope=tasks"),
  });
  const [name, setName] = useState("");
  const [rubricVersionId, setRubricVersionId] = useState("");
  const [viewId, setViewId] = useState("");
  const [viewQuery, setViewQuery] = useState("status=PENDING");
  const [annotatorIds, setAnnotatorIds] = useState<string[]>([]);
  const [overlap, setOverlap] = useState(3);
  const [combination, setCombination] = useState("MOST_SEVERE");
  const [blind, setBlind] = useState(true);
  const [hideVerdict, setHideVerdict] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fieldError = (field: string) =>
    error instanceof ApiError
      ? (error.fieldErrors.find((e) => e.field === field || e.field.startsWith(`${field}.`))?.detail ?? null)
      : null;
  const candidates = (users.data ?? []).filter((u) => !u.disabled && can(u.role, "campaigns:annotate"));

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await apiFetch<{ id: string }>("/api/v1/campaigns", {
        method: "POST",
        json: {
          name,
          rubricVersionId: rubricVersionId || undefined,
          ...(viewId ? { viewId } : { viewQuery }),
          annotatorIds,
          overlap,
          combination,
          blind,
          hideVerdict,
        },
      });
      router.push(`/campaigns/${created.id}`);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  return (
    <form
      className="flex max-w-2xl flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <ErrorText error={error} prefix="The campaign was not created" />
      <Field label="Name" error={fieldError("name")}>
        {(id) => (
          <input id={id} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} required />
        )}
      </Field>
      <Field
        label="Rubric"
        hint="The default is SWE-bench Verified's: specification and test validity 0–3, difficulty, major issue, confidence"
      >
        {(id) => (
          <select
            id={id}
            className={inputClass}
            value={rubricVersionId}
            onChange={(e) => setRubricVersionId(e.target.value)}
          >
            <option value="">SWE-bench Verified (default)</option>
            {(rubrics.data ?? [])
              .filter((r) => r.name !== "SWE-bench Verified")
              .map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} v{r.version}
                </option>
              ))}
          </select>
        )}
      </Field>
      <Field
        label="Tasks: a saved view"
        hint="Save a task list as a view on the Tasks page, or type a task list query below"
      >
        {(id) => (
          <select id={id} className={inputClass} value={viewId} onChange={(e) => setViewId(e.target.value)}>
            <option value="">— a query instead —</option>
            {(views.data ?? []).map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {!viewId && (
        <Field
          label="Tasks: task list query"
          error={fieldError("viewQuery")}
          hint="as in the Tasks page URL, e.g. source=SWE_BENCH&status=PENDING"
        >
          {(id) => (
            <input id={id} className={inputClass} value={viewQuery} onChange={(e) => setViewQuery(e.target.value)} />
          )}
        </Field>
      )}
      <fieldset className="flex flex-col gap-1">
        <legend className="text-xs font-medium text-slate-700">Annotators</legend>
        {candidates.map((u) => (
          <label key={u.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={annotatorIds.includes(u.id)}
              onChange={(e) =>
                setAnnotatorIds(e.target.checked ? [...annotatorIds, u.id] : annotatorIds.filter((id) => id !== u.id))
              }
            />
            {u.name ?? u.email} <span className="text-xs text-slate-500">{u.email}</span>
          </label>
        ))}
        {fieldError("annotatorIds") && (
          <p role="alert" className="text-xs text-red-700">
            {fieldError("annotatorIds")}
          </p>
        )}
      </fieldset>
      <div className="flex gap-4">
        <Field label="Labels per task (overlap)" error={fieldError("overlap")}>
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              max={20}
              className={`${inputClass} w-24`}
              value={overlap}
              onChange={(e) => setOverlap(Number(e.target.value))}
            />
          )}
        </Field>
        <Field label="Combination rule">
          {(id) => (
            <select id={id} className={inputClass} value={combination} onChange={(e) => setCombination(e.target.value)}>
              <option value="MOST_SEVERE">Most severe</option>
              <option value="MAJORITY">Majority</option>
              <option value="MEAN">Mean</option>
            </select>
          )}
        </Field>
      </div>
      <p className="text-xs text-slate-600">
        Drop rule (default rubric): a task is dropped when the combined specification or test score is 2 or more, or a
        major issue is flagged.
      </p>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={blind} onChange={(e) => setBlind(e.target.checked)} /> Blind: an annotator sees
        others&apos; answers only after submitting
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={hideVerdict} onChange={(e) => setHideVerdict(e.target.checked)} /> Hide the
        automated verdict until the annotator submits
      </label>
      <div>
        <Button type="submit" variant="primary" disabled={busy} data-testid="create-campaign">
          Create campaign
        </Button>
      </div>
    </form>
  );
}
