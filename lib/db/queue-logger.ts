import { Logger } from "graphile-worker";

/**
 * graphile-worker's logger, for its schema migrations (prepare-database.ts) and its workers:
 * its own chatter (every job start/finish) is noise next to our run logs; keep warnings and errors.
 */
export const queueLogger = new Logger(() => (level, message) => {
  if (level === "error") console.error(`[queue] ${message}`);
  else if (level === "warning") console.warn(`[queue] ${message}`);
});
