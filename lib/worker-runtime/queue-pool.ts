import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { isDatabaseUnavailable } from "../db/database-errors";

// graphile-worker marks a finished job done, or failed, without awaiting it (0.18's completeJob
// and failJob), and retries only a few error codes. A database restart at that moment left a
// rejection nobody handles, and that ends a Node process: the worker died although its job had
// finished. So the queue's pool waits for a connection while the database is away, and the
// job is marked done once the database is back. The worker's stop ends the wait.

const FIRST_WAIT_MS = 200;
const LONGEST_WAIT_MS = 5_000;

export type QueuePoolOptions = {
  connectionString: string;
  max: number;
  /** aborted when the worker stops: a connection asked for after that fails at once */
  stopping: AbortSignal;
  log(line: string): void;
};

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

class PoolThatWaitsOutOutages extends pg.Pool {
  private outage = false;

  constructor(private readonly queue: QueuePoolOptions) {
    super({ connectionString: queue.connectionString, max: queue.max });
  }

  connect(): Promise<pg.PoolClient>;
  connect(callback: ConnectCallback): void;
  connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (callback) return super.connect(callback);
    return this.connectOnceTheDatabaseAnswers();
  }

  private async connectOnceTheDatabaseAnswers(): Promise<pg.PoolClient> {
    for (let attempt = 0; ; attempt++) {
      try {
        const client = await super.connect();
        if (this.outage) this.queue.log("the queue's database answers again");
        this.outage = false;
        return client;
      } catch (error) {
        if (this.queue.stopping.aborted || this.ending || !isDatabaseUnavailable(error)) throw error;
        if (!this.outage) this.queue.log(`the queue's database is away (${(error as Error).message}): waiting for it`);
        this.outage = true;
        const wait = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 1.5 ** attempt);
        await sleep(wait, undefined, { signal: this.queue.stopping }).catch(() => undefined);
      }
    }
  }
}

/** The pool graphile-worker takes its connections from; a lost idle connection is logged, never thrown. */
export function createQueuePool(options: QueuePoolOptions): pg.Pool {
  const pool = new PoolThatWaitsOutOutages(options);
  const connectionLost = (error: Error) => options.log(`queue connection lost: ${error.message}`);
  pool.on("error", connectionLost);
  pool.on("connect", (client) => client.on("error", connectionLost));
  return pool;
}
