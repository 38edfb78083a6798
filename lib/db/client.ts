import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { serverConfig } from "../config/server-config";

export { Prisma } from "./generated/client";
export type {
  User,
  Account,
  Session,
  VerificationToken,
  ApiToken,
  Repository,
  Environment,
  EnvironmentRevision,
  Task,
  CandidatePatch,
  Build,
  ValidationRun,
  TestResult,
  LogChunk,
  WorkerHeartbeat,
  Trajectory,
  TrajectoryStep,
  CurationDecision,
  SavedView,
  ImportBatch,
  AuditEvent,
  Setting,
} from "./generated/client";
export * from "./generated/enums";
export { PrismaClient };

// A database that stops answering must turn into an error a caller can report (503, retry
// later), not a request that waits for ever for a connection.
const CONNECT_TIMEOUT_MS = 10_000;

export function createPrismaClient(connectionString: string, poolSize = serverConfig().DB_POOL_SIZE) {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS }),
    // Prisma's defaults (2 s to get a connection, 5 s to finish) failed a burst of validation requests on a
    // loaded machine with "Unable to start a transaction": a transaction waits for a pooled connection as
    // long as a plain query does, and a short one may take a few times longer than usual before it is cut off
    transactionOptions: { maxWait: CONNECT_TIMEOUT_MS, timeout: 4 * CONNECT_TIMEOUT_MS },
  });
}

// One client per process: Next.js dev reloads modules, so it is parked on globalThis.
const globalForPrisma = globalThis as unknown as { sweCuratorPrisma?: PrismaClient };

function databaseUrl(): string {
  const url = serverConfig().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the product with `npm start`, which provides one");
  return url;
}

/** The process-wide Prisma client, created on first use from DATABASE_URL. */
export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    globalForPrisma.sweCuratorPrisma ??= createPrismaClient(databaseUrl());
    const value = Reflect.get(globalForPrisma.sweCuratorPrisma, property);
    return typeof value === "function" ? value.bind(globalForPrisma.sweCuratorPrisma) : value;
  },
});

/** Closes the process-wide client if one was ever opened (opening one just to close it wastes a pool). */
export async function disconnectSharedPrisma() {
  const client = globalForPrisma.sweCuratorPrisma;
  globalForPrisma.sweCuratorPrisma = undefined;
  await client?.$disconnect();
}

export type Db = PrismaClient | Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
