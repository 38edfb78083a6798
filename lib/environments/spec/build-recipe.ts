import type { HarnessSpec } from "./types";

export type SpecBuildRecipe = { dockerfile: string; contextFiles: Record<string, string> };

/**
 * One multi-stage Dockerfile that builds what the harness builds as three images: stage `base` is the base
 * Dockerfile, `env` the env Dockerfile FROM base, `instance` the instance Dockerfile FROM env (the last stage, so a
 * plain build yields the instance). Each stage's text is the harness's own but for its FROM line, which also drops
 * the harness's --platform=linux/x86_64: builds use the engine's own platform (the build policy refuses the flag),
 * so the recipe is for x86_64 engines, as the harness's x86_64 specs are.
 */
export function specBuildRecipe(spec: HarnessSpec): SpecBuildRecipe {
  const stages = [
    stage(spec.baseDockerfile, (from) => `FROM ${from.trim().split(/\s+/).at(-1)} AS base`),
    stage(spec.envDockerfile, () => "FROM base AS env"),
    stage(spec.instanceDockerfile, () => "FROM env AS instance"),
  ];
  return {
    dockerfile: stages.map((text) => text.trim()).join("\n\n") + "\n",
    contextFiles: { "setup_env.sh": spec.setupEnvScript, "setup_repo.sh": spec.installRepoScript },
  };
}

function stage(dockerfile: string, rewriteFrom: (fromLine: string) => string): string {
  const lines = dockerfile.split("\n");
  const fromIndexes = lines.flatMap((line, index) => (/^FROM\s/i.test(line) ? [index] : []));
  if (fromIndexes.length !== 1)
    throw new Error(`A harness Dockerfile has ${fromIndexes.length} FROM lines; expected exactly one.`);
  lines[fromIndexes[0]] = rewriteFrom(lines[fromIndexes[0]]);
  return lines.join("\n");
}
