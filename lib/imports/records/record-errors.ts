import type { ZodError } from "zod";

// A record that fails validation is told in one plain sentence naming its fields — never the
// schema library's own wording ("Invalid input: expected string, received number").

const KIND_NAMES: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
  bigint: "a number",
  date: "a date",
};

const kindName = (kind: string) => KIND_NAMES[kind] ?? kind;

/** `test_result.git_patch`, `FAIL_TO_PASS[2]` */
function fieldName(path: PropertyKey[]): string {
  return (
    path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`)).join("") ||
    "the record"
  );
}

type Issue = ZodError["issues"][number];

function issueText(issue: Issue): string {
  const field = fieldName(issue.path);
  if (issue.code === "invalid_type") {
    const received = /received (\w+)/.exec(issue.message)?.[1];
    if (received === "undefined") return `${field} is missing`;
    return `${field} must be ${kindName(String(issue.expected))}${received ? `, not ${kindName(received)}` : ""}`;
  }
  if (issue.code === "invalid_union") {
    // the kinds every alternative expected, e.g. "FAIL_TO_PASS must be a list, text or null, not a number"
    const branches = issue.errors.flat().filter((inner) => inner.code === "invalid_type" && inner.path.length === 0);
    const expected = [...new Set(branches.map((inner) => kindName(String((inner as { expected: unknown }).expected))))];
    const received = branches.map((inner) => /received (\w+)/.exec(inner.message)?.[1]).find(Boolean);
    if (received === "undefined") return `${field} is missing`;
    if (expected.length)
      return `${field} must be ${expected.slice(0, -1).join(", ")}${expected.length > 1 ? " or " : ""}${expected.at(-1)}${received ? `, not ${kindName(received)}` : ""}`;
  }
  if (issue.code === "invalid_value") return `${field} must be one of ${issue.values.map(String).join(", ")}`;
  if (issue.code === "unrecognized_keys") return `${field} has unknown fields ${issue.keys.join(", ")}`;
  // our own messages ("expected owner/name", "instance_id is empty") are already plain
  return issue.message.startsWith(String(issue.path[0] ?? "\u0000")) ? issue.message : `${field}: ${issue.message}`;
}

/** One sentence for all of a record's problems (the first three; the count of the rest). */
export function describeInvalidRecord(error: ZodError): string {
  const texts = [...new Set(error.issues.map(issueText))];
  const shown = texts.slice(0, 3).join("; ");
  return texts.length > 3 ? `${shown} (and ${texts.length - 3} more problems)` : shown;
}

/** Each record format's name and the fields a record of it needs: the advice a refusal ends with. */
const RECORD_FORMATS: Partial<Record<string, { name: string; needs: string }>> = {
  SWE_BENCH_INSTANCES: {
    name: "a SWE-bench instance",
    needs: "instance_id, repo and base_commit (with problem_statement, patch, FAIL_TO_PASS, PASS_TO_PASS)",
  },
  SWE_BENCH_PREDICTIONS: {
    name: "a SWE-bench prediction",
    needs: "instance_id, model_name_or_path and a non-empty model_patch",
  },
  OPENSWE_ENVIRONMENT: { name: "an OpenSWE environment row", needs: "instance_id, repo and dockerfile or eval_script" },
  SWE_FLOW_STEPS: { name: "a SWE-Flow step", needs: "instance_id, repo and the step's fail_to_pass tests" },
  REVIEWER_VERDICTS: {
    name: "a reviewer verdict",
    needs: "instance_id, candidate, reviewer_model and decision (see lib/imports/README.md)",
  },
  OPENHANDS_TRAJECTORY: { name: "an OpenHands run", needs: "instance_id and its history (events) or messages" },
  R2E_GYM_TRAJECTORY: { name: "an R2E-Gym run", needs: "trajectory_steps and output_patch or exit_reason" },
};

/**
 * Why a record of a record file was refused, as one sentence: what is wrong with which field,
 * what a record of the file's format needs, and what to do. The file and line travel beside it.
 */
export function describeRefusal(format: string, error: ZodError): string {
  const known = RECORD_FORMATS[format];
  const what = describeInvalidRecord(error);
  if (!known) return what;
  return `${what}: this file was read as ${known.name} file, whose records need ${known.needs}; fix the record, or import the file this record belongs to on its own if it is another format`;
}
