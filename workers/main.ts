// `npm run worker`: a worker process pulling build and validation jobs from the database in
// DATABASE_URL, running them on the Docker engine at DOCKER_HOST (or the default socket).
// Start as many as you like, on as many machines: the database coordinates them. The
// database must already be prepared (npm start or npm run db:deploy does that).
import { ConfigError, serverConfig } from "../lib/config/server-config";
import { startWorkerRunner } from "./runner";

const connectionString = configuredDatabaseUrl();
if (!connectionString) {
  console.error(
    "DATABASE_URL is not set: point it at the SWE Curator database (npm start prints it), e.g. DATABASE_URL=postgresql://… npm run worker",
  );
  process.exit(2);
}

/** The database to work for, after every variable was checked: a bad one stops the worker with its sentence. */
function configuredDatabaseUrl(): string | undefined {
  try {
    return serverConfig().DATABASE_URL;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
}

const worker = await startWorkerRunner({ connectionString });

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void worker.stop().then(() => process.exit(0));
  });
}
