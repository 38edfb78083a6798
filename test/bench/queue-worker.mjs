// One process of `npm run bench:queue`: a graphile-worker runner with the options the
// product's worker uses, whose only task sleeps. Plain JavaScript so that 64 of these
// start in seconds. Prints one JSON line per job: when its handler started and ended.
import { Logger, run } from "graphile-worker";

const [connectionString, sleepMsText] = process.argv.slice(2);
const sleepMs = Number(sleepMsText);
const runner = await run({
  connectionString,
  concurrency: 1,
  noHandleSignals: true,
  pollInterval: 1_000,
  logger: new Logger(() => () => {}),
  taskList: {
    "bench-sleep": async () => {
      const startedAt = performance.timeOrigin + performance.now();
      await new Promise((resolve) => setTimeout(resolve, sleepMs));
      process.stdout.write(`${JSON.stringify({ startedAt, endedAt: performance.timeOrigin + performance.now() })}\n`);
    },
  },
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.on("SIGTERM", () => void runner.stop().then(() => process.exit(0)));
