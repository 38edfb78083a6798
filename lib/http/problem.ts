import { z, ZodError } from "zod";
import { AppError, ERROR_STATUS, type ErrorCode, type FieldError } from "../errors/app-error";
import { isDatabaseUnavailable } from "../db/database-errors";

// Every /api/v1 error is an RFC 9457 problem document (application/problem+json). Besides
// type/title/status/detail it carries `code` (our stable error name, what clients switch on),
// `errors` (one entry per bad field, for validation) and `details` (e.g. a conflict's changes).

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

const TITLES: Record<ErrorCode, string> = {
  UNAUTHENTICATED: "Sign-in required",
  FORBIDDEN: "Not allowed",
  NOT_FOUND: "Not found",
  BAD_REQUEST: "Bad request",
  CONFLICT: "Conflict",
  PAYLOAD_TOO_LARGE: "Request body too large",
  UNSUPPORTED_MEDIA_TYPE: "Unsupported media type",
  TOO_MANY_REQUESTS: "Too many requests",
  UNPROCESSABLE: "Unprocessable request",
  DOCKER_UNAVAILABLE: "Docker unavailable",
  DATABASE_UNAVAILABLE: "Database unavailable",
  INTERNAL: "Internal error",
};

export const FieldErrorSchema = z.object({
  field: z.string().describe("the member, dotted: items[2].name"),
  in: z.enum(["body", "query", "path", "header"]),
  pointer: z.string().describe("JSON pointer into the body or the query"),
  detail: z.string(),
});

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    errors: z.array(FieldErrorSchema).optional(),
    details: z.unknown().optional(),
  })
  .meta({ id: "Problem" });
export type Problem = z.infer<typeof ProblemSchema>;

export const problemType = (code: ErrorCode) => `urn:swe-curator:problem:${code.toLowerCase().replaceAll("_", "-")}`;

export function problem(
  code: ErrorCode,
  detail: string,
  extra: { errors?: FieldError[]; details?: unknown } = {},
): Problem {
  const doc: Problem = { type: problemType(code), title: TITLES[code], status: ERROR_STATUS[code], detail, code };
  if (extra.errors?.length) doc.errors = extra.errors;
  if (extra.details !== undefined) doc.details = extra.details;
  return doc;
}

export function problemResponse(doc: Problem, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(doc), {
    status: doc.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers },
  });
}

const fieldName = (path: PropertyKey[]) =>
  path.reduce<string>(
    (name, part) => (typeof part === "number" ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)),
    "",
  );

const pointerOf = (path: PropertyKey[]) =>
  "/" + path.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** A zod issue as a sentence a person can act on, without the library's jargon. */
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? `is required (${issue.expected})`
        : `must be ${article(issue.expected)}, not ${kindOf(issue.input)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_big":
      return issue.origin === "string"
        ? `is too long: at most ${issue.maximum} characters`
        : issue.origin === "array"
          ? `has too many items: at most ${issue.maximum}`
          : `must be at most ${issue.maximum}`;
    case "too_small":
      return issue.origin === "string"
        ? issue.minimum === 1
          ? "must not be empty"
          : `is too short: at least ${issue.minimum} characters`
        : issue.origin === "array"
          ? `needs at least ${issue.minimum} item(s)`
          : `must be at least ${issue.minimum}`;
    case "invalid_format":
      return `is not a valid ${issue.format}`;
    case "unrecognized_keys":
      return `is not a field this request knows (${issue.keys.join(", ")})`;
    default:
      return issue.message.replace(/^Invalid input:?\s*/i, "is not valid") || "is not valid";
  }
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);
const kindOf = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "an array" : article(typeof value);

/** Turns a zod error into field errors; `where` says whether the body, the query or a path segment was wrong. */
export function fieldErrors(error: ZodError, where: FieldError["in"]): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
    const field = fieldName(path) || `(the ${where})`;
    return { field, in: where, pointer: pointerOf(path), detail: `${field} ${describeIssue(issue)}` };
  });
}

export function validationProblem(error: ZodError, where: FieldError["in"]): Problem {
  const errors = fieldErrors(error, where);
  const shown = errors.slice(0, 3).map((e) => e.detail);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
  return problem("BAD_REQUEST", `The request ${where} is not valid: ${shown.join("; ")}${more}.`, { errors });
}

/** Any thrown value as a problem; unexpected ones are logged and said generically (no stack leaves the server). */
export function problemFor(
  error: unknown,
  logUnexpected: (error: unknown) => void = (unexpected) => console.error("[api] unexpected error", unexpected),
): Problem {
  if (error instanceof AppError) {
    const details = error.details as { field?: unknown } | undefined;
    const errors =
      error.errors ??
      (typeof details?.field === "string"
        ? [{ field: details.field, in: "body" as const, pointer: `/${details.field}`, detail: error.message }]
        : undefined);
    return problem(error.code, error.message, { errors, details: error.details });
  }
  if (error instanceof ZodError) return validationProblem(error, "body");
  // the database is away, or every connection was taken longer than a transaction may wait
  // (P2028, seen under bench:load): it passes, nothing was written, the client may retry
  if (isDatabaseUnavailable(error) || (error as { code?: unknown } | null)?.code === "P2028") {
    return problem(
      "DATABASE_UNAVAILABLE",
      "The database is not answering right now (busy, restarting or unreachable); nothing was saved. Try again in a few seconds.",
    );
  }
  logUnexpected(error);
  return problem(
    "INTERNAL",
    "Something went wrong on the server; it was logged. Try again, and report it if it persists.",
  );
}
