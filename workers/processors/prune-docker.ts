import type { Task } from "graphile-worker";
import { PRUNE_DOCKER } from "../../lib/worker-runtime/prune-job";
import { pruneDocker as prune } from "../../lib/worker-runtime/prune-docker";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const pruneDocker =
  (ctx: WorkerContext): Task =>
  async (payload, helpers) => {
    PRUNE_DOCKER.payload.parse(payload);
    const report = await prune({
      db: ctx.db,
      docker: ctx.docker,
      installation: ctx.installation,
      leaseMs: ctx.config.leaseMs,
      imageBudgetBytes: ctx.config.danglingImageBudgetBytes,
    });
    helpers.logger.info(
      `pruned ${report.removedContainers.length} containers, ${report.removedImages} images (${report.freedBytes} bytes)`,
    );
  };
