export type SpecInstance = {
  instanceId: string;
  /** "owner/name" */
  repo: string;
  version: string | null;
  baseCommit: string;
  environmentSetupCommit: string | null;
  testPatch: string;
  patch?: string;
  failToPass: string[];
  passToPass: string[];
  /** A SWE-rebench row's install_config: the per-instance spec that stands in for the harness's table. */
  installConfig?: unknown;
  /**
   * Files the harness downloads from GitHub while it writes the environment script, for the instances that need
   * them: the pinned environment.yml it ships for SWE-bench Verified instances, or the repository's requirements /
   * environment.yml at the environment setup commit. Without them those instances are refused with a sentence.
   */
  environmentFiles?: EnvironmentFiles;
};

export type EnvironmentFiles = {
  /** swebench/resources/swebench-og/<owner__repo>/<number>/environment.yml at the pinned commit */
  cachedEnvironmentYml?: string;
  /** the requirements text as the harness assembles it (get_requirements_by_commit: `-r` includes first) */
  requirementsTxt?: string;
  /** the repository's environment.yml at the environment setup commit, as downloaded */
  environmentYml?: string;
};

export type HarnessSpec = {
  baseDockerfile: string;
  envDockerfile: string;
  instanceDockerfile: string;
  setupEnvScript: string;
  installRepoScript: string;
  evalScript: string;
  testCommand: string;
  testDirectives: string[];
};

export type Refusal = { ok: false; reason: string };
