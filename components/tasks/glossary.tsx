import { Tooltip } from "@/components/ui/tooltip";

/** The words of the task page a first-time curator meets, each said once and used by tooltips and the glossary. */
export const GLOSSARY = {
  FAIL_TO_PASS: {
    label: "FAIL_TO_PASS",
    text: "Tests that fail on the original code and must pass once the fix patch is applied: they prove the fix solves the issue.",
  },
  PASS_TO_PASS: {
    label: "PASS_TO_PASS",
    text: "Tests that pass before and after the fix: they prove the fix breaks nothing else.",
  },
  curationStatus: {
    label: "Curation status",
    text: "What people decided: PENDING until enough curators approve, or one rejects or asks for changes.",
  },
  automatedVerdict: {
    label: "Automated verdict",
    text: "What validation found by running the tests in the environment: PENDING until a validation finishes, then VALID, INVALID or FLAKY. A curator may override it with a justification.",
  },
  approvals: {
    label: "Approvals",
    text: "Curators whose latest decision is Approve, against the number the settings require before the task counts as approved.",
  },
  version: {
    label: "Version",
    text: "Goes up with every change to the task; a decision or edit made on an older version is refused, so nobody overwrites unseen work.",
  },
  reconstructed: {
    label: "Rebuilt from the patch",
    text: "When a file's base version is not stored yet (it is read from the environment's image when the environment is built or the task validated) or the patch does not apply to it, the diff shows only the lines the patch itself carries.",
  },
} as const;
export type GlossaryTerm = keyof typeof GLOSSARY;

/** A word of the page with its explanation on hover and focus. */
export function Term({ term, children }: { term: GlossaryTerm; children?: React.ReactNode }) {
  return <Tooltip text={GLOSSARY[term].text}>{children ?? GLOSSARY[term].label}</Tooltip>;
}

/** The short glossary under the task's tests. */
export function GlossaryLines({ terms }: { terms: GlossaryTerm[] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs text-slate-700" data-testid="glossary">
      {terms.map((term) => (
        <div key={term} className="contents">
          <dt className="font-semibold">{GLOSSARY[term].label}</dt>
          <dd>{GLOSSARY[term].text}</dd>
        </div>
      ))}
    </dl>
  );
}
