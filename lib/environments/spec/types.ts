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
   * Files the harness downloads from GitHub while it writes the environment script, for the specs that install from
   * the repository's requirements / environment.yml at the environment setup commit. Without them such an instance is
   * refused. (The environment.yml the harness pins for SWE-bench Verified instances ships with this module.)
   */
  environmentFiles?: EnvironmentFiles;
};

export type EnvironmentFiles = {
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
