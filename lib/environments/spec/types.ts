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
   * Files the harness reads while it writes the environment script, for the instances that need them: the pinned
   * environment.yml it ships for SWE-bench Verified instances, or the repository's requirements / environment.yml at
   * the environment setup commit (which it downloads from GitHub). Without them those instances are refused.
   */
  environmentFiles?: EnvironmentFiles;
};

export type EnvironmentFiles = {
  /** swebench/resources/swebench-og/<owner__repo>/<number>/environment.yml at the pinned commit (SWE-bench Verified) */
  cachedEnvironmentYml?: string;
  /** files of the repository at the environment setup commit, by path: the requirements or environment.yml the spec names */
  repoFiles?: Readonly<Record<string, string>>;
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
