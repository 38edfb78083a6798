import {
  buildContextHash,
  ContextFilesSchema,
  defaultBuildArgs,
  imageTagFor,
  type BuildContext,
} from "../environments/build-context-hash";
import { configFrom, type EnvironmentSource } from "../config/server-config";

export type RevisionForBuild = {
  dockerfile: string;
  environment: { contextFiles: unknown; memoryMb: number | null; cpus?: number | null };
};

/** `network`: set only for a spec build on an engine allowed one (spec-build-context.ts); every other build has none. */
export type ResolvedBuildContext = BuildContext & { contextHash: string; tag: string; network?: string };

/** A revision's build context (its Dockerfile + the environment's bundled files), hash and image tag. */
export function revisionBuildContext(revision: RevisionForBuild, source?: EnvironmentSource): ResolvedBuildContext {
  const parsed = ContextFilesSchema.safeParse(revision.environment.contextFiles);
  if (!parsed.success) throw new Error("The environment's context files are not a map of path → text");
  const context: BuildContext = {
    dockerfile: revision.dockerfile,
    contextFiles: parsed.data,
    buildArgs: defaultBuildArgs(configFrom(source)),
  };
  const contextHash = buildContextHash(context);
  return { ...context, contextHash, tag: imageTagFor(contextHash) };
}
