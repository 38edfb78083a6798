// The files a patch modifies, as SWE-bench's harness lists them (utils.get_modified_files): unidiff's PatchSet,
// each patched file's source path, leaving out created files (/dev/null) and paths without the a/ prefix.
// A small line parser that follows unidiff's rules for the git diffs the datasets carry, hunks consumed by count
// so a removed line that reads like a header (`--- …`) is never taken for one.

type PatchedFile = { source: string };

const GIT_HEADER = /^diff --git ((?:a\/)?[^\t\n]+) ((?:b\/)?[^\t\n]+)/;
const NEW_FILE = /^new file mode \d+$/;
const SOURCE_FILENAME = /^--- ([^\t\n]+)/;
const TARGET_FILENAME = /^\+\+\+ ([^\t\n]+)/;
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const BINARY_DIFF =
  /^Binary files? ([^\t]+?)(?:\t[\s0-9:+-]+)?(?: and ([^\t]+?)(?:\t[\s0-9:+-]+)?)? (differ|has changed)/;

export function getModifiedFiles(patch: string): string[] {
  return patchedFiles(patch)
    .map((file) => file.source)
    .filter((source) => source !== "/dev/null" && source.startsWith("a/"))
    .map((source) => source.slice(2));
}

function patchedFiles(patch: string): PatchedFile[] {
  const files: PatchedFile[] = [];
  const lines = patch.split("\n");
  let current: PatchedFile | null = null;
  let lastSource = "";
  let inPatchInfo = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    const gitHeader = GIT_HEADER.exec(line);
    if (gitHeader) {
      current = { source: gitHeader[1] };
      files.push(current);
      inPatchInfo = true;
      continue;
    }
    if (NEW_FILE.test(line) && current) {
      current.source = "/dev/null";
      continue;
    }
    const source = SOURCE_FILENAME.exec(line);
    if (source) {
      lastSource = source[1];
      if (current && current.source !== lastSource) current = null;
      continue;
    }
    if (TARGET_FILENAME.test(line)) {
      if (!current) {
        current = { source: lastSource };
        files.push(current);
        inPatchInfo = false;
      }
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      inPatchInfo = false;
      index = skipHunk(lines, index, Number(hunk[2] ?? 1), Number(hunk[4] ?? 1));
      continue;
    }
    if (line.startsWith("\\ No newline at end of file") || (line === "" && current)) continue;
    if (!inPatchInfo) {
      current = null;
      inPatchInfo = true;
    }
    const binary = BINARY_DIFF.exec(line);
    if (binary) {
      if (!current) files.push({ source: binary[1] });
      current = null;
      inPatchInfo = false;
    }
  }
  return files;
}

/** Returns the index of the hunk's last line: its body is as long as its header says. */
function skipHunk(lines: string[], headerIndex: number, sourceLength: number, targetLength: number): number {
  let sourceLeft = sourceLength;
  let targetLeft = targetLength;
  let index = headerIndex;
  while ((sourceLeft > 0 || targetLeft > 0) && index + 1 < lines.length) {
    index += 1;
    const kind = lines[index][0];
    if (kind === "-") sourceLeft -= 1;
    else if (kind === "+") targetLeft -= 1;
    else if (kind === "\\") continue;
    else {
      sourceLeft -= 1;
      targetLeft -= 1;
    }
  }
  return index;
}
