"use client";
import { useMutation } from "@tanstack/react-query";
import { forwardRef, useImperativeHandle, useRef, useState } from "react";
import { DecisionReason, type AutomatedVerdict, type DecisionVerdict } from "@/lib/db/enums";
import {
  DECISION_REASON_LABELS,
  UNDO_WINDOW_MS,
  decisionProblem,
  overridesAutomated,
} from "@/lib/curation/decision-rules";
import { apiFetch } from "@/components/ui/api";
import { Button } from "@/components/ui/button";
import { ErrorText } from "@/components/ui/error-text";
import { ConflictNotice, isConflict } from "./conflict-notice";

const VERDICTS: { value: DecisionVerdict; label: string; key: string }[] = [
  { value: "APPROVE", label: "Approve", key: "a" },
  { value: "REJECT", label: "Reject", key: "r" },
  { value: "NEEDS_CHANGES", label: "Needs changes", key: "n" },
];

export type DecisionFormHandle = { choose(verdict: DecisionVerdict): void; focus(): void };

export type RecordedDecision = { id: string; verdict: DecisionVerdict };
type Props = {
  taskId: string;
  version: number;
  automatedVerdict: AutomatedVerdict;
  onDecided: (decision: RecordedDecision) => void;
  onStale: () => void;
};

const UNVALIDATED_PROBLEM =
  "No validation has judged this task: tick the confirmation to decide without that evidence, or validate it first";

/** What still stops the form, in words: the shared decision rules plus the two the page adds. */
function formProblem(
  verdict: DecisionVerdict | null,
  input: { reasons: DecisionReason[]; comment: string; justification: string },
  automatedVerdict: AutomatedVerdict,
  confirmed: boolean,
) {
  if (!verdict) return "Choose a verdict: approve, reject or needs changes";
  if (automatedVerdict === "PENDING" && !confirmed) return UNVALIDATED_PROBLEM;
  return decisionProblem({ verdict, ...input }, automatedVerdict);
}

/**
 * Approve / reject / needs changes with reasons from the fixed taxonomy and a comment; a
 * justification appears when the decision contradicts automation. No verdict is chosen in
 * advance, and deciding a task no validation has judged needs an explicit confirmation
 * (recorded with the decision). On a conflict the input stays, so the curator can look at
 * the newer version and submit again.
 */
export const DecisionForm = forwardRef<DecisionFormHandle, Props>(function DecisionForm(
  { taskId, version, automatedVerdict, onDecided, onStale },
  ref,
) {
  const [verdict, setVerdict] = useState<DecisionVerdict | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const unvalidated = automatedVerdict === "PENDING";
  const confirmRef = useRef<HTMLInputElement>(null);
  const [reasons, setReasons] = useState<DecisionReason[]>([]);
  const [comment, setComment] = useState("");
  const [justification, setJustification] = useState("");
  const [touched, setTouched] = useState(false);
  const [recorded, setRecorded] = useState<DecisionVerdict | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const firstReasonRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const decide = useMutation({
    mutationFn: () =>
      apiFetch<{ decision: RecordedDecision }>("/api/v1/decisions", {
        method: "POST",
        json: {
          taskId,
          verdict,
          reasons,
          comment: comment || undefined,
          justification: justification || undefined,
          confirmedWithoutValidation: unvalidated ? confirmed : undefined,
          version,
        },
      }),
    onSuccess: ({ decision }) => {
      setRecorded(verdict);
      setVerdict(null);
      setConfirmed(false);
      setReasons([]);
      setComment("");
      setJustification("");
      setTouched(false);
      onDecided(decision);
    },
  });

  useImperativeHandle(ref, () => ({
    focus() {
      formRef.current?.scrollIntoView({ block: "center" });
      formRef.current?.querySelector<HTMLInputElement>('input[name="verdict"]')?.focus();
    },
    choose(next) {
      setVerdict(next);
      formRef.current?.scrollIntoView({ block: "center" });
      // an unjudged task first needs the confirmation; approving needs nothing more (Enter sends it); otherwise start at the reasons
      requestAnimationFrame(() =>
        (unvalidated && !confirmed
          ? confirmRef.current
          : next === "APPROVE"
            ? submitRef.current
            : firstReasonRef.current
        )?.focus(),
      );
    },
  }));

  const isOverride = !!verdict && overridesAutomated(verdict, automatedVerdict);
  const problem = formProblem(verdict, { reasons, comment, justification }, automatedVerdict, confirmed);
  return (
    <form
      ref={formRef}
      aria-label="Decision"
      data-testid="decision-form"
      className="flex flex-col gap-3 rounded border border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!problem) decide.mutate();
      }}
    >
      <fieldset className="flex flex-wrap gap-2">
        <legend className="mb-1 text-xs font-semibold text-slate-600">Verdict</legend>
        {VERDICTS.map((v) => (
          <label
            key={v.value}
            className={`flex cursor-pointer items-center gap-1 rounded border px-2 py-1 text-sm ${verdict === v.value ? "border-blue-700 bg-blue-50" : "border-slate-300"}`}
          >
            <input
              type="radio"
              name="verdict"
              value={v.value}
              checked={verdict === v.value}
              onChange={() => setVerdict(v.value)}
            />
            {v.label} <kbd className="rounded bg-slate-100 px-1 text-xs text-slate-600">{v.key}</kbd>
          </label>
        ))}
      </fieldset>
      {unvalidated && (
        <label
          className="flex items-start gap-2 rounded border border-amber-400 bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="confirm-unvalidated"
        >
          <input
            ref={confirmRef}
            type="checkbox"
            className="mt-1"
            checked={confirmed}
            onChange={(e) => setConfirmed(e.target.checked)}
          />
          <span>
            No validation has judged this task yet. I decide without the evidence of its tests (recorded with the
            decision).
          </span>
        </label>
      )}
      <fieldset>
        <legend className="mb-1 text-xs font-semibold text-slate-600">
          Reasons {verdict === "APPROVE" ? "(optional)" : "(at least one)"}
        </legend>
        <div className="grid grid-cols-2 gap-1 text-sm">
          {Object.values(DecisionReason).map((reason, i) => (
            <label key={reason} className="flex items-center gap-2">
              <input
                ref={i === 0 ? firstReasonRef : undefined}
                type="checkbox"
                checked={reasons.includes(reason)}
                onChange={() =>
                  setReasons((r) => (r.includes(reason) ? r.filter((x) => x !== reason) : [...r, reason]))
                }
              />
              {DECISION_REASON_LABELS[reason]}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="flex flex-col gap-1 text-xs font-semibold text-slate-600">
        Comment
        <textarea
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          rows={2}
          className="rounded border border-slate-300 p-2 text-sm font-normal"
        />
      </label>
      {isOverride && (
        <label className="flex flex-col gap-1 text-xs font-semibold text-amber-800">
          Justification — automation judged this task {automatedVerdict}
          <textarea
            value={justification}
            onChange={(e) => setJustification(e.target.value)}
            rows={2}
            className="rounded border border-amber-400 p-2 text-sm font-normal"
            data-testid="justification"
          />
        </label>
      )}
      {touched && problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {isConflict(decide.error) ? (
        <ConflictNotice
          error={decide.error}
          retryLabel="Load the latest version (your input is kept)"
          onRetry={() => {
            decide.reset();
            onStale();
          }}
        />
      ) : (
        <ErrorText error={decide.error} />
      )}
      <div className="flex items-center gap-2">
        <Button
          ref={submitRef}
          type="submit"
          variant={verdict === "APPROVE" ? "primary" : verdict === "REJECT" ? "danger" : "secondary"}
          disabled={decide.isPending}
          data-testid="submit-decision"
        >
          {decide.isPending
            ? "Saving…"
            : verdict
              ? `Submit: ${VERDICTS.find((v) => v.value === verdict)?.label}`
              : "Submit decision"}
        </Button>
        <span className="text-xs text-slate-600">on version {version}</span>
      </div>
      {recorded && !verdict && (
        <p role="status" className="text-sm text-slate-700" data-testid="decision-recorded">
          Recorded: {VERDICTS.find((v) => v.value === recorded)?.label}. A misclick? Undo it under “Decisions so far”
          within {UNDO_WINDOW_MS / 60_000} minutes.
        </p>
      )}
    </form>
  );
});
