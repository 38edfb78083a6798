import { harnessSpecFor, specBuildRecipe } from "../environments/spec";
import { specInstanceOf, type SpecSource } from "../environments/spec-instance";
import type { WorkerContext } from "../worker-runtime/worker-context";
import { buildContextHash, imageTagFor } from "../environments/build-context-hash";
import { ImageSourceError } from "./ensure-published-image";
import type { ResolvedBuildContext } from "./revision-build-context";

// A SPEC environment's build: the multi-stage Dockerfile the harness's specs generate. Its steps
// install packages, so it builds only on an engine an admin named in SPEC_BUILD_NETWORK_ENGINES,
// with that network; every other build, and every validation container, stays network-none.

/** Whether this worker's engine may give spec builds a network. */
export function specBuildNetworkHere(ctx: Pick<WorkerContext, "config">): string | null {
  const { engines, mode } = ctx.config.specBuildNetwork;
  const here = ctx.config.engineName;
  return engines.includes("*") || (here !== null && engines.includes(here)) ? mode : null;
}

/** The build context of a task's SPEC environment, with the network its build may use. */
export function specBuildContext(ctx: Pick<WorkerContext, "config">, source: SpecSource): ResolvedBuildContext {
  const generated = harnessSpecFor(specInstanceOf(source));
  if (!generated.ok)
    throw new ImageSourceError(
      `Task ${source.instanceId} was not run: the harness spec cannot generate its environment (${generated.reason})`,
    );
  const network = specBuildNetworkHere(ctx);
  if (!network) {
    throw new ImageSourceError(
      `Task ${source.instanceId} was not run: its environment is generated from the harness spec, whose build installs packages, and this engine (${ctx.config.engineName ?? "unnamed"}) may not build with a network; an admin names it in SPEC_BUILD_NETWORK_ENGINES`,
    );
  }
  const recipe = specBuildRecipe(generated.spec);
  const context = { dockerfile: recipe.dockerfile, contextFiles: recipe.contextFiles, buildArgs: {} };
  const contextHash = buildContextHash(context);
  return { ...context, contextHash, tag: imageTagFor(contextHash), network };
}
