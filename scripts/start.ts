// `npm start` / `npm run dev`: runs scripts/start-app.ts (database, build, web server, worker)
// in a process group of its own and stops it in order on Ctrl-C. A Ctrl-C in a terminal reaches
// every process of the foreground group at once: the embedded PostgreSQL would begin its fast
// shutdown under a still-running worker and web server, whose connections then print 57P01
// errors. Kept apart, only this process and npm's get the signal, and start-app stops the web
// server, then the worker, then the database. npm forwards its own SIGINT/SIGTERM here too, so
// stopping npm's process alone stops everything as well.
import { spawn } from "node:child_process";
import path from "node:path";

/** start-app stops within seconds; past this something hangs, and the whole group is killed. */
const FORCED_STOP_AFTER_MS = 30_000;

const app = spawn(
  process.execPath,
  [...process.execArgv, path.join(import.meta.dirname, "start-app.ts"), ...process.argv.slice(2)],
  {
    detached: true,
    // the IPC channel closes when this process dies, however it dies: start-app then stops too
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  },
);

let stopRequested = false;
function stop() {
  // npm forwards the terminal's Ctrl-C, which this process also received: one stop is enough
  if (stopRequested) return;
  stopRequested = true;
  app.kill("SIGTERM");
  setTimeout(() => {
    console.error(`[start] still stopping after ${FORCED_STOP_AFTER_MS / 1000} s; killing it`);
    if (app.pid) process.kill(-app.pid, "SIGKILL");
  }, FORCED_STOP_AFTER_MS).unref();
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
app.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
