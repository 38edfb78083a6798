import { firstWord, toolCall } from "./step-kind";

// Why a failed trajectory failed, as a deterministic signature that groups like failures:
// the class of the last error an observation shows, the tool whose step showed it, and the
// tests the candidate's run failed. Read from text with fixed rules (no model), so the same
// trajectories always fall into the same clusters, offline.

export type SignatureStep = { index: number; action: string | null; observation: string | null; metadata?: unknown };

export type FailureSignature = {
  /** e.g. "AttributeError", "command not found", "timeout", "exit 2"; "no error seen" when no observation shows one */
  errorClass: string;
  /** the tool (or program) whose step showed the error; null when none did */
  tool: string | null;
  /** the candidate run's failing tests, sorted, at most MAX_SIGNATURE_TESTS */
  failingTests: string[];
  /** the step the error was read from (0-based), null when none */
  stepIndex: number | null;
};

export const NO_ERROR_SEEN = "no error seen";
export const MAX_SIGNATURE_TESTS = 5;
// an error is read from an observation's end: tracebacks and exit codes are printed last
const TAIL_CHARS = 8_000;

type Json = Record<string, unknown>;

const TIMEOUT =
  /(?:command timed out|timed out after|TimeoutExpired|TimeoutError|EXECUTION TIMED OUT|took too long|exceeded the (?:time|timeout)|Timeout: (?:command|the command))/i;
const COMMAND_NOT_FOUND = /(?:^|\n)(?:\S*sh: (?:line \d+: |\d+: )?)?\S+: (?:command )?not found\s*$/m;
const EDIT_REJECTED = /Your (?:proposed edit has introduced new syntax error|changes have NOT been applied)/;
const TOOL_USAGE = /^(?:OBSERVATION:\s*)?(?:No replacement was performed|Invalid `?path|Usage: )/m;
// an exception line ends a traceback: "ValueError: message", "django.core.exceptions.FieldError"
// (pytest's own `Failed`, as in "Failed: DID NOT RAISE", counts)
const EXCEPTION_LINE =
  /^(?:E\s+)?((?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|NotFound|Denied|Configured)|\w*Failed))(?::\s|:?\s*$)/;
const TESTS_FAILED = /^=*[ \t]*\d+ failed\b/m;
const TRACEBACK = "Traceback (most recent call last):";
const EXIT_CODE_TEXT = /(?:exit(?:ed)? (?:with )?(?:code|status)|returncode[>:=\s]+|Error) ?(-?\d{1,3})\b/gi;

/** The Python exception a traceback ends with (dotted names kept to the class), or null. */
function pythonException(text: string): string | null {
  const at = text.lastIndexOf(TRACEBACK);
  const lines = (at >= 0 ? text.slice(at + TRACEBACK.length) : text).split("\n");
  // after a traceback the first unindented exception line is the one raised; without one, pytest's "E   X: …" lines
  for (const line of lines) {
    if (at >= 0 && /^\s/.test(line)) continue;
    const match = EXCEPTION_LINE.exec(line.trimEnd());
    if (match) return match[1].split(".").pop() ?? match[1];
  }
  return null;
}

/** A non-zero exit code the step's metadata or text reports (OpenHands, mini-swe-agent, shells), or null. */
export function exitCodeOf(observation: string, metadata: unknown): number | null {
  const meta = (metadata && typeof metadata === "object" ? metadata : {}) as Json;
  const observations = Array.isArray(meta.observations) ? (meta.observations as Json[]) : [];
  const recorded = [meta.exitCode, ...observations.map((o) => o?.exitCode)].find((code) => typeof code === "number");
  if (typeof recorded === "number") return recorded === 0 || recorded === -1 ? null : recorded;
  let last: number | null = null;
  for (const match of observation.matchAll(EXIT_CODE_TEXT)) last = Number(match[1]);
  return last && last > 0 ? last : null;
}

/** The class of the error one observation shows, or null when it shows none. Rules in order: the first that holds decides. */
export function errorClassOf(observation: string | null, metadata?: unknown): string | null {
  const text = (observation ?? "").slice(-TAIL_CHARS);
  if (TIMEOUT.test(text)) return "timeout";
  if (EDIT_REJECTED.test(text)) return "edit rejected";
  if (COMMAND_NOT_FOUND.test(text)) return "command not found";
  const exception = pythonException(text);
  if (exception) return exception;
  if (TESTS_FAILED.test(text)) return "tests failed";
  if (TOOL_USAGE.test(text)) return "tool usage error";
  const code = exitCodeOf(text, metadata);
  if (code === 127) return "command not found";
  if (code !== null) return `exit ${code}`;
  return null;
}

/** The tool a step used: a tool call's name, OpenHands' event kind, or a shell command's program. */
export function toolOf(step: Pick<SignatureStep, "action" | "metadata">): string | null {
  const action = step.action?.trim() ?? "";
  const call = action ? toolCall(action) : null;
  if (call) {
    const command = call.args.command ?? call.args.cmd;
    return typeof command === "string" && /bash|shell|terminal|run/.test(call.name)
      ? `${call.name}:${firstWord(command)}`
      : call.name;
  }
  const meta = (step.metadata && typeof step.metadata === "object" ? step.metadata : {}) as Json;
  const word = action ? firstWord(action) : "";
  if (typeof meta.kind === "string" && meta.kind !== "run") return meta.kind;
  return word || (typeof meta.kind === "string" ? meta.kind : null);
}

/** The last step (latest first in `stepsNewestFirst`) whose observation shows an error, with that error's class. */
export function lastFailingStep(
  stepsNewestFirst: readonly SignatureStep[],
): { step: SignatureStep; errorClass: string } | null {
  for (const step of stepsNewestFirst) {
    const errorClass = errorClassOf(step.observation, step.metadata);
    if (errorClass) return { step, errorClass };
  }
  return null;
}

/** A failed trajectory's signature from its last steps (newest first) and its candidate run's failing tests. */
export function failureSignature(
  stepsNewestFirst: readonly SignatureStep[],
  failingTests: readonly string[],
): FailureSignature {
  const failing = lastFailingStep(stepsNewestFirst);
  const tests = [...new Set(failingTests)].sort().slice(0, MAX_SIGNATURE_TESTS);
  if (!failing) return { errorClass: NO_ERROR_SEEN, tool: null, failingTests: tests, stepIndex: null };
  return {
    errorClass: failing.errorClass,
    tool: toolOf(failing.step),
    failingTests: tests,
    stepIndex: failing.step.index,
  };
}

/** The signature as one stable key: equal keys, one cluster. */
export function signatureKey(signature: Pick<FailureSignature, "errorClass" | "tool" | "failingTests">): string {
  return [signature.errorClass, signature.tool ?? "-", signature.failingTests.join(",") || "-"].join(" | ");
}
