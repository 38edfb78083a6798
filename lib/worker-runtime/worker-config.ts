import { configFrom, type EnvironmentSource } from "../config/server-config";
import { allowedRegistries, type AllowedRegistry } from "../environments/image-reference";

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
  /** the pool's registry as Docker names it (host:port), or null: each engine builds for itself */
  registryHost: string | null;
  engineName: string | null;
  memoryBudgetBytes: number | null;
  /** registries published images may be pulled from (IMAGE_REGISTRIES), with where from and the credentials */
  imageRegistries: AllowedRegistry[];
  /** engine names whose spec builds may use a network (SPEC_BUILD_NETWORK_ENGINES; "*" any), and which network */
  specBuildNetwork: { engines: string[]; mode: string };
};

/** The worker's settings from the configuration (lib/config/server-config.ts), or from a test's own variables. */
export function workerConfigFromEnv(source?: EnvironmentSource): WorkerConfig {
  const e = configFrom(source);
  return {
    concurrency: e.WORKER_CONCURRENCY,
    heartbeatMs: e.WORKER_HEARTBEAT_MS,
    leaseMs: e.WORKER_LEASE_MS,
    maxRunAttempts: e.WORKER_MAX_RUN_ATTEMPTS,
    outageRetryMs: e.WORKER_OUTAGE_RETRY_MS,
    forgetWorkerAfterMs: e.WORKER_FORGET_AFTER_MS,
    pruneIntervalMs: e.WORKER_PRUNE_INTERVAL_MS,
    limits: {
      memoryMb: e.CONTAINER_MEMORY_MB,
      cpus: e.CONTAINER_CPUS,
      pids: e.CONTAINER_PIDS_LIMIT,
      timeoutSeconds: e.CONTAINER_TIMEOUT_SECONDS,
      diskMb: e.CONTAINER_DISK_MB,
    },
    buildTimeoutSeconds: e.BUILD_TIMEOUT_SECONDS,
    buildDiskMb: e.BUILD_DISK_MB,
    runLogCapBytes: e.RUN_LOG_CAP_BYTES,
    liveLogCapBytes: e.LIVE_LOG_CAP_BYTES,
    danglingImageBudgetBytes: e.DANGLING_IMAGE_BUDGET_MB * 1024 * 1024,
    registryHost: e.REGISTRY_URL ?? null,
    engineName: e.WORKER_ENGINE_NAME ?? null,
    memoryBudgetBytes: e.WORKER_MEMORY_BUDGET_MB ? e.WORKER_MEMORY_BUDGET_MB * 1024 * 1024 : null,
    imageRegistries: [...allowedRegistries(e).values()],
    specBuildNetwork: {
      engines: (e.SPEC_BUILD_NETWORK_ENGINES ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
      mode: e.SPEC_BUILD_NETWORK_MODE,
    },
  };
}
