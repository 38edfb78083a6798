// Pure parsing of `git diff` / unified diffs (fix and test patches) for the task page.
// No I/O: the browser and the server both use it.

export type DiffLineType = "context" | "add" | "del";

export type DiffLine = { type: DiffLineType; text: string; oldNumber: number | null; newNumber: number | null };

export type DiffHunk = {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** text after the second @@, usually the enclosing function */
  section: string;
  lines: DiffLine[];
};

export type FileChangeStatus = "added" | "deleted" | "modified" | "renamed";

export type DiffFile = {
  oldPath: string | null;
  newPath: string | null;
  /** the path to show: the new path, or the old one for a deletion */
  path: string;
  status: FileChangeStatus;
  binary: boolean;
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
};

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

function stripPrefix(raw: string): string | null {
  const value = raw.split("\t")[0].trim();
  if (value === "/dev/null") return null;
  const unquoted = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  return unquoted.replace(/^[ab]\//, "");
}

function pathsFromGitHeader(line: string): { oldPath: string; newPath: string } | null {
  const match = /^diff --git "?a\/(.+?)"? "?b\/(.+?)"?$/.exec(line);
  return match ? { oldPath: match[1], newPath: match[2] } : null;
}

function newFile(oldPath: string | null, newPath: string | null): DiffFile {
  return {
    oldPath,
    newPath,
    path: newPath ?? oldPath ?? "",
    status: "modified",
    binary: false,
    hunks: [],
    additions: 0,
    deletions: 0,
  };
}

function finishFile(file: DiffFile): DiffFile {
  const status: FileChangeStatus =
    file.oldPath === null
      ? "added"
      : file.newPath === null
        ? "deleted"
        : file.oldPath !== file.newPath
          ? "renamed"
          : file.status;
  return { ...file, status, path: file.newPath ?? file.oldPath ?? "" };
}

/** Parses a unified diff into files and hunks with old/new line numbers. Unknown lines are ignored. */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: DiffHunk | null = null;
  let oldLine = 0;
  let newLine = 0;
  const push = () => {
    if (file) files.push(finishFile(file));
    file = null;
    hunk = null;
  };

  for (const line of text.replace(/\r\n/g, "\n").split("\n")) {
    if (line.startsWith("diff --git ")) {
      push();
      const paths = pathsFromGitHeader(line);
      file = newFile(paths?.oldPath ?? null, paths?.newPath ?? null);
      continue;
    }
    const inHunk: DiffHunk | null = hunk;
    const remainingOld = inHunk ? inHunk.oldStart + inHunk.oldLines - oldLine : 0;
    const remainingNew = inHunk ? inHunk.newStart + inHunk.newLines - newLine : 0;
    const hunkOpen = inHunk !== null && (remainingOld > 0 || remainingNew > 0);

    if (!hunkOpen && line.startsWith("--- ")) {
      // a plain unified diff (no git header) starts a file at its --- line
      if (!file || file.hunks.length > 0) {
        push();
        file = newFile(null, null);
      }
      file.oldPath = stripPrefix(line.slice(4));
      continue;
    }
    if (!hunkOpen && line.startsWith("+++ ") && file) {
      file.newPath = stripPrefix(line.slice(4));
      continue;
    }
    if (!file) continue;
    if (!hunkOpen) {
      if (line.startsWith("new file mode")) file.oldPath = null;
      else if (line.startsWith("deleted file mode")) file.newPath = null;
      else if (line.startsWith("rename from ")) file.oldPath = line.slice("rename from ".length);
      else if (line.startsWith("rename to ")) file.newPath = line.slice("rename to ".length);
      else if (line.startsWith("Binary files ") || line.startsWith("GIT binary patch")) file.binary = true;
    }
    const header = HUNK_HEADER.exec(line);
    if (header && !hunkOpen) {
      hunk = {
        oldStart: Number(header[1]),
        oldLines: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newLines: header[4] === undefined ? 1 : Number(header[4]),
        section: header[5] ?? "",
        lines: [],
      };
      // a hunk that adds to an empty file starts at line 0
      oldLine = hunk.oldLines === 0 ? hunk.oldStart + 1 : hunk.oldStart;
      newLine = hunk.newLines === 0 ? hunk.newStart + 1 : hunk.newStart;
      if (hunk.oldLines === 0) hunk.oldStart += 1;
      if (hunk.newLines === 0) hunk.newStart += 1;
      file.hunks.push(hunk);
      continue;
    }
    if (!hunkOpen || !inHunk) continue;
    const marker = line[0];
    const content = line.slice(1);
    if (marker === "+") {
      inHunk.lines.push({ type: "add", text: content, oldNumber: null, newNumber: newLine++ });
      file.additions++;
    } else if (marker === "-") {
      inHunk.lines.push({ type: "del", text: content, oldNumber: oldLine++, newNumber: null });
      file.deletions++;
    } else if (marker === " " || line === "") {
      inHunk.lines.push({ type: "context", text: content, oldNumber: oldLine++, newNumber: newLine++ });
    }
    // "\ No newline at end of file" and anything else: ignored
  }
  push();
  return files;
}

export type FileTreeNode =
  | { type: "dir"; name: string; path: string; children: FileTreeNode[] }
  | { type: "file"; name: string; path: string; file: DiffFile };

/** Groups files into folders; a folder with a single sub-folder is collapsed into "a/b". */
export function buildFileTree(files: DiffFile[]): FileTreeNode[] {
  const root: FileTreeNode & { type: "dir" } = { type: "dir", name: "", path: "", children: [] };
  for (const file of files) {
    const parts = file.path.split("/");
    let dir = root;
    parts.slice(0, -1).forEach((part, i) => {
      const dirPath = parts.slice(0, i + 1).join("/");
      let next = dir.children.find((c): c is FileTreeNode & { type: "dir" } => c.type === "dir" && c.path === dirPath);
      if (!next) {
        next = { type: "dir", name: part, path: dirPath, children: [] };
        dir.children.push(next);
      }
      dir = next;
    });
    dir.children.push({ type: "file", name: parts[parts.length - 1], path: file.path, file });
  }
  return sortTree(root.children.map(collapseSingleChildDirs));
}

function collapseSingleChildDirs(node: FileTreeNode): FileTreeNode {
  if (node.type === "file") return node;
  let current = node;
  while (current.children.length === 1 && current.children[0].type === "dir") {
    const child: FileTreeNode & { type: "dir" } = current.children[0];
    current = { type: "dir", name: `${current.name}/${child.name}`, path: child.path, children: child.children };
  }
  return { ...current, children: current.children.map(collapseSingleChildDirs) };
}

function sortTree(nodes: FileTreeNode[]): FileTreeNode[] {
  return [...nodes]
    .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === "dir" ? -1 : 1))
    .map((n) => (n.type === "dir" ? { ...n, children: sortTree(n.children) } : n));
}

export type ReconstructedSides = {
  original: string;
  modified: string;
  /**
   * false when lines the diff does not show were filled with blank placeholders, so the
   * editor's line numbers match the real file but unchanged code outside the hunks is unknown.
   */
  complete: boolean;
  /** how many lines of each side are placeholders for code the patch does not include */
  placeholderLines: number;
};

/**
 * Both sides of a file from the diff alone, when its base file is not stored or the patch
 * does not apply to it (see sidesOfFile). Unknown lines
 * between hunks become blank lines on both sides, so line numbers stay true and the diff
 * editor treats them as unchanged (and folds them).
 */
export function reconstructSides(file: DiffFile): ReconstructedSides {
  const original: string[] = [];
  const modified: string[] = [];
  let placeholderLines = 0;
  for (const hunk of file.hunks) {
    // the gap before a hunk is the same unchanged code on both sides
    const gap = Math.max(0, hunk.oldStart - 1 - original.length);
    for (let i = 0; i < gap; i++) {
      original.push("");
      modified.push("");
    }
    placeholderLines += gap;
    for (const line of hunk.lines) {
      if (line.type !== "add") original.push(line.text);
      if (line.type !== "del") modified.push(line.text);
    }
  }
  const wholeFileShown =
    file.status === "added" || (file.status === "deleted" && file.hunks.length === 1 && file.hunks[0].oldStart === 1);
  return {
    original: original.join("\n"),
    modified: modified.join("\n"),
    // past the last hunk the file may go on; only a new or wholly deleted file is fully known
    complete: wholeFileShown && placeholderLines === 0,
    placeholderLines,
  };
}

/** The paths whose base-commit files a patch needs to be shown whole: every file it changes that it does not create. */
export function basePathsOf(patch: string): string[] {
  return parseUnifiedDiff(patch).flatMap((file) => (file.status !== "added" && file.oldPath ? [file.oldPath] : []));
}

export type WholeSides = { original: string; modified: string; lines: number };

/** Lines of a file without the empty string after its last newline; whether it ended with one. */
function linesOf(text: string): { lines: string[]; trailingNewline: boolean } {
  const normalized = text.replace(/\r\n/g, "\n");
  const trailingNewline = normalized.endsWith("\n");
  const lines = normalized === "" ? [] : (trailingNewline ? normalized.slice(0, -1) : normalized).split("\n");
  return { lines, trailingNewline };
}

function matchesAt(lines: string[], expected: string[], at: number): boolean {
  if (at < 0 || at + expected.length > lines.length) return false;
  return expected.every((line, i) => lines[at + i] === line);
}

/** Where a hunk's old lines are: at its stated line (shifted by earlier hunks), else the nearest exact match, as `patch` does. */
function locateHunk(lines: string[], expected: string[], stated: number, from: number): number | null {
  if (matchesAt(lines, expected, stated)) return stated;
  for (let distance = 1; distance <= lines.length; distance++) {
    for (const at of [stated - distance, stated + distance])
      if (at >= from && matchesAt(lines, expected, at)) return at;
  }
  return null;
}

/**
 * Both whole sides of a file: the stored base file and the patch applied to it. Each hunk's
 * old lines must appear in the base exactly (at its line, or moved as `patch` allows); when
 * one does not, the answer is the reason, and the caller falls back to reconstructSides.
 */
export function applyToBase(base: string, file: DiffFile): WholeSides | { failed: string } {
  if (file.binary) return { failed: "a binary change has no text to apply" };
  const { lines, trailingNewline } = linesOf(base);
  const result: string[] = [];
  let cursor = 0;
  // how far the last hunk sat from its stated line: later hunks are looked for as far off
  let offset = 0;
  for (const [n, hunk] of file.hunks.entries()) {
    const expected = hunk.lines.filter((line) => line.type !== "add").map((line) => line.text);
    const stated = hunk.oldStart - 1 + offset;
    // a hunk of only additions (into an empty file, say) has nothing to match
    const at = expected.length === 0 ? Math.max(cursor, stated) : locateHunk(lines, expected, stated, cursor);
    if (at === null || at > lines.length) {
      return {
        failed: `hunk ${n + 1} of ${file.hunks.length} (@@ -${hunk.oldStart},${hunk.oldLines} @@) does not match the stored base file of ${file.oldPath ?? file.path}`,
      };
    }
    result.push(...lines.slice(cursor, at));
    for (const line of hunk.lines) if (line.type !== "del") result.push(line.text);
    cursor = at + expected.length;
    offset = at - (hunk.oldStart - 1);
  }
  result.push(...lines.slice(cursor));
  const join = (all: string[]) => (all.length && trailingNewline ? `${all.join("\n")}\n` : all.join("\n"));
  const modified = file.status === "deleted" ? "" : join(result);
  return {
    original: join(lines),
    modified,
    lines: Math.max(lines.length, file.status === "deleted" ? 0 : result.length),
  };
}

/** What the diff shows of a file: both whole sides, or the sides rebuilt from the patch and why the whole file is not shown. */
export type DiffSides = (WholeSides & { whole: true }) | (ReconstructedSides & { whole: false; why: string | null });

/**
 * The sides of a file's diff: whole when its base file is stored and the patch applies to it
 * (a new file is whole from the patch alone), else rebuilt from the hunks, with the reason.
 */
export function sidesOfFile(file: DiffFile, base: { content: string } | { reason: string } | null): DiffSides {
  const rebuilt = (why: string | null): DiffSides => ({ ...reconstructSides(file), whole: false, why });
  if (file.status === "added" || !base) return rebuilt(null);
  if ("reason" in base) return rebuilt(base.reason);
  const applied = applyToBase(base.content, file);
  return "failed" in applied
    ? rebuilt(`The patch does not apply to the stored base file: ${applied.failed}.`)
    : { ...applied, whole: true };
}

/** Monaco language id from a file name (only languages Monaco ships tokenizers for). */
export function languageForPath(path: string): string {
  const name = path.split("/").pop() ?? "";
  if (/^Dockerfile/i.test(name)) return "dockerfile";
  const ext = name.includes(".") ? name.split(".").pop()!.toLowerCase() : "";
  const byExt: Record<string, string> = {
    py: "python",
    js: "javascript",
    mjs: "javascript",
    cjs: "javascript",
    jsx: "javascript",
    ts: "typescript",
    tsx: "typescript",
    json: "json",
    md: "markdown",
    rst: "restructuredtext",
    sh: "shell",
    bash: "shell",
    yml: "yaml",
    yaml: "yaml",
    toml: "ini",
    cfg: "ini",
    ini: "ini",
    go: "go",
    rs: "rust",
    java: "java",
    kt: "kotlin",
    c: "c",
    h: "c",
    cc: "cpp",
    cpp: "cpp",
    hpp: "cpp",
    cs: "csharp",
    rb: "ruby",
    php: "php",
    html: "html",
    css: "css",
    scss: "scss",
    sql: "sql",
    xml: "xml",
    swift: "swift",
  };
  return byExt[ext] ?? "plaintext";
}
