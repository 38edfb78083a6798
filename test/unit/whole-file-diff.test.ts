import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyToBase, basePathsOf, parseUnifiedDiff, sidesOfFile } from "@/lib/tasks/unified-diff";
import { storedPathFor } from "@/lib/tasks/task-base-files";
import { applyEdit, samePath, wholeFileOfEdit } from "@/lib/trajectories/step-edits";

const DEMO = path.join(import.meta.dirname, "../../prisma/seed/demo");
const demoOps = readFileSync(path.join(DEMO, "repos/calc/calc/ops.py"), "utf8");
const demoFix = readFileSync(path.join(DEMO, "tasks/demo__calc-1/fix.patch"), "utf8");

const fileOf = (patch: string) => parseUnifiedDiff(patch)[0];

describe("a patch applied to its whole base file", () => {
  it("gives both whole sides of the demo fix: the lines outside the hunk are real code", () => {
    const sides = applyToBase(demoOps, fileOf(demoFix));
    if ("failed" in sides) throw new Error(sides.failed);
    expect(sides.original).toBe(demoOps);
    expect(sides.modified).toContain('raise ValueError("mean() of an empty sequence")');
    // the first lines of the file are outside the hunk (@@ -10,4): the patch alone does not have them
    const firstLine = demoOps.split("\n")[0];
    expect(demoFix).not.toContain(firstLine);
    expect(sides.modified.split("\n")[0]).toBe(firstLine);
    expect(sides.modified.split("\n").length).toBe(demoOps.split("\n").length + 2);
    expect(sides.lines).toBe(demoOps.trimEnd().split("\n").length + 2);
  });

  it("finds a hunk whose stated line is off (the file moved), as patch does, and keeps later hunks in order", () => {
    const base = ["header", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].join("\n") + "\n";
    const patch = `--- a/x.txt
+++ b/x.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
@@ -8,3 +8,3 @@
 h
-i
+I
 j
`;
    const sides = applyToBase(base, fileOf(patch));
    if ("failed" in sides) throw new Error(sides.failed);
    expect(sides.modified).toBe(["header", "a", "B", "c", "d", "e", "f", "g", "h", "I", "j"].join("\n") + "\n");
  });

  it("a pure insertion, a deletion of the whole file, and CRLF line ends", () => {
    const insert = `--- a/x.txt
+++ b/x.txt
@@ -2,0 +3,1 @@
+inserted
`;
    const inserted = applyToBase("one\r\ntwo\r\nthree\r\n", fileOf(insert));
    expect(inserted).toMatchObject({ modified: "one\ntwo\ninserted\nthree\n" });
    const deletion = `diff --git a/x.txt b/x.txt
deleted file mode 100644
--- a/x.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-one
-two
`;
    expect(applyToBase("one\ntwo\n", fileOf(deletion))).toMatchObject({ original: "one\ntwo\n", modified: "" });
  });

  it("a patch that does not apply falls back to the hunks with the reason", () => {
    const stale = "def mean(values):\n    return 0\n";
    const file = fileOf(demoFix);
    const applied = applyToBase(stale, file);
    expect(applied).toEqual({
      failed: expect.stringMatching(
        /^hunk 1 of 1 \(@@ -10,4 @@\) does not match the stored base file of calc\/ops\.py$/,
      ),
    });
    const sides = sidesOfFile(file, { content: stale });
    expect(sides).toMatchObject({
      whole: false,
      complete: false,
      why: expect.stringContaining("does not apply to the stored base file: hunk 1 of 1"),
    });
    // the fallback is today's reconstruction: placeholders keep the line numbers
    if (sides.whole) throw new Error("not whole");
    expect(sides.placeholderLines).toBe(9);
  });

  it("without a stored base file the sides are rebuilt and say why; a new file needs none", () => {
    expect(
      sidesOfFile(fileOf(demoFix), { reason: "The base file is not stored: larger than 1048576 bytes." }),
    ).toMatchObject({ whole: false, why: "The base file is not stored: larger than 1048576 bytes." });
    const added = fileOf(`diff --git a/new.py b/new.py
new file mode 100644
--- /dev/null
+++ b/new.py
@@ -0,0 +1,2 @@
+a = 1
+b = 2
`);
    expect(sidesOfFile(added, null)).toMatchObject({
      whole: false,
      complete: true,
      why: null,
      modified: "a = 1\nb = 2",
    });
  });
});

describe("which base files a patch needs", () => {
  it("every changed file but the new ones, by its old path", () => {
    const patch = `diff --git a/old/name.py b/new/name.py
similarity index 90%
rename from old/name.py
rename to new/name.py
--- a/old/name.py
+++ b/new/name.py
@@ -1 +1 @@
-x
+y
diff --git a/added.py b/added.py
new file mode 100644
--- /dev/null
+++ b/added.py
@@ -0,0 +1 @@
+z
`;
    expect(basePathsOf(demoFix + patch)).toEqual(["calc/ops.py", "old/name.py"]);
  });

  it("a trajectory's absolute path names the stored file it ends with", () => {
    expect(storedPathFor("/testbed/calc/ops.py", ["ops.py", "calc/ops.py", "tests/test_ops.py"])).toBe("calc/ops.py");
    expect(storedPathFor("calc/ops.py", ["calc/ops.py"])).toBe("calc/ops.py");
    expect(storedPathFor("/testbed/other.py", ["calc/ops.py"])).toBeNull();
  });
});

describe("a trajectory's edit as a whole file", () => {
  const base = "def add(a, b):\n    return a + b\n\n\ndef mean(values):\n    return sum(values) / len(values)\n";
  const replace = (index: number, before: string, after: string) => ({
    index,
    path: "/testbed/calc/ops.py",
    operation: "replace" as const,
    before,
    after,
  });

  it("the first edit of a file: the base file before, the edit applied after", () => {
    const edit = replace(
      3,
      "    return sum(values) / len(values)",
      "    if not values:\n        raise ValueError\n    return sum(values) / len(values)",
    );
    const whole = wholeFileOfEdit(base, [], edit);
    expect(whole).toEqual({
      original: base,
      modified: base.replace("    return sum", "    if not values:\n        raise ValueError\n    return sum"),
    });
  });

  it("a later edit replays the earlier edits of the same file (and only those), by line and by text", () => {
    const earlier = [
      replace(1, "return a + b", "return b + a"),
      { index: 2, path: "calc/other.py", operation: "replace" as const, before: "x", after: "y" },
      { index: 3, path: "calc/ops.py", operation: "insert" as const, before: "", after: "# inserted", startLine: 1 },
      {
        index: 4,
        path: "/testbed/calc/ops.py",
        operation: "lines" as const,
        before: null,
        after: "def mean(xs):",
        startLine: 6,
        endLine: 6,
      },
    ];
    const whole = wholeFileOfEdit(
      base,
      earlier,
      replace(5, "    return sum(values) / len(values)", "    return sum(xs) / len(xs)"),
    );
    if ("failed" in whole) throw new Error(whole.failed);
    expect(whole.original).toBe(
      "# inserted\ndef add(a, b):\n    return b + a\n\n\ndef mean(xs):\n    return sum(values) / len(values)\n",
    );
    expect(whole.modified).toBe(
      "# inserted\ndef add(a, b):\n    return b + a\n\n\ndef mean(xs):\n    return sum(xs) / len(xs)\n",
    );
  });

  it("an edit that does not replay ends it with the step that failed", () => {
    expect(wholeFileOfEdit(base, [replace(1, "not in the file", "x")], replace(2, "return a + b", "return 0"))).toEqual(
      { failed: "the edit at step 2 could not be replayed on the base file" },
    );
    // a replace whose text appears twice is ambiguous
    expect(applyEdit("a\na\n", { operation: "replace", before: "a", after: "b" })).toBeNull();
    expect(wholeFileOfEdit(base, [], { path: null, operation: "create", before: "", after: "x" })).toEqual({
      failed: "the edit does not name its file",
    });
  });

  it("names the same file however the trajectory writes it", () => {
    expect(samePath("/testbed/calc/ops.py", "calc/ops.py")).toBe(true);
    expect(samePath("calc/ops.py", "/testbed/calc/ops.py")).toBe(true);
    expect(samePath("/testbed/calc/ops.py", "ops.py")).toBe(true);
    expect(samePath("/testbed/calc/xops.py", "ops.py")).toBe(false);
  });
});
