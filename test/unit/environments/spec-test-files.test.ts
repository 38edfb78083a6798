import { describe, expect, it } from "vitest";
import { harnessSpecFor, testCommandFor, type SpecInstance } from "@/lib/environments/spec";

// A test patch with every kind of file entry git writes. The expected lists are what SWE-bench's harness
// (v4.1.0: utils.get_modified_files on unidiff 0.7.3, test_spec/python.py get_test_directives) printed for it.
const testPatch = `diff --git a/tests/test_a.py b/tests/test_a.py
index 1111111..2222222 100644
--- a/tests/test_a.py
+++ b/tests/test_a.py
@@ -1,3 +1,3 @@
 def test():
--- a/looks/like/a/header.py
+++ b/looks/like/a/header.py
     pass
diff --git a/tests/new_test.py b/tests/new_test.py
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/tests/new_test.py
@@ -0,0 +1 @@
+x = 1
diff --git a/tests/gone.py b/tests/gone.py
deleted file mode 100644
index 4444444..0000000
--- a/tests/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-y = 2
diff --git a/tests/data/img.png b/tests/data/img.png
index 5555555..6666666 100644
Binary files a/tests/data/img.png and b/tests/data/img.png differ
diff --git a/tests/old_name.py b/tests/new_name.py
similarity index 90%
rename from tests/old_name.py
rename to tests/new_name.py
index 7777777..8888888 100644
--- a/tests/old_name.py
+++ b/tests/new_name.py
@@ -1 +1 @@
-z = 3
+z = 4
diff --git a/tests/mode_only.sh b/tests/mode_only.sh
old mode 100644
new mode 100755
`;

const instance: SpecInstance = {
  instanceId: "pytest-dev__pytest-7673",
  repo: "pytest-dev/pytest",
  version: "6.0",
  baseCommit: "75af2bfa06436752165df884d4666402529b1d6a",
  environmentSetupCommit: "634cde9506eb1f48dec3ec77974ee8dc952207c6",
  testPatch,
  failToPass: [],
  passToPass: [],
};

describe("files of a test patch, as the harness reads them", () => {
  it("directives: every file the patch leaves in place, whatever a hunk's lines look like", () => {
    const result = testCommandFor(instance);
    expect(result.ok && result.directives).toEqual([
      "tests/test_a.py",
      "tests/new_test.py",
      "tests/gone.py",
      "tests/new_name.py",
      "tests/mode_only.sh",
    ]);
  });

  it("the eval script resets the files the patch changes, but not one it creates, and by their old names", () => {
    const result = harnessSpecFor(instance);
    if (!result.ok) throw new Error(result.reason);
    const reset = `git checkout ${instance.baseCommit} tests/test_a.py tests/gone.py tests/data/img.png tests/old_name.py tests/mode_only.sh`;
    expect(result.spec.evalScript.split("\n").filter((line) => line.startsWith("git checkout "))).toEqual([
      reset,
      reset,
    ]);
  });
});
