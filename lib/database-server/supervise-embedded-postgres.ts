import type { EmbeddedServer } from "./database-server";

export type SupervisorHooks = {
  log(line: string): void;
  /** the server keeps dying (or will not start again): the caller stops with this sentence */
  giveUp(reason: string): void;
};

export type RestartPolicy = { maxRestarts: number; withinMs: number; startAttempts?: number };

/**
 * Starts the server again, trying a few times: after a SIGKILL of the postmaster its
 * backends live on for a moment holding the old shared memory, and a start in that moment
 * is refused ("pre-existing shared memory block is still in use"); on a busy machine the
 * moment can last seconds.
 */
async function startAgain(start: () => Promise<EmbeddedServer>, attempts: number): Promise<EmbeddedServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
    }
  }
}

const DEFAULT_POLICY: RestartPolicy = { maxRestarts: 3, withinMs: 60_000 };

/**
 * Keeps `npm start`'s embedded PostgreSQL up: when its process exits on its own (killed,
 * crashed, out of memory) it is started again on the same folder and port, so the web
 * server and the worker reconnect by themselves. A server that dies maxRestarts times
 * within withinMs, or does not start, is given up on with a plain sentence.
 */
export function superviseEmbeddedPostgres(
  first: EmbeddedServer,
  start: () => Promise<EmbeddedServer>,
  hooks: SupervisorHooks,
  policy: RestartPolicy = DEFAULT_POLICY,
) {
  let current = first;
  let stopped = false;
  const restarts: number[] = [];

  const watch = (server: EmbeddedServer) => server.onUnexpectedExit((how) => void restart(how));
  const restart = async (how: string) => {
    if (stopped) return;
    const now = Date.now();
    while (restarts.length && now - restarts[0] > policy.withinMs) restarts.shift();
    if (restarts.length >= policy.maxRestarts) {
      hooks.giveUp(
        `The embedded PostgreSQL exited (${how}) ${restarts.length + 1} times within ${Math.round(policy.withinMs / 1000)} s; not restarting it again. Check the disk and memory of this machine, then start again.`,
      );
      return;
    }
    restarts.push(now);
    hooks.log(`the embedded PostgreSQL exited (${how}); starting it again`);
    try {
      current = await startAgain(start, policy.startAttempts ?? 5);
    } catch (error) {
      hooks.giveUp(`The embedded PostgreSQL exited (${how}) and did not start again: ${(error as Error).message}`);
      return;
    }
    if (stopped) return void (await current.stop());
    watch(current);
    hooks.log("the embedded PostgreSQL is back; the web server and the worker reconnect by themselves");
  };
  watch(first);

  return {
    async stop() {
      stopped = true;
      await current.stop();
    },
  };
}
