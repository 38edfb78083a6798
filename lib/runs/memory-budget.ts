import type { WorkerContext } from "../worker-runtime/worker-context";

const MB = 1024 * 1024;
/** what an engine may give to containers at once when WORKER_MEMORY_BUDGET_MB is not set */
const DEFAULT_BUDGET_SHARE = 0.9;

// memory promised to containers this process is starting, before the engine lists them
const starting = new WeakMap<WorkerContext, number>();

export type MemoryGrant = { release(): void };

export type MemoryDecision = { granted: MemoryGrant } | { wait: string } | { never: string };

/**
 * Whether the engine has memory for one more container of this size: its budget minus the
 * limits of the containers running there and of those this worker is starting. A run that
 * does not fit waits for memory (it is requeued); one larger than the whole budget never fits.
 */
export async function reserveContainerMemory(ctx: WorkerContext, memoryMb: number): Promise<MemoryDecision> {
  const facts = await ctx.docker.facts();
  const budget = ctx.config.memoryBudgetBytes ?? Math.floor(facts.memoryBytes * DEFAULT_BUDGET_SHARE);
  const need = memoryMb * MB;
  const mb = (bytes: number) => Math.round(bytes / MB);
  if (need > budget) {
    return {
      never: `This run needs ${memoryMb} MB but the engine at ${ctx.docker.endpoint} may give containers ${mb(budget)} MB in all (WORKER_MEMORY_BUDGET_MB); lower the environment's memory limit or run it on a larger engine`,
    };
  }
  const promised = starting.get(ctx) ?? 0;
  const free = budget - facts.reservedMemoryBytes - promised;
  if (need > free) {
    return {
      wait: `The engine at ${ctx.docker.endpoint} has ${mb(Math.max(0, free))} MB of its ${mb(budget)} MB container budget free and this run needs ${memoryMb} MB; it waits for memory`,
    };
  }
  starting.set(ctx, promised + need);
  let released = false;
  return {
    granted: {
      release() {
        if (released) return;
        released = true;
        starting.set(ctx, (starting.get(ctx) ?? need) - need);
      },
    },
  };
}
