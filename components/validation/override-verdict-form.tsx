"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { Field, inputClass } from "@/components/ui/field";

type Props = {
  taskId: string;
  version: number;
  current: { verdictOverride: string | null; overrideJustification: string | null };
  onSaved: () => void;
};

const MIN_JUSTIFICATION = 10;

/** A curator overrides the automated verdict; a justification is required and the change is audited. */
export function OverrideVerdictForm({ taskId, version, current, onSaved }: Props) {
  const [verdict, setVerdict] = useState(current.verdictOverride ?? "VALID");
  const [justification, setJustification] = useState("");
  const save = useMutation({
    mutationFn: (clear: boolean) =>
      apiFetch(`/api/v1/tasks/${taskId}/override`, {
        method: "POST",
        json: { verdict: clear ? null : verdict, justification, version },
      }),
    onSuccess: () => {
      setJustification("");
      onSaved();
    },
  });
  const tooShort = justification.trim().length < MIN_JUSTIFICATION;
  return (
    <form
      className="flex flex-col gap-2 rounded border border-slate-200 bg-white p-3"
      aria-label="Override the automated verdict"
      onSubmit={(event) => {
        event.preventDefault();
        if (!tooShort) save.mutate(false);
      }}
    >
      <h3 className="text-sm font-semibold text-slate-900">Override the automated verdict</h3>
      {current.verdictOverride && (
        <p className="text-xs text-slate-700">
          Currently overridden to <strong>{current.verdictOverride}</strong>: “{current.overrideJustification}”
        </p>
      )}
      <Field label="Verdict">
        {(id) => (
          <select id={id} className={inputClass} value={verdict} onChange={(e) => setVerdict(e.target.value)}>
            <option value="VALID">VALID</option>
            <option value="INVALID">INVALID</option>
            <option value="FLAKY">FLAKY</option>
          </select>
        )}
      </Field>
      <Field
        label="Justification (required)"
        hint={`Why automation is wrong here, at least ${MIN_JUSTIFICATION} characters; it is kept in the audit log.`}
      >
        {(id) => (
          <textarea
            id={id}
            className={inputClass}
            rows={3}
            value={justification}
            onChange={(e) => setJustification(e.target.value)}
            required
            minLength={MIN_JUSTIFICATION}
          />
        )}
      </Field>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={tooShort || save.isPending}>
          Override verdict
        </Button>
        {current.verdictOverride && (
          <Button size="sm" disabled={tooShort || save.isPending} onClick={() => save.mutate(true)}>
            Remove the override
          </Button>
        )}
      </div>
      <ErrorText error={save.error} />
    </form>
  );
}
