"use client";
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { RubricVersionView } from "@/lib/campaigns/rubrics";
import { ApiError, apiFetch, apiFetchAll } from "@/components/ui/api";
import { queryKeys } from "@/components/ui/query-keys";
import { ErrorText } from "@/components/ui/error-text";
import { Field, inputClass } from "@/components/ui/field";
import { Button } from "@/components/ui/button";

/**
 * Rubrics and their latest versions; saving questions under an existing name adds a version.
 * The questions are edited as JSON (types: scale, single, multiple, yesno, text; required;
 * showIf for a conditional question), checked by the server with a sentence per problem.
 */
export function RubricEditor() {
  const client = useQueryClient();
  const { data, error } = useQuery({
    queryKey: queryKeys.rubrics(),
    queryFn: () => apiFetchAll<RubricVersionView>("/api/v1/campaigns/rubrics"),
  });
  const [name, setName] = useState("");
  const [json, setJson] = useState("");
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const edit = (rubric: RubricVersionView) => {
    setName(rubric.name === "SWE-bench Verified" ? "" : rubric.name);
    setJson(JSON.stringify(rubric.questions, null, 2));
  };
  const save = async () => {
    setSaveError(null);
    let questions: unknown;
    try {
      questions = JSON.parse(json);
    } catch (e) {
      return setSaveError(new Error(`The questions are not valid JSON: ${(e as Error).message}`));
    }
    try {
      const result = await apiFetch<RubricVersionView>("/api/v1/campaigns/rubrics", {
        method: "POST",
        json: { name, questions },
      });
      setSaved(`${result.name} v${result.version}`);
      await client.invalidateQueries({ queryKey: queryKeys.rubrics() });
    } catch (e) {
      setSaveError(e);
    }
  };
  if (error) return <ErrorText error={error} prefix="Could not load the rubrics" />;
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-1 text-sm" data-testid="rubric-list">
        {(data ?? []).map((r) => (
          <li key={r.id} className="flex items-center gap-2">
            <span className="font-medium">{r.name}</span> v{r.version} · {r.questions.length} questions
            <Button size="sm" onClick={() => edit(r)}>
              Edit a copy
            </Button>
          </li>
        ))}
      </ul>
      <form
        className="flex max-w-3xl flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {saved && (
          <p role="status" className="text-sm text-green-800">
            Saved {saved}.
          </p>
        )}
        <ErrorText error={saveError} prefix="The rubric was not saved" />
        {saveError instanceof ApiError && saveError.fieldErrors.length > 0 && (
          <ul className="list-disc pl-6 text-xs text-red-800">
            {saveError.fieldErrors.map((f) => (
              <li key={f.field + f.detail}>
                {f.field}: {f.detail}
              </li>
            ))}
          </ul>
        )}
        <Field label="Rubric name" hint="A new name starts a rubric; an existing name adds a version to it">
          {(id) => (
            <input id={id} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} required />
          )}
        </Field>
        <Field label="Questions (JSON)">
          {(id) => (
            <textarea
              id={id}
              className={`${inputClass} font-mono`}
              rows={18}
              value={json}
              onChange={(e) => setJson(e.target.value)}
              required
            />
          )}
        </Field>
        <div>
          <Button type="submit" variant="primary">
            Save version
          </Button>
        </div>
      </form>
    </div>
  );
}
