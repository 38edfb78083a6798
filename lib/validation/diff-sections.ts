// Splits a patch into its per-file sections, keeping each section's raw text, so a
// section can be dropped without re-writing the others (modes, binary blocks and
// "\ No newline at end of file" survive untouched). Every file name a tool could act on
// is collected — the `diff --git` line, `---`/`+++`, rename/copy lines, `Index:` — since
// `git apply` and the `patch` fallback do not read the same header lines.

export type DiffSection = {
  /** every path the section names, normalized (see normalizeDiffPath) */
  paths: string[];
  /** creates or turns a file into a symbolic link (mode 120000) */
  symlink: boolean;
  /** creates a file that did not exist (new file mode, or --- /dev/null) */
  created: boolean;
  /** added lines, with their number in the new file */
  added: Array<{ line: number; text: string }>;
  text: string;
};

const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const NAME_LINE = /^(?:--- |\+\+\+ |rename from |rename to |copy from |copy to )(.*)$/;
const SYMLINK_MODE = /^(?:new file mode|new mode|old mode|deleted file mode) 120000\s*$/;

/** git's C-style quoting of unusual file names: "a/t\303\251st.py". */
function unquote(value: string): string {
  if (!(value.startsWith('"') && value.endsWith('"') && value.length >= 2)) return value;
  const bytes: number[] = [];
  const body = value.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, "\\": 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char !== "\\") {
      bytes.push(...Buffer.from(char));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else if (body[i + 1] in simple) bytes.push(simple[body[++i]]);
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * A repository-relative path as `git apply` and `patch -p1` resolve it: the first
 * component stripped (whatever it is, not only a/ and b/), no timestamp, no `.` or empty
 * segments, `..` resolved. A path that leaves the repository or is absolute is returned
 * with a leading "/" so no rule mistakes it for a harmless file.
 */
export function normalizeDiffPath(raw: string, stripPrefix = true): string | null {
  let value = raw.split("\t")[0].trim();
  if (!value || value === "/dev/null") return null;
  value = unquote(value);
  const absolute = value.startsWith("/");
  if (stripPrefix && !absolute) value = value.replace(/^[^/]*\//, "");
  const segments: string[] = [];
  let escaped = absolute;
  for (const segment of value.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length) segments.pop();
      else escaped = true;
      continue;
    }
    segments.push(segment);
  }
  return (escaped ? "/" : "") + segments.join("/");
}

/** Both names of a `diff --git a/x b/y` line; with spaces in names the split is ambiguous, so every split is kept. */
function gitHeaderPaths(rest: string): string[] {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (quoted) return [quoted[1], quoted[2]];
  const names: string[] = [];
  for (let at = rest.indexOf(" b/"); at >= 0; at = rest.indexOf(" b/", at + 1))
    names.push(rest.slice(0, at), rest.slice(at + 1));
  return names.length ? names : [rest];
}

type OpenSection = DiffSection & { lines: string[]; git: boolean; oldName: boolean; hunks: number };

// Lines git writes between `diff --git` and the first hunk; anything else outside a hunk is dropped.
const GIT_EXTENDED =
  /^(?:index |old mode |new mode |deleted file mode |new file mode |similarity index |dissimilarity index |Binary files |GIT binary patch)/;

/**
 * The unified-diff sections of a patch, each rebuilt from the lines we recognized: a
 * line we do not understand (a commit message, a context-diff or ed-script fragment) is
 * left out rather than handed to a tool that might read it differently.
 */
export function splitDiffSections(patch: string): DiffSection[] {
  const sections: OpenSection[] = [];
  let section: OpenSection | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  let newLine = 0;
  let binary = false;
  const open = (git: boolean): OpenSection => {
    section = {
      paths: [],
      symlink: false,
      created: false,
      added: [],
      text: "",
      lines: [],
      git,
      oldName: false,
      hunks: 0,
    };
    sections.push(section);
    binary = false;
    return section;
  };
  const addPath = (target: DiffSection, raw: string, stripPrefix = true) => {
    const path = normalizeDiffPath(raw, stripPrefix);
    if (path !== null && !target.paths.includes(path)) target.paths.push(path);
  };

  // bytes are kept as given: a CRLF file's hunks carry their \r, which git apply needs
  for (const line of patch.split("\n")) {
    const current = section as OpenSection | null;
    if (current && (oldLeft > 0 || newLeft > 0)) {
      const mark = line === "" ? " " : line[0];
      if (mark === " " || mark === "-" || mark === "+" || mark === "\\") {
        current.lines.push(line);
        if (mark === "+") current.added.push({ line: newLine, text: line.slice(1) });
        if (mark === " " || mark === "-") oldLeft--;
        if (mark === " " || mark === "+") {
          newLeft--;
          newLine++;
        }
        continue;
      }
      oldLeft = newLeft = 0; // a short hunk: what follows is read as headers again
    }
    if (line === "-- ") break; // git format-patch's signature: the rest is not part of the diff
    if (line.startsWith("diff --git ")) {
      const opened = open(true);
      opened.lines.push(line);
      for (const name of gitHeaderPaths(line.slice("diff --git ".length))) addPath(opened, name);
      continue;
    }
    if (line.startsWith("\\ ") && current?.hunks) {
      current.lines.push(line); // "\ No newline at end of file" after a hunk's last line
      continue;
    }
    const hunk = HUNK_HEADER.exec(line);
    if (hunk) {
      if (!current || !(current.git || current.oldName)) continue; // a hunk with no file
      current.lines.push(line);
      current.hunks++;
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLine = Number(hunk[2]);
      newLeft = hunk[3] === undefined ? 1 : Number(hunk[3]);
      continue;
    }
    const name = NAME_LINE.exec(line);
    if (name) {
      const isOld = line.startsWith("--- ");
      // a plain (non-git) diff starts its next file at the next `---` line
      const target = !current || (isOld && (current.hunks > 0 || current.oldName)) ? open(false) : current;
      if (isOld) target.oldName = true;
      if (isOld && name[1].split("\t")[0].trim() === "/dev/null") target.created = true;
      target.lines.push(line);
      addPath(target, name[1], !line.startsWith("rename ") && !line.startsWith("copy "));
      continue;
    }
    if (!current || (current.hunks > 0 && !binary)) continue;
    if (binary || (current.git && GIT_EXTENDED.test(line))) {
      if (line.startsWith("GIT binary patch")) binary = true;
      if (SYMLINK_MODE.test(line)) current.symlink = true;
      if (line.startsWith("new file mode ")) current.created = true;
      current.lines.push(line);
    }
  }
  return sections
    .filter((s) => s.git || s.hunks > 0)
    .map(({ paths, symlink, created, added, lines }) => ({
      paths,
      symlink,
      created,
      added,
      text: `${lines.join("\n").replace(/(?<!\n)\n+$/, "")}\n`,
    }));
}

/** Every path a patch touches (old and new names). */
export function pathsTouchedBy(patch: string): string[] {
  return [...new Set(splitDiffSections(patch).flatMap((section) => section.paths))];
}
