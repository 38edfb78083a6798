// What a step did, read from its action whatever wrote it. The formats name the same
// acts differently: SWE-agent 0.x commands (`open`, `edit 3:5`, `find_file`, `submit`),
// SWE-agent 1.x and Inspect tool calls (`str_replace_editor(...)`, `bash({"cmd": ...})`),
// OpenHands event kinds (`read`, `edit`, `run`, `finish`, kept in metadata.kind) and
// mini-swe-agent's plain shell commands. Each is brought to a tool name and a shell
// command, and the command's first word decides.

export const STEP_KINDS = ["READ", "SEARCH", "EDIT", "RUN", "TEST", "SUBMIT", "THINK", "ERROR"] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export type ClassifiableStep = {
  thought: string | null;
  action: string | null;
  observation: string | null;
  metadata?: unknown;
};

type Json = Record<string, unknown>;

const EDITOR_TOOLS = new Set([
  "str_replace_editor",
  "text_editor",
  "str_replace_based_edit_tool",
  "edit_file",
  "file_editor",
  "apply_patch",
  "write_file",
  "create_file",
]);
const SHELL_TOOLS = new Set([
  "bash",
  "execute_bash",
  "shell",
  "cmd",
  "run",
  "run_command",
  "terminal",
  "python",
  "run_ipython",
  "execute_ipython_cell",
]);
const SUBMIT_TOOLS = new Set(["submit", "finish", "attempt_completion"]);
const THINK_TOOLS = new Set(["think", "message"]);
const EDITOR_READS = new Set(["view", "read"]);

// SWE-agent 0.x / 1.x command words and common shell programs
const SUBMIT_WORDS = new Set(["submit", "finish", "exit_forfeit"]);
const EDIT_WORDS = new Set(["edit", "insert", "create", "append", "apply_patch", "patch"]);
const SEARCH_WORDS = new Set([
  "find_file",
  "search_dir",
  "search_file",
  "grep",
  "egrep",
  "rg",
  "ag",
  "find",
  "ack",
  "locate",
]);
const READ_WORDS = new Set([
  "open",
  "goto",
  "scroll_up",
  "scroll_down",
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "ls",
  "tree",
  "nl",
  "view",
  "pwd",
  "wc",
  "file",
  "stat",
]);
const TEST_COMMAND =
  /(?:^|[\s;&|/])(?:pytest|py\.test|tox|nosetests|runtests\.py|unittest|go test|cargo test|npm (?:run )?test|yarn test|jest|mocha|rspec|phpunit|mvn test|gradle test|make test|manage\.py test)(?:\s|$|;|&|\|)/;
// mini-swe-agent ends a run by echoing this marker before the diff it submits
const MINI_SWE_AGENT_SUBMIT = /\b(?:COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b/;
// a shell write to a file: sed -i, a redirect into a file that is not /dev/null, tee, git apply
const SHELL_EDIT =
  /(?:^|[\s;&|])(?:sed\s+-i|perl\s+-pi|tee\s|git\s+apply|patch\s+-p)|(?:^|[^2&])>{1,2}\s*(?!\/dev\/null)[\w./-]+\.\w+/;

// What a tool or the environment says when the act itself failed (not a test or reproducer failing)
const ERROR_OBSERVATION =
  /^\s*(?:OBSERVATION:\s*)?(?:Your proposed edit has introduced new syntax error|ERROR:|Error:|error:|No replacement was performed|Invalid `?path|Usage: |[\w./-]+: command not found|bash: .*: command not found|The command .* timed out|Traceback \(most recent call last\):\s*File "\/[^"]*\/(?:tools|commands|sweagent)\/)/;

/** `name({...json...})` — a tool call as chat-steps.ts and inspect-log.ts write it, one per line (the first decides). */
export function toolCall(action: string): { name: string; args: Json } | null {
  const match = /^([A-Za-z_][\w.-]*)\((.*)\)\s*$/.exec(action.trim().split("\n")[0]);
  if (!match) return null;
  try {
    const args = JSON.parse(match[2] || "{}");
    return { name: match[1], args: args && typeof args === "object" ? (args as Json) : {} };
  } catch {
    return null;
  }
}

export function firstWord(command: string): string {
  const line = command.trim().split("\n")[0] ?? "";
  // `cd /testbed && pytest ...`: the act is after the cd
  const act = line.replace(/^(?:cd\s+\S+\s*(?:&&|;)\s*)+/, "");
  return act.split(/\s+/)[0]?.replace(/^.*\//, "") ?? "";
}

export function classifyCommand(command: string): StepKind {
  const text = command.trim();
  if (!text) return "THINK";
  const word = firstWord(text);
  if (SUBMIT_WORDS.has(word) || MINI_SWE_AGENT_SUBMIT.test(text)) return "SUBMIT";
  if (word === "str_replace_editor") return EDITOR_READS.has(text.split(/\s+/)[1] ?? "") ? "READ" : "EDIT";
  if (EDIT_WORDS.has(word) || SHELL_EDIT.test(text)) return "EDIT";
  if (word === "git" && /^\s*git\s+grep\b/.test(text)) return "SEARCH";
  if (SEARCH_WORDS.has(word)) return "SEARCH";
  if (READ_WORDS.has(word) || (word === "sed" && /^sed\s+-n\b/.test(text))) return "READ";
  if (TEST_COMMAND.test(text)) return "TEST";
  return "RUN";
}

function classifyToolCall(name: string, args: Json): StepKind {
  const tool = name.toLowerCase();
  if (SUBMIT_TOOLS.has(tool)) return "SUBMIT";
  if (THINK_TOOLS.has(tool)) return "THINK";
  if (EDITOR_TOOLS.has(tool)) return EDITOR_READS.has(String(args.command ?? "")) ? "READ" : "EDIT";
  if (SHELL_TOOLS.has(tool)) {
    const command = args.command ?? args.cmd ?? args.code;
    return typeof command === "string" ? classifyCommand(command) : "RUN";
  }
  if (/search|grep|find/.test(tool)) return "SEARCH";
  if (/read|view|open|list/.test(tool)) return "READ";
  return "RUN";
}

/** OpenHands keeps its event kind; the action text is the command, path or edit. */
function classifyOpenHands(kind: string, action: string | null): StepKind | null {
  switch (kind) {
    case "read":
      return "READ";
    case "edit":
      return "EDIT";
    case "finish":
      return "SUBMIT";
    case "think":
    case "message":
    case "recall":
      return "THINK";
    case "error":
      return "ERROR";
    case "run":
    case "run_ipython":
      return classifyCommand(action ?? "");
    default:
      return null;
  }
}

function failed(step: ClassifiableStep, meta: Json): boolean {
  if (meta.toolError) return true;
  const observations = Array.isArray(meta.observations) ? (meta.observations as Json[]) : [];
  if (observations.some((o) => o?.observation === "error")) return true;
  return !!step.observation && ERROR_OBSERVATION.test(step.observation.slice(0, 400));
}

function actKind(step: ClassifiableStep, meta: Json): StepKind {
  const action = step.action?.trim() ?? "";
  if (typeof meta.kind === "string") {
    const kind = classifyOpenHands(meta.kind, action);
    if (kind) return kind;
  }
  if (!action) return "THINK";
  const call = toolCall(action);
  if (call) return classifyToolCall(call.name, call.args);
  // OpenHands' edit text: "edit <path>\ncommand: str_replace..."
  return classifyCommand(action);
}

/** The kind of one step; a step whose act failed is an ERROR whatever it tried. */
export function classifyStep(step: ClassifiableStep): StepKind {
  const meta = (step.metadata && typeof step.metadata === "object" ? step.metadata : {}) as Json;
  const kind = actKind(step, meta);
  if (kind === "THINK" || kind === "SUBMIT") return kind;
  return failed(step, meta) ? "ERROR" : kind;
}
