import { z } from "zod";

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Worker settings from the environment, validated once at start. */
export const WorkerConfigSchema = z.object({
  /** jobs one worker runs at once; npm start runs its worker beside the web server, so one by default */
  WORKER_CONCURRENCY: int(1),
  /** how often a running job renews its row's lease (and notices a cancel) */
  WORKER_HEARTBEAT_MS: int(1_000),
  /** a RUNNING row whose heartbeat is older than this belongs to a dead worker */
  WORKER_LEASE_MS: int(30_000),
  /** how many times a row is retried after its worker died before it is marked FAILED */
  WORKER_MAX_RUN_ATTEMPTS: int(2),
  /** a job that met an outage (database restarting, Docker engine away) runs again after this */
  WORKER_OUTAGE_RETRY_MS: int(5_000),
  /** a worker silent this long is removed from the list (it shows as gone after 30 s) */
  WORKER_FORGET_AFTER_MS: int(10 * 60_000),
  WORKER_PRUNE_INTERVAL_MS: int(10 * 60_000),
  CONTAINER_MEMORY_MB: int(2048),
  CONTAINER_CPUS: z.coerce.number().positive().default(1),
  CONTAINER_PIDS_LIMIT: int(512),
  CONTAINER_TIMEOUT_SECONDS: int(1800),
  BUILD_TIMEOUT_SECONDS: int(3600),
  /** each writable place of a validation container (work tree, /tmp) is a tmpfs of this size */
  CONTAINER_DISK_MB: int(1024),
  /** a build step whose writable layer grows past this is stopped */
  BUILD_DISK_MB: int(8192),
  /** stored log per run: the head and the tail are kept, the middle elided */
  RUN_LOG_CAP_BYTES: int(1024 * 1024),
  /** live log chunks per run, for the SSE view */
  LIVE_LOG_CAP_BYTES: int(2 * 1024 * 1024),
  DANGLING_IMAGE_BUDGET_MB: int(2048),
  /** the pool's image registry (host:port, or an http(s) URL): builds push there, workers lacking an image pull from it */
  REGISTRY_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? registryHostOf(value) : undefined)),
  /** this worker's engine, as the Jobs page names it; the machine's host name by default */
  WORKER_ENGINE_NAME: z.string().trim().min(1).optional(),
  /** memory this engine may give to containers at once; 90 % of what the engine has by default */
  WORKER_MEMORY_BUDGET_MB: z.coerce.number().int().positive().optional(),
});

/** `http://reg:5000/` or `reg:5000` → `reg:5000`, the form Docker names images with. */
export function registryHostOf(value: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(value) ? value : `http://${value}`;
  return new URL(withScheme).host;
}

export type WorkerConfigEnv = z.infer<typeof WorkerConfigSchema>;

export type WorkerConfig = {
  concurrency: number;
  heartbeatMs: number;
  leaseMs: number;
  maxRunAttempts: number;
  outageRetryMs: number;
  forgetWorkerAfterMs: number;
  pruneIntervalMs: number;
  limits: { memoryMb: number; cpus: number; pids: number; timeoutSeconds: number; diskMb: number };
  buildTimeoutSeconds: number;
  buildDiskMb: number;
  runLogCapBytes: number;
  liveLogCapBytes: number;
  danglingImageBudgetBytes: number;
  registryHost: string | null;
  engineName: string | null;
  memoryBudgetBytes: number | null;
};

export function workerConfigFromEnv(env: Record<string, string | undefined> = process.env): WorkerConfig {
  const parsed = WorkerConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Worker settings are not valid: ${problems}`);
  }
  const e = parsed.data;
  return {
    concurrency: e.WORKER_CONCURRENCY,
    heartbeatMs: e.WORKER_HEARTBEAT_MS,
    leaseMs: e.WORKER_LEASE_MS,
    maxRunAttempts: e.WORKER_MAX_RUN_ATTEMPTS,
    outageRetryMs: e.WORKER_OUTAGE_RETRY_MS,
    forgetWorkerAfterMs: e.WORKER_FORGET_AFTER_MS,
    pruneIntervalMs: e.WORKER_PRUNE_INTERVAL_MS,
    limits: { memoryMb: e.CONTAINER_MEMORY_MB, cpus: e.CONTAINER_CPUS, pids: e.CONTAINER_PIDS_LIMIT, timeoutSeconds: e.CONTAINER_TIMEOUT_SECONDS, diskMb: e.CONTAINER_DISK_MB },
    buildTimeoutSeconds: e.BUILD_TIMEOUT_SECONDS,
    buildDiskMb: e.BUILD_DISK_MB,
    runLogCapBytes: e.RUN_LOG_CAP_BYTES,
    liveLogCapBytes: e.LIVE_LOG_CAP_BYTES,
    danglingImageBudgetBytes: e.DANGLING_IMAGE_BUDGET_MB * 1024 * 1024,
    registryHost: e.REGISTRY_URL ?? null,
    engineName: e.WORKER_ENGINE_NAME ?? null,
    memoryBudgetBytes: e.WORKER_MEMORY_BUDGET_MB ? e.WORKER_MEMORY_BUDGET_MB * 1024 * 1024 : null,
  };
}
