import { MAP_REPO_VERSION_TO_SPECS_PY, NON_PYTHON_REPOS, SWE_BENCH_COMMIT, type RepoVersionSpec } from "./harness-data";
import type { SpecInstance } from "./types";

export type SpecSource = "swe-bench" | "install_config";
export type TestableSpec = RepoVersionSpec & { test_cmd: string };
export type RepoSpecLookup = { ok: true; spec: TestableSpec; source: SpecSource } | { ok: false; reason: string };

const PINNED = `SWE-bench's harness at ${SWE_BENCH_COMMIT.slice(0, 12)}`;

/**
 * The per-instance spec: a SWE-rebench row's install_config when it carries one (its harness fork reads that
 * instead of the table), else the harness's MAP_REPO_VERSION_TO_SPECS entry for the repository and version.
 */
export function repoSpecFor(instance: SpecInstance): RepoSpecLookup {
  if (instance.installConfig !== undefined && instance.installConfig !== null) return installConfigSpec(instance);
  const versions = MAP_REPO_VERSION_TO_SPECS_PY[instance.repo];
  if (!versions) return { ok: false, reason: unknownRepoReason(instance) };
  if (instance.version === null || instance.version === "") {
    return {
      ok: false,
      reason:
        `Task ${instance.instanceId} (${instance.repo}) has no version, and ${PINNED} picks the environment by version; ` +
        `set the row's version (one of ${knownVersions(versions)}) or use the dataset's published image.`,
    };
  }
  const spec = versions[instance.version];
  if (!spec) {
    return {
      ok: false,
      reason:
        `Task ${instance.instanceId}: ${PINNED} has no spec for ${instance.repo} version ${instance.version} ` +
        `(it knows ${knownVersions(versions)}); correct the row's version or use the dataset's published image.`,
    };
  }
  const testCmd = spec.test_cmd;
  if (testCmd === undefined) {
    return {
      ok: false,
      reason:
        `Task ${instance.instanceId}: ${PINNED} lists ${instance.repo} version ${instance.version} without a test command; ` +
        "use the dataset's published image with its own eval script, or write a recipe.",
    };
  }
  return { ok: true, spec: { ...spec, test_cmd: testCmd }, source: "swe-bench" };
}

function unknownRepoReason(instance: SpecInstance): string {
  if (NON_PYTHON_REPOS.includes(instance.repo)) {
    return (
      `Task ${instance.instanceId}: ${instance.repo} is one of the harness's non-Python repositories, whose specs are not ` +
      "generated here; use the dataset's published image or write a recipe."
    );
  }
  return (
    `Task ${instance.instanceId}: ${PINNED} has no spec for the repository ${instance.repo}; ` +
    "use the dataset's published image, import the row with a SWE-rebench install_config, or write a recipe."
  );
}

function knownVersions(versions: Record<string, RepoVersionSpec>): string {
  const names = Object.keys(versions);
  return names.length > 8 ? `${names.slice(0, 4).join(", ")} … ${names.slice(-2).join(", ")}` : names.join(", ");
}

function installConfigSpec(instance: SpecInstance): RepoSpecLookup {
  const config = instance.installConfig;
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return {
      ok: false,
      reason: `Task ${instance.instanceId}: its install_config is not an object; re-import the row as the dataset publishes it.`,
    };
  }
  // SWE-rebench rows spell an absent setting as null; the harness fork reads those as absent.
  const present = Object.fromEntries(
    Object.entries(config).filter(([, value]) => value !== null),
  ) as Partial<RepoVersionSpec> & { test_cmd?: unknown };
  const testCmd = present.test_cmd;
  if (Array.isArray(testCmd)) {
    return {
      ok: false,
      reason:
        `Task ${instance.instanceId}: its install_config lists several test commands (the SWE-rebench V2 form), which the harness's ` +
        "Python eval script does not run; use the row's docker_image with its own eval script.",
    };
  }
  if (typeof testCmd !== "string" || testCmd.trim() === "") {
    return {
      ok: false,
      reason:
        `Task ${instance.instanceId}: its install_config has no test_cmd, so the test command is unknown; ` +
        "add one to the row or write a recipe.",
    };
  }
  return { ok: true, spec: { ...present, test_cmd: testCmd }, source: "install_config" };
}
