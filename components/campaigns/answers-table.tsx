"use client";
import type { Answers, RubricQuestion } from "@/lib/campaigns/rubric";
import { describeAnswer } from "./rubric-form";

/** Answers side by side: a row per question, a column per annotator (or reference, adjudication). */
export function AnswersTable({
  questions,
  columns,
  highlight = [],
}: {
  questions: readonly RubricQuestion[];
  columns: { name: string; answers: Answers | Record<string, unknown> }[];
  highlight?: string[];
}) {
  return (
    <table className="w-full border-collapse text-xs" data-testid="answers-table">
      <thead>
        <tr>
          <th scope="col" className="border-b border-slate-200 p-1 text-left">
            Question
          </th>
          {columns.map((c) => (
            <th key={c.name} scope="col" className="border-b border-slate-200 p-1 text-left">
              {c.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {questions.map((q) => (
          <tr
            key={q.key}
            className={highlight.includes(q.key) ? "bg-amber-50" : undefined}
            data-disagree={highlight.includes(q.key) || undefined}
          >
            <th scope="row" className="border-b border-slate-100 p-1 text-left font-normal text-slate-700">
              {q.prompt}
            </th>
            {columns.map((c) => (
              <td key={c.name} className="border-b border-slate-100 p-1 align-top">
                {describeAnswer(q, (c.answers as Record<string, unknown>)[q.key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
