import { NON_TEST_EXTS } from "./harness-data";
import { repoSpecFor } from "./repo-spec";
import type { Refusal, SpecInstance } from "./types";

export type TestCommand = { ok: true; command: string; directives: string[] };

/**
 * The repository's test command and the test directives the harness appends to it
 * (test_spec/python.py get_test_directives): the files the test patch touches, minus non-test files;
 * for Django, dotted module names relative to tests/.
 */
export function testCommandFor(instance: SpecInstance): TestCommand | Refusal {
  const lookup = repoSpecFor(instance);
  if (!lookup.ok) return lookup;
  return { ok: true, command: lookup.spec.test_cmd, directives: testDirectivesFor(instance.repo, instance.testPatch) };
}

export function testDirectivesFor(repo: string, testPatch: string): string[] {
  // The harness's seq2seq benchmark runs one fixed file.
  if (repo === "swe-bench/humaneval") return ["test.py"];
  const directives = [...testPatch.matchAll(/diff --git a\/[^\n]* b\/([^\n]*)/g)]
    .map((match) => match[1])
    .filter((path) => !NON_TEST_EXTS.some((ext) => path.endsWith(ext)));
  return repo === "django/django" ? directives.map(djangoTestModule) : directives;
}

function djangoTestModule(path: string): string {
  const withoutExt = path.endsWith(".py") ? path.slice(0, -".py".length) : path;
  const relative = withoutExt.startsWith("tests/") ? withoutExt.slice("tests/".length) : withoutExt;
  return relative.replaceAll("/", ".");
}
