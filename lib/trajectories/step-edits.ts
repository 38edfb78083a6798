import { split as shellSplit } from "shlex";

// An edit action as the region it changed: what was there before (when the trajectory tells)
// and what the agent put there, for every way the formats write an edit:
//   SWE-agent 0.x   `edit 12:15\n<lines>\nend_of_edit` (before: those lines as the agent last saw
//                   them in an observation), `edit '<search>' '<replace>'`, `insert '<text>'`, `create f`
//   SWE-agent 1.x   `str_replace_editor str_replace /f --old_str '…' --new_str '…'` (shell-quoted
//                   with Python's shlex, read back with its port), `… create /f --file_text '…'`, `… insert`
//   tool calls      `str_replace_editor({"command":"str_replace","path":…})` (SWE-Gym, Inspect's text_editor)
//   OpenHands       `edit /f\ncommand: str_replace\nold: …\nnew: …`
//   shell           `cat <<'EOF' > f … EOF` (mini-swe-agent)

export type StepEdit = {
  path: string | null;
  operation: "replace" | "create" | "insert" | "lines";
  /** null when the trajectory never showed the region before the edit */
  before: string | null;
  after: string;
  /** for a line edit, the first line it replaced */
  startLine?: number;
  endLine?: number;
};

/** What each operation did, in words. */
export const EDIT_OPERATION: Record<StepEdit["operation"], string> = {
  replace: "replaced text",
  create: "created the file",
  insert: "inserted text",
  lines: "replaced lines",
};

type Json = Record<string, unknown>;
const str = (value: unknown) => (typeof value === "string" ? value : null);

function fromEditorArgs(args: Json): StepEdit | null {
  const path = str(args.path);
  switch (args.command) {
    case "str_replace":
      return { path, operation: "replace", before: str(args.old_str) ?? "", after: str(args.new_str) ?? "" };
    case "create":
      return { path, operation: "create", before: "", after: str(args.file_text) ?? "" };
    case "insert":
      return {
        path,
        operation: "insert",
        before: "",
        after: str(args.new_str) ?? "",
        startLine: typeof args.insert_line === "number" ? args.insert_line + 1 : undefined,
      };
    default:
      return null;
  }
}

function toolCallEdit(action: string): StepEdit | null {
  const match = /^(str_replace_editor|text_editor|str_replace_based_edit_tool|file_editor|edit_file)\((.*)\)\s*$/.exec(
    action.split("\n")[0],
  );
  if (!match) return null;
  try {
    return fromEditorArgs(JSON.parse(match[2]) as Json);
  } catch {
    return null;
  }
}

/** `str_replace_editor <command> <path> --flag value …`, quoted by SWE-agent with shlex.quote. */
function editorCommandLine(action: string): StepEdit | null {
  if (!/^str_replace_editor\s+(?:str_replace|create|insert)\s/.test(action)) return null;
  let words: string[];
  try {
    words = shellSplit(action);
  } catch {
    return null;
  }
  const args: Json = { command: words[1], path: words[2] };
  for (let i = 3; i < words.length - 1; i++) {
    if (words[i].startsWith("--")) args[words[i].slice(2)] = words[++i];
  }
  if (typeof args.insert_line === "string") args.insert_line = Number(args.insert_line);
  return fromEditorArgs(args);
}

function openHandsEdit(action: string): StepEdit | null {
  const match = /^edit (\S+)\ncommand: (\w+)\n([\s\S]*)$/.exec(action);
  if (!match) return null;
  const [, path, command, rest] = match;
  const field = (name: string, next: string[]) => {
    const start = rest.indexOf(`${name}: `);
    if (start < 0) return null;
    const from = start + name.length + 2;
    const ends = next.map((n) => rest.indexOf(`\n${n}: `, from)).filter((i) => i >= 0);
    return rest.slice(from, ends.length ? Math.min(...ends) : undefined);
  };
  if (command === "str_replace")
    return {
      path,
      operation: "replace",
      before: field("old", ["new"]) ?? "",
      after: field("new", ["file", "content"]) ?? "",
    };
  if (command === "create")
    return { path, operation: "create", before: "", after: field("file", ["content"]) ?? field("content", []) ?? "" };
  if (command === "insert") return { path, operation: "insert", before: "", after: field("new", []) ?? "" };
  return null;
}

function openFile(metadata: unknown): string | null {
  const state = (metadata as Json | null)?.state as Json | undefined;
  const file = str(state?.open_file);
  return file && file !== "n/a" ? file : null;
}

/** SWE-agent 0.x's own edit commands, on the file it has open. */
function sweAgentEdit(action: string, metadata: unknown): StepEdit | null {
  const lines = /^edit (\d+):(\d+)\n([\s\S]*?)\n?end_of_edit\s*$/.exec(action);
  if (lines)
    return {
      path: openFile(metadata),
      operation: "lines",
      before: null,
      after: lines[3],
      startLine: Number(lines[1]),
      endLine: Number(lines[2]),
    };
  const create = /^create (\S+)\s*$/.exec(action);
  if (create) return { path: create[1], operation: "create", before: "", after: "" };
  if (/^(?:edit|insert) '/.test(action)) {
    try {
      const [command, first, second] = shellSplit(action);
      if (command === "insert") return { path: openFile(metadata), operation: "insert", before: "", after: first };
      if (second !== undefined) return { path: openFile(metadata), operation: "replace", before: first, after: second };
    } catch {
      return null;
    }
  }
  return null;
}

function heredocFile(action: string): StepEdit | null {
  const match = /^cat\s+<<-?\s*['"]?(\w+)['"]?\s*>\s*(\S+)\n([\s\S]*?)\n\1\s*$/.exec(action);
  return match ? { path: match[2], operation: "create", before: "", after: match[3] } : null;
}

export function parseStepEdit(step: { action: string | null; metadata?: unknown }): StepEdit | null {
  const action = step.action?.trim();
  if (!action) return null;
  return (
    toolCallEdit(action) ??
    editorCommandLine(action) ??
    openHandsEdit(action) ??
    sweAgentEdit(action, step.metadata) ??
    heredocFile(action)
  );
}

/**
 * Lines first..last of a file as an earlier observation showed them — SWE-agent prints the
 * window it has open as `[File: path (N lines total)]` then `12:text` per line.
 */
export function linesSeen(observations: (string | null)[], path: string, first: number, last: number): string | null {
  const name = path.split("/").pop()!;
  const seen = new Map<number, string>();
  for (const text of observations) {
    if (!text?.startsWith("[File: ") || !text.slice(0, 300).split("\n")[0].includes(name)) continue;
    for (const line of text.split("\n")) {
      const numbered = /^(\d+):(.*)$/.exec(line.replace(/\r$/, ""));
      if (numbered && !seen.has(Number(numbered[1]))) seen.set(Number(numbered[1]), numbered[2]);
    }
    if (Array.from({ length: last - first + 1 }, (_, i) => first + i).every((n) => seen.has(n))) break;
  }
  const region: string[] = [];
  for (let n = first; n <= last; n++) {
    if (!seen.has(n)) return null;
    region.push(seen.get(n)!);
  }
  return region.join("\n");
}

/** Whether two names are the same file: equal, or one is the other under a folder (`/testbed/a.py` and `a.py`). */
export function samePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

type Replayable = Pick<StepEdit, "operation" | "before" | "after" | "startLine" | "endLine">;

/** A file after one edit, or null when the edit does not say enough to apply it (its text is not in the file exactly once, no line). */
export function applyEdit(content: string, edit: Replayable): string | null {
  const lines = content.split("\n");
  switch (edit.operation) {
    case "create":
      return edit.after;
    case "replace": {
      if (!edit.before) return null;
      const at = content.indexOf(edit.before);
      if (at < 0 || content.indexOf(edit.before, at + 1) >= 0) return null;
      return content.slice(0, at) + edit.after + content.slice(at + edit.before.length);
    }
    case "insert":
      // startLine is the first new line: the text goes after line startLine - 1
      if (edit.startLine === undefined || edit.startLine - 1 > lines.length) return null;
      return [
        ...lines.slice(0, edit.startLine - 1),
        ...edit.after.split("\n"),
        ...lines.slice(edit.startLine - 1),
      ].join("\n");
    case "lines": {
      if (edit.startLine === undefined) return null;
      const end = edit.endLine ?? edit.startLine;
      if (end > lines.length) return null;
      return [...lines.slice(0, edit.startLine - 1), ...edit.after.split("\n"), ...lines.slice(end)].join("\n");
    }
  }
}

/**
 * The whole file before and after an edit: the stored base file with every earlier edit of the
 * same file replayed, then this one. Any edit that does not apply (a file changed by a shell
 * command the trajectory does not show as an edit, an ambiguous replace) ends it, with the step.
 */
export function wholeFileOfEdit(
  base: string,
  earlier: (Replayable & { index: number; path: string | null })[],
  edit: Replayable & { path: string | null },
): { original: string; modified: string } | { failed: string } {
  if (!edit.path) return { failed: "the edit does not name its file" };
  let content = base;
  for (const previous of earlier) {
    if (!previous.path || !samePath(previous.path, edit.path)) continue;
    const next = applyEdit(content, previous);
    if (next === null)
      return { failed: `the edit at step ${previous.index + 1} could not be replayed on the base file` };
    content = next;
  }
  const modified = applyEdit(content, edit);
  return modified === null
    ? { failed: "this edit does not apply to the file as the earlier edits left it" }
    : { original: content, modified };
}
