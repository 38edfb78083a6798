import { parseStepEdit, type StepEdit } from "../step-edits";
import { toolCall } from "../step-kind";

// What replaying a step does in the container, read from its action in any format:
//   a shell command (SWE-agent and mini-swe-agent plain commands, `bash({...})` tool calls,
//   OpenHands `run` events) runs as it is, in one shell that keeps its working directory;
//   an edit becomes a file write: `create` carries the whole new file; a replace, an insert
//   or a line edit carries the region, applied in the container to the file as it is there.
// Everything else (SWE-agent's own viewer commands `open`/`goto`/`scroll_*`/`find_file`,
// an editor's `view`, thoughts, submit) changes no file and is skipped, with the reason.

export type ReplayAction =
  | { index: number; how: "shell"; command: string }
  | { index: number; how: "write"; path: string; content: string }
  | { index: number; how: "edit"; edit: StepEdit & { path: string } }
  | { index: number; how: "skip"; reason: string };

export type ReplayableStep = { index: number; action: string | null; metadata?: unknown };

type Json = Record<string, unknown>;

const SHELL_TOOLS = new Set(["bash", "execute_bash", "shell", "cmd", "run", "run_command", "terminal"]);
// SWE-agent's own commands: they run in its tool bundle, which an environment image does not have
const AGENT_COMMANDS = new Set([
  "open",
  "goto",
  "scroll_up",
  "scroll_down",
  "find_file",
  "search_dir",
  "search_file",
  "create",
  "edit",
  "insert",
  "append",
  "submit",
  "exit_forfeit",
  "str_replace_editor",
  "filemap",
  "view",
]);

const firstWord = (command: string) => command.trim().split(/\s+/)[0] ?? "";

/** The shell command a step ran, or why it ran none. */
function shellCommandOf(action: string, metadata: unknown): { command: string } | { reason: string } {
  const kind = (metadata as Json | null)?.kind;
  if (kind === "run") return { command: action };
  if (typeof kind === "string") return { reason: `an OpenHands ${kind} event runs no shell command` };
  const call = toolCall(action);
  if (call) {
    const command = call.args.command ?? call.args.cmd;
    if (SHELL_TOOLS.has(call.name.toLowerCase()) && typeof command === "string") return { command };
    return { reason: `the ${call.name} tool is not a shell command` };
  }
  const word = firstWord(action);
  if (AGENT_COMMANDS.has(word)) return { reason: `\`${word}\` is the agent's own tool, which changes no file` };
  return { command: action };
}

/** One step as the replay runs it. */
export function replayActionOf(step: ReplayableStep): ReplayAction {
  const action = step.action?.trim() ?? "";
  if (!action) return { index: step.index, how: "skip", reason: "the step has no action" };
  const edit = parseStepEdit(step);
  if (edit) {
    if (!edit.path) return { index: step.index, how: "skip", reason: "the edit does not name its file" };
    if (edit.operation === "create") return { index: step.index, how: "write", path: edit.path, content: edit.after };
    if (edit.operation === "replace" && !edit.before)
      return { index: step.index, how: "skip", reason: "the edit does not say which text it replaced" };
    if (edit.operation !== "replace" && edit.startLine === undefined)
      return { index: step.index, how: "skip", reason: "the edit does not say at which line" };
    return { index: step.index, how: "edit", edit: { ...edit, path: edit.path } };
  }
  const shell = shellCommandOf(action, step.metadata);
  return "command" in shell
    ? { index: step.index, how: "shell", command: shell.command }
    : { index: step.index, how: "skip", reason: shell.reason };
}

/** Whether a person may pick this step to replay up to: it ran a command or wrote a file. */
export const isReplayTarget = (action: ReplayAction) => action.how !== "skip";
