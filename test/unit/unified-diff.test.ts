import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildFileTree, languageForPath, parseUnifiedDiff, reconstructSides } from "@/lib/tasks/unified-diff";

const demoFix = readFileSync(
  path.join(import.meta.dirname, "../../prisma/seed/demo/tasks/demo__calc-1/fix.patch"),
  "utf8",
);

const multiFile = `diff --git a/src/pkg/core.py b/src/pkg/core.py
index 111..222 100644
--- a/src/pkg/core.py
+++ b/src/pkg/core.py
@@ -3,3 +3,3 @@ def f():
 a = 1
-b = 2
+b = 3
 c = 4
@@ -20,2 +20,3 @@ def g():
 x = 1
+y = 2
 z = 3
diff --git a/src/pkg/new.py b/src/pkg/new.py
new file mode 100644
index 0000000..333
--- /dev/null
+++ b/src/pkg/new.py
@@ -0,0 +1,2 @@
+print("new")
+-- not a header, an added line
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-gone
-too
diff --git a/docs/a.md b/docs/b.md
similarity index 90%
rename from docs/a.md
rename to docs/b.md
`;

describe("parseUnifiedDiff", () => {
  it("reads the demo fix patch with true line numbers", () => {
    const [file] = parseUnifiedDiff(demoFix);
    expect(file.path).toBe("calc/ops.py");
    expect(file.status).toBe("modified");
    expect(file.additions).toBe(2);
    expect(file.deletions).toBe(0);
    const added = file.hunks[0].lines.filter((l) => l.type === "add");
    expect(added.map((l) => l.newNumber)).toEqual([13, 14]);
  });

  it("tells added, deleted, renamed and modified files apart, and does not take '--' inside a hunk for a header", () => {
    const files = parseUnifiedDiff(multiFile);
    expect(files.map((f) => [f.path, f.status])).toEqual([
      ["src/pkg/core.py", "modified"],
      ["src/pkg/new.py", "added"],
      ["old.txt", "deleted"],
      ["docs/b.md", "renamed"],
    ]);
    expect(files[1].hunks[0].lines.map((l) => l.text)).toEqual(['print("new")', "-- not a header, an added line"]);
    expect(files[0].hunks).toHaveLength(2);
  });
});

describe("reconstructSides", () => {
  it("fills the code the patch does not include with blank lines, keeping line numbers, and says it is partial", () => {
    const [core] = parseUnifiedDiff(multiFile);
    const sides = reconstructSides(core);
    const original = sides.original.split("\n");
    const modified = sides.modified.split("\n");
    expect(original[3]).toBe("b = 2");
    expect(modified[3]).toBe("b = 3");
    expect(original[19]).toBe("x = 1");
    expect(modified[20]).toBe("y = 2");
    expect(sides.complete).toBe(false);
    expect(sides.placeholderLines).toBe(2 + 14);
  });

  it("knows a new file completely", () => {
    const sides = reconstructSides(parseUnifiedDiff(multiFile)[1]);
    expect(sides).toMatchObject({ original: "", complete: true, placeholderLines: 0 });
  });
});

describe("buildFileTree", () => {
  it("nests files in folders, folders first, collapsing single-child chains", () => {
    const tree = buildFileTree(parseUnifiedDiff(multiFile));
    expect(tree.map((n) => [n.type, n.name])).toEqual([
      ["dir", "docs"],
      ["dir", "src/pkg"],
      ["file", "old.txt"],
    ]);
    const pkg = tree[1];
    expect(pkg.type === "dir" && pkg.children.map((c) => c.name)).toEqual(["core.py", "new.py"]);
  });
});

it("picks a Monaco language from the file name", () => {
  expect(languageForPath("a/b/test_x.py")).toBe("python");
  expect(languageForPath("Dockerfile")).toBe("dockerfile");
  expect(languageForPath("weird")).toBe("plaintext");
});
