import type { Task } from "graphile-worker";
import { executeBuild } from "../../lib/builds/execute-build";
import { BUILD_ENVIRONMENT } from "../../lib/builds/build-job";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const buildEnvironment =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { buildId, noCache } = BUILD_ENVIRONMENT.payload.parse(payload);
    await executeBuild(ctx, buildId, { noCache });
  };
