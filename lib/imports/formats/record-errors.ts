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
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i ? "." : ""}${String(part)}`)).join("") || "the record";
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
    if (expected.length) return `${field} must be ${expected.slice(0, -1).join(", ")}${expected.length > 1 ? " or " : ""}${expected.at(-1)}${received ? `, not ${kindName(received)}` : ""}`;
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
