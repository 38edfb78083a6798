import { z } from "zod";

// Every environment variable the product reads, in one schema: its type, its default and
// the sentence an operator gets when a value is wrong. Everything else reads configuration
// through serverConfig() (the lint rule `no-restricted-properties` forbids process.env
// elsewhere); README.md's configuration table is checked against this list by
// test/unit/server-config.test.ts.

/** What a value must be, as the end of the sentence "NAME is "x": it must be …". */
const wholeNumber = (fallback: number) =>
  z.coerce
    .number({ error: "a whole number" })
    .int({ error: "a whole number" })
    .positive({ error: "a whole number above 0" })
    .default(fallback);
const positiveNumber = (fallback: number) =>
  z.coerce.number({ error: "a number" }).positive({ error: "a number above 0" }).default(fallback);
const port = (fallback: number) =>
  z.coerce
    .number({ error: "a port number" })
    .int({ error: "a port number" })
    .min(0, { error: "a port number from 0 (any free port) to 65535" })
    .max(65535, { error: "a port number from 0 (any free port) to 65535" })
    .default(fallback);
const text = () => z.string().optional();
const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: "an http(s) URL such as https://curator.example" }).optional();
const OFF = ["0", "false", "no", "off"];
const ON = ["1", "true", "yes", "on"];
const onOff = (fallback: boolean) =>
  z
    .enum([...OFF, ...ON], { error: 'either "0" (off) or "1" (on)' })
    .transform((value) => ON.includes(value))
    .default(fallback);

/** A comma-separated list whose every item matches `item`; unset stays undefined. */
const commaList = (item: RegExp, error: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every((entry) => item.test(entry)), { error })
    .optional();

export const ServerConfigSchema = z.object({
  // the database
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, {
      error: "a PostgreSQL URL such as postgresql://user:password@host:5432/swe_curator",
    })
    .optional(),
  DB_POOL_SIZE: wholeNumber(10),
  EMBEDDED_PG_DATA: text(),
  EMBEDDED_PG_PORT: port(54329),
  EMBEDDED_PG_FSYNC: z.enum(["on", "off"], { error: 'either "on" or "off"' }).default("on"),
  // the web server and sign-in
  PORT: port(3000),
  HOST: z.string().default("0.0.0.0"),
  /**
   * gzip from the web server itself. Off by default: Next compresses each answer through an
   * asynchronous zlib stream, which adds ~4 ms to a 30 KB task-list page (npm run
   * bench:browse) while a LAN sends it in a fraction of that; behind a TLS proxy, the proxy
   * compresses. On for a server reached straight over a slow link.
   */
  HTTP_COMPRESSION: onOff(false),
  NEXTAUTH_URL: httpUrl(),
  NEXTAUTH_SECRET: text(),
  SWE_CURATOR_DATA_DIR: text(),
  ADMIN_EMAIL: z.email({ error: "an e-mail address" }).default("admin@swe-curator.local"),
  ADMIN_PASSWORD: text(),
  DEMO_PASSWORD: text(),
  SEED_DEMO: onOff(true),
  START_WORKER: onOff(true),
  OIDC_ISSUER: httpUrl(),
  OIDC_CLIENT_ID: text(),
  OIDC_CLIENT_SECRET: text(),
  OIDC_NAME: z.string().default("Single sign-on"),
  OIDC_ALLOWED_DOMAINS: text(),
  /**
   * The web server is behind a reverse proxy that sets X-Forwarded-For: only then is the
   * header's last entry the client's address (the sign-in throttle's per-address limit).
   * Off, anyone could write the header, so it is not read and only the per-account limit holds.
   */
  TRUST_PROXY: onOff(false),
  LIVE_LOG_STREAMS_PER_USER: wholeNumber(8),
  // Docker
  DOCKER_HOST: z
    .string()
    .regex(/^[a-z][a-z+]*:\/\//, { error: "a Docker endpoint such as unix:///var/run/docker.sock or tcp://host:2375" })
    .optional(),
  BASE_IMAGE: text(),
  SWE_CURATOR_CGROUP_ROOT: z.string().default("/sys/fs/cgroup"),
  // the worker
  /** jobs one worker runs at once; npm start runs its worker beside the web server, so one by default */
  WORKER_CONCURRENCY: wholeNumber(1),
  /** how often a running job renews its row's lease (and notices a cancel) */
  WORKER_HEARTBEAT_MS: wholeNumber(1_000),
  /** a RUNNING row whose heartbeat is older than this belongs to a dead worker */
  WORKER_LEASE_MS: wholeNumber(30_000),
  /** how many times a row is retried after its worker died before it is marked FAILED */
  WORKER_MAX_RUN_ATTEMPTS: wholeNumber(2),
  /** a job that met an outage (database restarting, Docker engine away) runs again after this */
  WORKER_OUTAGE_RETRY_MS: wholeNumber(5_000),
  /** a worker silent this long is removed from the list (it shows as gone after 30 s) */
  WORKER_FORGET_AFTER_MS: wholeNumber(10 * 60_000),
  WORKER_PRUNE_INTERVAL_MS: wholeNumber(10 * 60_000),
  CONTAINER_MEMORY_MB: wholeNumber(2048),
  CONTAINER_CPUS: positiveNumber(1),
  CONTAINER_PIDS_LIMIT: wholeNumber(512),
  CONTAINER_TIMEOUT_SECONDS: wholeNumber(1800),
  BUILD_TIMEOUT_SECONDS: wholeNumber(3600),
  /** each writable place of a validation container (work tree, /tmp) is a tmpfs of this size */
  CONTAINER_DISK_MB: wholeNumber(1024),
  /** a build step whose writable layer grows past this is stopped */
  BUILD_DISK_MB: wholeNumber(8192),
  /** stored log per run: the head and the tail are kept, the middle elided */
  RUN_LOG_CAP_BYTES: wholeNumber(1024 * 1024),
  /** live log chunks per run, for the SSE view */
  LIVE_LOG_CAP_BYTES: wholeNumber(2 * 1024 * 1024),
  DANGLING_IMAGE_BUDGET_MB: wholeNumber(2048),
  // a pool of engines
  /** the pool's image registry (host:port or an http(s) URL): builds push there, a worker lacking an image pulls it */
  REGISTRY_URL: z
    .string()
    .trim()
    .regex(/^(https?:\/\/)?[\w.-]+(:\d+)?\/?$/, {
      error: "a registry address such as 127.0.0.1:5000 or http://registry.internal:5000",
    })
    .transform((value) => new URL(/^https?:\/\//.test(value) ? value : `http://${value}`).host)
    .optional(),
  /** this worker's engine as the Jobs page names it; the machine's host name by default */
  WORKER_ENGINE_NAME: text(),
  /** memory the engine may give to containers at once; 90 % of what the engine has by default */
  WORKER_MEMORY_BUDGET_MB: z.coerce
    .number({ error: "a whole number" })
    .int({ error: "a whole number" })
    .positive({ error: "a whole number above 0" })
    .optional(),
  // environment sources (README "Environment sources")
  /**
   * registries published images may be pulled from, comma-separated: `host`, or `host=mirror`
   * to pull that registry's images from a mirror (e.g. `docker.io=registry.internal:5000`);
   * Docker Hub is `docker.io`. Unset: no published image is ever pulled
   */
  IMAGE_REGISTRIES: commaList(
    /^[\w.-]+(?::\d+)?(?:=[\w.-]+(?::\d+)?)?$/,
    "a comma-separated list of registry hosts, each optionally =mirror, such as docker.io=127.0.0.1:5000,ghcr.io",
  ),
  /** credentials for allowed registries, comma-separated `host=user:password`; kept out of logs and API answers */
  IMAGE_REGISTRY_CREDENTIALS: commaList(
    /^[\w.-]+(?::\d+)?=[^:,\s]+:\S+$/,
    "a comma-separated list of host=user:password",
  ),
  /** engines (WORKER_ENGINE_NAME, comma-separated, or `*`) whose spec builds may use a network to install packages; unset: none */
  SPEC_BUILD_NETWORK_ENGINES: text(),
  /** the Docker network those spec builds use */
  SPEC_BUILD_NETWORK_MODE: z
    .string()
    .trim()
    .regex(/^[\w.-]+$/, { error: "a Docker network name such as bridge" })
    .default("bridge"),
  // uploads and archives
  /** the largest upload accepted (the body is refused with 413 as soon as it passes this) */
  SWE_CURATOR_MAX_UPLOAD_BYTES: wholeNumber(20 * 1024 ** 3),
  SWE_CURATOR_ARCHIVE_MAX_BYTES: wholeNumber(2 * 1024 ** 3),
  SWE_CURATOR_ARCHIVE_MAX_ENTRIES: wholeNumber(100_000),
  SWE_CURATOR_ARCHIVE_MAX_RATIO: wholeNumber(200),
  // the CLI
  SWE_CURATOR_URL: text(),
  SWE_CURATOR_TOKEN: text(),
  /**
   * the CLI's heap cap in MB: bin/swe-curator.mjs (a plain Node launcher, which cannot load this
   * TypeScript) reads it to start the CLI with --max-old-space-size; declared here to be checked and documented
   */
  SWE_CURATOR_MAX_HEAP_MB: wholeNumber(224),
  // set by the platform, not by an operator
  NODE_ENV: text(),
  TERM: text(),
});

export type ServerConfig = z.output<typeof ServerConfigSchema>;
export type EnvironmentSource = Record<string, string | undefined>;

/** Variables the platform sets (Node, Next.js, the terminal): read here, not documented as ours. */
export const PLATFORM_VARIABLES: ReadonlySet<string> = new Set(["NODE_ENV", "TERM"]);
export const CONFIG_VARIABLES = Object.keys(ServerConfigSchema.shape) as (keyof ServerConfig)[];

/** A bad value, said as one sentence per variable: which one, what it is, what it must be. */
export class ConfigError extends Error {
  readonly code = "CONFIG_INVALID";
}

// An empty value is an unset one (a compose file's `FOO=` means "no FOO"), so defaults apply.
function presentValues(source: EnvironmentSource): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = source[name];
    if (value !== undefined && value !== "") values[name] = value;
  }
  return values;
}

function sentenceFor(issue: z.core.$ZodIssue, values: Record<string, string>): string {
  const name = String(issue.path[0]);
  // our own fragments are short phrases; anything else from the library is replaced by a neutral one
  const expected =
    /^[a-z"]/.test(issue.message) && !/^(invalid|expected)/i.test(issue.message) ? issue.message : "a valid value";
  const shown = /SECRET|PASSWORD|TOKEN|CREDENTIALS/.test(name)
    ? "set to a value"
    : `"${values[name].replace(/(\/\/[^:/@]*:)[^@/]*@/, "$1***@")}"`;
  return `${name} is ${shown}, but it must be ${expected}: fix it in the environment (or unset it for the default) and start again.`;
}

/** Parses a set of variables (the process's, or a test's) into the typed configuration, or throws a ConfigError. */
export function readServerConfig(source: EnvironmentSource): ServerConfig {
  const values = presentValues(source);
  const parsed = ServerConfigSchema.safeParse(values);
  if (parsed.success) return parsed.data;
  const sentences = [...new Set(parsed.error.issues.map((issue) => sentenceFor(issue, values)))];
  throw new ConfigError(sentences.join("\n"));
}

let cached: { key: string; config: ServerConfig } | undefined;

/**
 * The process's configuration. Read at start (npm start, the worker and the CLI call it first,
 * so a bad value stops them with its sentence); read again only when a variable changed —
 * `npm start` and the tests set some after modules have loaded.
 */
export function serverConfig(): ServerConfig {
  const key = CONFIG_VARIABLES.map((name) => process.env[name] ?? "\u0000").join("\u0001");
  if (cached?.key !== key) cached = { key, config: readServerConfig(process.env) };
  return cached.config;
}

/** Behind https, cookies are Secure and get __Secure- names; the CSP upgrades requests. */
export const servedOverHttps = (config: ServerConfig = serverConfig()) =>
  config.NEXTAUTH_URL?.startsWith("https://") ?? false;

/** A test's own variables when given, else the process's configuration. */
export const configFrom = (source?: EnvironmentSource): ServerConfig =>
  source ? readServerConfig(source) : serverConfig();
