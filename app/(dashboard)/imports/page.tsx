import { pageContext } from "@/lib/http/page-context";
import { listImportBatches } from "@/lib/imports/import-batches";
import { Prefetched } from "@/components/ui/prefetched";
import { IMPORT_HISTORY_SIZE, queryKeys } from "@/components/ui/query-keys";
import { ImportsPage } from "@/components/imports/imports-page";

export default async function Page() {
  // the route's permission (tasks:read), and no reader-specific filter: the API answers the same to every reader who has it
  const { db } = await pageContext();
  // the history as GET /api/v1/imports reads it, so the first HTML shows it; the client polls it while an import runs
  const history = await listImportBatches(db, { limit: IMPORT_HISTORY_SIZE });
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Imports and exports</h1>
      <Prefetched entries={[[queryKeys.imports(), history]]}>
        <ImportsPage />
      </Prefetched>
    </>
  );
}
