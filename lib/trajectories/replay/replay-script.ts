import { randomBytes } from "node:crypto";
import type { FileTree } from "../../docker/docker-engine";
import type { ReplayAction } from "./replay-actions";

// The replay as one bash script in one container: every action is sourced in the same shell
// (so `cd` and exported variables carry over, as in the agent's session) with stdin closed
// and stderr folded into stdout, between two marker lines that carry a per-replay nonce, so a
// command printing something marker-like cannot end its own step. Edits are files we put in
// /swe-curator/replay and a small applier (python3, which every SWE environment has).

const DIR = "/swe-curator/replay";

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export type ReplayMarkers = {
  begin: (index: number) => string;
  end: (index: number | string) => string;
  nonce: string;
};

export function replayMarkers(nonce = randomBytes(6).toString("hex")): ReplayMarkers {
  return {
    nonce,
    begin: (index) => `@@swe-curator-replay ${nonce} begin ${index}`,
    end: (index) => `@@swe-curator-replay ${nonce} end ${index}`,
  };
}

// Applies one region edit as lib/trajectories/step-edits.ts' applyEdit does: a replace needs its
// text exactly once; an insert goes before startLine; a line edit replaces startLine..endLine.
const APPLY_EDIT = `import json, sys
spec = json.load(open(sys.argv[1]))
path, op = spec["path"], spec["operation"]
try:
    content = open(path).read()
except OSError as error:
    sys.exit(f"[swe-curator] the edit's file {path} cannot be read: {error.strerror}")
lines = content.split("\\n")
if op == "replace":
    count = content.count(spec["before"])
    if count != 1:
        sys.exit(f"[swe-curator] the text to replace occurs {count} times in {path}, not once: the edit was not applied")
    content = content.replace(spec["before"], spec["after"])
elif op == "insert":
    at = spec["startLine"] - 1
    if at > len(lines):
        sys.exit(f"[swe-curator] {path} has {len(lines)} lines; cannot insert at line {spec['startLine']}")
    content = "\\n".join(lines[:at] + spec["after"].split("\\n") + lines[at:])
else:
    end = spec.get("endLine") or spec["startLine"]
    if end > len(lines):
        sys.exit(f"[swe-curator] {path} has {len(lines)} lines; cannot replace lines {spec['startLine']}-{end}")
    content = "\\n".join(lines[: spec["startLine"] - 1] + spec["after"].split("\\n") + lines[end:])
open(path, "w").write(content)
`;

function stepLines(action: ReplayAction, files: FileTree): string[] {
  switch (action.how) {
    case "shell":
      files[`${DIR}/step-${action.index}.sh`] = `${action.command}\n`;
      return [`. ${DIR}/step-${action.index}.sh </dev/null`];
    case "write":
      files[`${DIR}/file-${action.index}`] = action.content;
      return [
        `mkdir -p -- "$(dirname -- ${quote(action.path)})" && cat ${DIR}/file-${action.index} > ${quote(action.path)}`,
      ];
    case "edit":
      files[`${DIR}/edit-${action.index}.json`] = JSON.stringify(action.edit);
      return [`python3 ${DIR}/apply-edit.py ${DIR}/edit-${action.index}.json </dev/null`];
    case "skip":
      return [];
  }
}

/** The files and command that replay these actions, with the markers the output is cut by. */
export function replayScript(actions: ReplayAction[], markers: ReplayMarkers): { files: FileTree; command: string[] } {
  const files: FileTree = { [`${DIR}/apply-edit.py`]: APPLY_EDIT };
  const lines = ["exec 2>&1"];
  for (const action of actions) {
    const body = stepLines(action, files);
    if (!body.length) continue;
    lines.push(
      `printf '%s\\n' ${quote(markers.begin(action.index))}`,
      ...body,
      `printf '\\n%s %s\\n' ${quote(markers.end(action.index))} "$?"`,
    );
  }
  files[`${DIR}/replay.sh`] = `${lines.join("\n")}\n`;
  return { files, command: ["/bin/bash", `${DIR}/replay.sh`] };
}
