import type { Task } from "graphile-worker";
import { executeBuild } from "../../lib/builds/execute-build";
import { BuildEnvironmentPayloadSchema } from "../../lib/jobs/job-payloads";
import type { WorkerContext } from "../../lib/worker-runtime/worker-context";

export const buildEnvironment =
  (ctx: WorkerContext): Task =>
  async (payload) => {
    const { buildId, noCache } = BuildEnvironmentPayloadSchema.parse(payload);
    await executeBuild(ctx, buildId, { noCache });
  };
