import { z } from "zod";
import { JOB_NAMES, type JobName } from "./job-names";

// One schema per job type: parsed when enqueued and again when a worker consumes it.
export const BuildEnvironmentPayloadSchema = z.object({
  buildId: z.string().min(1),
  /** rebuild every layer (the image exists but is suspected stale) */
  noCache: z.boolean().optional(),
});
export type BuildEnvironmentPayload = z.infer<typeof BuildEnvironmentPayloadSchema>;

export const ValidateTaskPayloadSchema = z.object({ runId: z.string().min(1) });
export type ValidateTaskPayload = z.infer<typeof ValidateTaskPayloadSchema>;

export const PruneDockerPayloadSchema = z.object({ requestedById: z.string().nullish() });
export type PruneDockerPayload = z.infer<typeof PruneDockerPayloadSchema>;

/** an uploaded file stored in import_upload_chunks, imported into its ImportBatch */
export const ImportFilePayloadSchema = z.object({ batchId: z.string().min(1) });
export type ImportFilePayload = z.infer<typeof ImportFilePayloadSchema>;

/** a trajectory replayed up to one step (lib/trajectories/replay) */
export const ReplayStepPayloadSchema = z.object({ replayId: z.string().min(1) });
export type ReplayStepPayload = z.infer<typeof ReplayStepPayloadSchema>;

export const JOB_PAYLOAD_SCHEMAS = {
  [JOB_NAMES.buildEnvironment]: BuildEnvironmentPayloadSchema,
  [JOB_NAMES.validateTask]: ValidateTaskPayloadSchema,
  [JOB_NAMES.pruneDocker]: PruneDockerPayloadSchema,
  [JOB_NAMES.importFile]: ImportFilePayloadSchema,
  [JOB_NAMES.replayStep]: ReplayStepPayloadSchema,
} satisfies Record<JobName, z.ZodType>;

export type JobPayload<N extends JobName> = z.infer<(typeof JOB_PAYLOAD_SCHEMAS)[N]>;
