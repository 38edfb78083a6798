// `npm run db:deploy`: applies pending migrations (and the queue's schema) to DATABASE_URL,
// or to the embedded database when it is unset — what `npm start` does before serving.
import { withDatabase } from "../lib/database-server/database-server";
import { prepareDatabase } from "../lib/db/prepare-database";

await withDatabase(async ({ url, embedded }) => {
  const { applied } = await prepareDatabase(url);
  console.log(
    `${embedded ? "embedded database" : "DATABASE_URL"}: ${applied.length ? `applied ${applied.join(", ")}` : "already up to date"}`,
  );
});
