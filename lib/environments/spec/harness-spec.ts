import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { baseDockerfile, baseImageKey, envDockerfile, envImageKey, instanceDockerfile } from "./dockerfiles";
import { environmentYmlFor, requirementsFor } from "./environment-files";
import { DEFAULT_DOCKER_SPECS, MAP_REPO_TO_ENV_YML_PATHS, MAP_REPO_TO_REQS_PATHS } from "./harness-data";
import { pyDictRepr, pyListRepr } from "./python-repr";
import { repoSpecFor, type TestableSpec } from "./repo-spec";
import { ENV_NAME, envScriptList, evalScriptList, repoScriptList, scriptOf, type EnvironmentSource } from "./scripts";
import { testDirectivesFor } from "./test-command";
import type { HarnessSpec, Refusal, SpecInstance } from "./types";
import { VERIFIED_ENVIRONMENT_YMLS_GZIP_BASE64 } from "./verified-environments";

/**
 * What SWE-bench's harness (make_test_spec at the pinned commit, arch x86_64) generates for an instance: the base,
 * env and instance Dockerfiles, the scripts they run, and the eval script.
 */
export function harnessSpecFor(instance: SpecInstance): { ok: true; spec: HarnessSpec } | Refusal {
  const lookup = repoSpecFor(instance);
  if (!lookup.ok) return lookup;
  const spec = lookup.spec;
  if (spec.python === undefined && pinnedEnvironmentYml(instance.instanceId) === undefined) {
    return {
      ok: false,
      reason: `Task ${instance.instanceId}: its spec names no Python version, so the environment cannot be created; add python to the row's install_config.`,
    };
  }
  const source = environmentSourceFor(instance, spec);
  if (!source.ok) return source;
  const dockerSpecs = dockerSpecsOf(spec);
  if (!dockerSpecs.ok) return { ok: false, reason: `Task ${instance.instanceId}: ${dockerSpecs.reason}` };
  const directives = testDirectivesFor(instance.repo, instance.testPatch);
  const testCommand = [spec.test_cmd, ...directives].join(" ");
  const envScripts = envScriptList(spec, source.source);
  const specsRepr = Object.keys(dockerSpecs.overrides).length > 0 ? pyDictRepr(dockerSpecs.overrides) : "";
  const baseKey = baseImageKey(specsRepr ? sha256(specsRepr).slice(0, 10) : null);
  return {
    ok: true,
    spec: {
      baseDockerfile: baseDockerfile({ ...DEFAULT_DOCKER_SPECS, ...dockerSpecs.overrides }),
      envDockerfile: envDockerfile(baseKey),
      instanceDockerfile: instanceDockerfile(envImageKey(sha256(pyListRepr(envScripts) + specsRepr).slice(0, 22))),
      setupEnvScript: scriptOf(true, envScripts),
      installRepoScript: scriptOf(true, repoScriptList(spec, instance.repo, instance.baseCommit)),
      evalScript: scriptOf(false, evalScriptList(spec, instance.baseCommit, instance.testPatch, testCommand)),
      testCommand,
      testDirectives: directives,
    },
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

let verifiedYmls: Readonly<Record<string, string>> | null = null;

/**
 * The environment.yml the harness pins for a SWE-bench Verified instance (load_cached_environment_yml: the id's
 * last "-" splits repository and number), or undefined for any other instance.
 */
function pinnedEnvironmentYml(instanceId: string): string | undefined {
  const cut = instanceId.lastIndexOf("-");
  if (cut < 0) return undefined;
  verifiedYmls ??= JSON.parse(
    gunzipSync(Buffer.from(VERIFIED_ENVIRONMENT_YMLS_GZIP_BASE64, "base64")).toString("utf8"),
  ) as Record<string, string>;
  const key = `${instanceId.slice(0, cut)}/${instanceId.slice(cut + 1)}`;
  return Object.hasOwn(verifiedYmls, key) ? verifiedYmls[key] : undefined;
}

type SourceLookup = { ok: true; source: EnvironmentSource } | Refusal;

function environmentSourceFor(instance: SpecInstance, spec: TestableSpec): SourceLookup {
  const pinnedYml = pinnedEnvironmentYml(instance.instanceId);
  if (pinnedYml !== undefined) return { ok: true, source: { kind: "cached-yml", yml: pinnedYml } };
  const repoFiles = instance.environmentFiles?.repoFiles ?? {};
  const config = instance.installConfig as { reqs_path?: unknown; env_yml_path?: unknown } | undefined;
  if (spec.packages === "requirements.txt") {
    const paths = stringList(config?.reqs_path) ?? MAP_REPO_TO_REQS_PATHS[instance.repo] ?? [];
    const found = requirementsFor(paths, repoFiles);
    return found.ok
      ? { ok: true, source: { kind: "requirements", requirements: found.text } }
      : missingFile(instance, "requirements file", paths);
  }
  if (spec.packages === "environment.yml") {
    const paths = stringList(config?.env_yml_path) ?? MAP_REPO_TO_ENV_YML_PATHS[instance.repo] ?? [];
    const found = environmentYmlFor(paths, repoFiles, ENV_NAME);
    return found.ok
      ? { ok: true, source: { kind: "environment-yml", yml: found.text } }
      : missingFile(instance, "environment.yml", paths);
  }
  return { ok: true, source: { kind: "inline" } };
}

function stringList(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

function missingFile(instance: SpecInstance, what: string, paths: readonly string[]): Refusal {
  const commit = instance.environmentSetupCommit ?? instance.baseCommit;
  const where = paths.length > 0 ? paths.join(" or ") : "(no path known for this repository)";
  return {
    ok: false,
    reason:
      `Task ${instance.instanceId}: the harness installs ${instance.repo} from its ${what} ${where} at commit ${commit.slice(0, 12)}, ` +
      "which it downloads from GitHub; supply the file as environmentFiles.repoFiles or use the dataset's published image.",
  };
}

type DockerSpecsLookup = { ok: true; overrides: Record<string, string | number> } | { ok: false; reason: string };

function dockerSpecsOf(spec: TestableSpec): DockerSpecsLookup {
  const raw = (spec as { docker_specs?: unknown }).docker_specs;
  if (raw === undefined) return { ok: true, overrides: {} };
  const valid =
    typeof raw === "object" &&
    raw !== null &&
    !Array.isArray(raw) &&
    Object.values(raw).every((value) => typeof value === "string" || Number.isInteger(value));
  return valid
    ? { ok: true, overrides: raw as Record<string, string | number> }
    : {
        ok: false,
        reason: "its docker_specs is not a map of names to strings or whole numbers; correct the row's install_config.",
      };
}
