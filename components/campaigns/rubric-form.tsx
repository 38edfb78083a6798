"use client";
import { useId } from "react";
import { isActive, type AnswerValue, type Answers, type RubricQuestion } from "@/lib/campaigns/rubric";
import { inputClass } from "@/components/ui/field";

// The rubric as a form that works from the keyboard alone: Tab moves between questions (a
// radio group is one stop), the arrow keys move within one, and while a question has focus a
// digit picks the level with that value (a scale) or the option at that position (a choice),
// y / n answer a yes-no question. Ctrl+Enter submits from anywhere in the form.

type Props = {
  questions: readonly RubricQuestion[];
  answers: Answers;
  onChange: (answers: Answers) => void;
  onSubmit: () => void;
  errors?: { field: string; detail: string }[];
  disabled?: boolean;
  submitLabel: string;
  testId?: string;
};

const choicesOf = (question: RubricQuestion): { value: AnswerValue; label: string; key: string }[] => {
  switch (question.type) {
    case "scale":
      return question.levels.map((l) => ({ value: l.value, label: l.label, key: String(l.value) }));
    case "single":
    case "multiple":
      return question.options.map((o, i) => ({ value: o.value, label: o.label, key: String(i + 1) }));
    case "yesno":
      return [
        { value: true, label: "Yes", key: "y" },
        { value: false, label: "No", key: "n" },
      ];
    case "text":
      return [];
  }
};

function QuestionField({
  question,
  value,
  onAnswer,
  error,
  disabled,
  index,
}: {
  question: RubricQuestion;
  value: AnswerValue | undefined;
  onAnswer: (v: AnswerValue | undefined) => void;
  error?: string;
  disabled?: boolean;
  index: number;
}) {
  const id = useId();
  const choices = choicesOf(question);
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (question.type === "text" || event.ctrlKey || event.metaKey || event.altKey) return;
    const choice = choices.find((c) => c.key === event.key.toLowerCase());
    if (!choice) return;
    event.preventDefault();
    if (question.type === "multiple") {
      const current = Array.isArray(value) ? value : [];
      onAnswer(
        current.includes(choice.value as string)
          ? current.filter((v) => v !== choice.value)
          : [...current, choice.value as string],
      );
    } else onAnswer(choice.value);
    // focus follows the choice, as with the arrow keys, so Tab leaves the group from the chosen control
    (document.getElementById(`${id}-${choice.key}`) as HTMLInputElement | null)?.focus();
  };
  const describedBy =
    [question.help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset
      className="rounded border border-slate-200 p-3"
      data-question={question.key}
      onKeyDown={onKeyDown}
      aria-describedby={describedBy}
      disabled={disabled}
    >
      <legend className="px-1 text-sm font-medium text-slate-900">
        {index + 1}. {question.prompt}
        {question.required ? (
          <span className="text-red-700" aria-hidden="true">
            {" "}
            *
          </span>
        ) : (
          <span className="text-xs text-slate-500"> (optional)</span>
        )}
      </legend>
      {question.help && (
        <p id={`${id}-help`} className="mb-2 text-xs text-slate-600">
          {question.help}
        </p>
      )}
      {question.type === "text" ? (
        <textarea
          aria-label={question.prompt}
          className={`${inputClass} w-full`}
          rows={2}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onAnswer(e.target.value)}
          placeholder={question.minLength ? `at least ${question.minLength} characters` : undefined}
        />
      ) : (
        <div
          className="flex flex-col gap-1"
          role={question.type === "multiple" ? "group" : "radiogroup"}
          aria-label={question.prompt}
        >
          {choices.map((choice) => {
            const checked =
              question.type === "multiple"
                ? Array.isArray(value) && value.includes(choice.value as string)
                : value === choice.value;
            return (
              <label
                key={choice.key}
                className={`flex cursor-pointer items-start gap-2 rounded px-2 py-1 text-sm ${checked ? "bg-blue-50 ring-1 ring-blue-300" : "hover:bg-slate-50"}`}
              >
                <input
                  id={`${id}-${choice.key}`}
                  type={question.type === "multiple" ? "checkbox" : "radio"}
                  name={`${id}-${question.key}`}
                  checked={checked}
                  onChange={() => {
                    if (question.type !== "multiple") return onAnswer(choice.value);
                    const current = Array.isArray(value) ? value : [];
                    onAnswer(
                      checked ? current.filter((v) => v !== choice.value) : [...current, choice.value as string],
                    );
                  }}
                  className="mt-0.5"
                />
                <kbd className="rounded border border-slate-300 px-1 text-xs text-slate-600">{choice.key}</kbd>
                <span>{choice.label}</span>
              </label>
            );
          })}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

export function RubricForm({
  questions,
  answers,
  onChange,
  onSubmit,
  errors = [],
  disabled,
  submitLabel,
  testId = "rubric-form",
}: Props) {
  return (
    <form
      data-testid={testId}
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          onSubmit();
        }
      }}
    >
      {questions.map((question, index) =>
        isActive(question, answers) ? (
          <QuestionField
            key={question.key}
            index={index}
            question={question}
            value={answers[question.key]}
            disabled={disabled}
            error={errors.find((e) => e.field === `answers.${question.key}`)?.detail}
            onAnswer={(value) => {
              const next = { ...answers };
              if (value === undefined) delete next[question.key];
              else next[question.key] = value;
              onChange(next);
            }}
          />
        ) : null,
      )}
      <div className="flex items-center gap-2">
        <button
          type="submit"
          disabled={disabled}
          data-testid={`${testId}-submit`}
          className="rounded border border-blue-700 bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-50"
        >
          {submitLabel}
        </button>
        <span className="text-xs text-slate-600">
          Ctrl+Enter submits · Tab moves to the next question · digits, y / n answer the focused one
        </span>
      </div>
    </form>
  );
}

/** Answers read back as text (a scale's level label, Yes/No, the options' labels). */
export function describeAnswer(question: RubricQuestion, value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  switch (question.type) {
    case "scale":
      return `${value} · ${question.levels.find((l) => l.value === Math.round(Number(value)))?.label ?? ""}`;
    case "yesno":
      return value === true ? "Yes" : "No";
    case "single":
      return question.options.find((o) => o.value === value)?.label ?? String(value);
    case "multiple":
      return Array.isArray(value)
        ? value.map((v) => question.options.find((o) => o.value === v)?.label ?? v).join(", ") || "none"
        : String(value);
    case "text":
      return String(value);
  }
}
