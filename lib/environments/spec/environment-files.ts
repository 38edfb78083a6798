// The files the harness downloads from GitHub while it writes an environment script (test_spec/python.py:
// get_requirements_by_commit, get_environment_yml_by_commit, and the clean_* rewrites), computed here from files
// the caller supplies, since builds and this module never reach the network.

// Packages yanked from PyPI, and what the harness installs instead.
const REPLACE_REQ_PACKAGES: ReadonlyArray<readonly [string, string]> = [["types-pkg_resources", "types-setuptools"]];

export type FileLookup = { ok: true; text: string } | { ok: false; tried: readonly string[] };

/** The first of the paths the repository has, and the files it includes with `-r`, as one text. */
export function requirementsFor(paths: readonly string[], repoFiles: Readonly<Record<string, string>>): FileLookup {
  const reqPath = paths.find((path) => repoFiles[path] !== undefined);
  if (reqPath === undefined) return { ok: false, tried: paths };
  const reqDir = reqPath.split("/").slice(0, -1).join("/");
  const excluded = (line: string) => ["-e .", "#", ".[test"].some((prefix) => line.trim().startsWith(prefix));
  const original: string[] = [];
  const additional: string[] = [];
  for (const line of repoFiles[reqPath].split("\n")) {
    if (line.trim().startsWith("-r")) {
      const fileName = line.slice("-r".length).trim();
      // The harness skips an include it cannot download, silently.
      const included = repoFiles[reqDir ? `${reqDir}/${fileName}` : fileName];
      if (included !== undefined) additional.push(...included.split("\n").filter((extra) => !excluded(extra)));
    } else if (!excluded(line)) {
      original.push(line);
    }
  }
  additional.push(original.join("\n"));
  return { ok: true, text: cleanRequirements(additional.join("\n")) };
}

function cleanRequirements(text: string): string {
  return REPLACE_REQ_PACKAGES.reduce(
    (cleaned, [yanked, replacement]) =>
      cleaned.replace(new RegExp(`(?<=^|\\n)${escapeRegExp(yanked)}(?:[<>=!~]=?[^\\n]*)?(?=\\n|$)`, "g"), replacement),
    text,
  );
}

export function environmentYmlFor(
  paths: readonly string[],
  repoFiles: Readonly<Record<string, string>>,
  envName: string,
): FileLookup {
  const ymlPath = paths.find((path) => repoFiles[path] !== undefined);
  if (ymlPath === undefined) return { ok: false, tried: paths };
  const renamed = repoFiles[ymlPath].split("\n").map((line) => (line.startsWith("name:") ? `name: ${envName}` : line));
  return { ok: true, text: cleanEnvironmentYml(renamed.join("\n")) };
}

/** Replaces yanked packages in the yml's pip section only, as clean_environment_yml does. */
function cleanEnvironmentYml(yml: string): string {
  const pipLine = findPipLine(yml);
  if (!pipLine) return yml;
  const pipIndent = pipLine.text.length - pipLine.text.trimStart().length;
  const contentStart = pipLine.index + pipLine.text.length;
  const linesAfter = yml.slice(contentStart).split("\n");
  let sectionEnd = yml.length;
  for (let index = 0; index < linesAfter.length; index += 1) {
    const line = linesAfter[index];
    if (line.trim() === "") continue;
    if (line.length - line.trimStart().length <= pipIndent) {
      sectionEnd = contentStart + linesAfter.slice(0, index).reduce((sum, before) => sum + before.length + 1, 0);
      break;
    }
  }
  let pipPortion = yml.slice(contentStart, sectionEnd);
  for (const [yanked, replacement] of REPLACE_REQ_PACKAGES) {
    pipPortion = pipPortion.replace(
      new RegExp(`^(\\s*-\\s*)${escapeRegExp(yanked)}(?:[<>=!~]=?.*|$)`, "gm"),
      `$1${replacement}`,
    );
  }
  return yml.slice(0, contentStart) + pipPortion + yml.slice(sectionEnd);
}

// The first match of the harness's /^(\s*-\s*pip\s*:\s*\n)/m, tried at each line start in turn
// (by hand: the regular expression's leading \s* may run across lines).
function findPipLine(yml: string): { index: number; text: string } | null {
  for (let index = 0; index < yml.length; index = yml.indexOf("\n", index) + 1) {
    const end = pipLineEnd(yml, index);
    if (end !== null) return { index, text: yml.slice(index, end) };
    if (yml.indexOf("\n", index) < 0) break;
  }
  return null;
}

function pipLineEnd(yml: string, start: number): number | null {
  const skipSpace = (from: number) => {
    let at = from;
    while (at < yml.length && /\s/.test(yml[at])) at += 1;
    return at;
  };
  let at = skipSpace(start);
  if (yml[at] !== "-") return null;
  at = skipSpace(at + 1);
  if (!yml.startsWith("pip", at)) return null;
  at = skipSpace(at + 3);
  if (yml[at] !== ":") return null;
  const spaceEnd = skipSpace(at + 1);
  const lastNewline = yml.lastIndexOf("\n", spaceEnd - 1);
  return lastNewline > at ? lastNewline + 1 : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
