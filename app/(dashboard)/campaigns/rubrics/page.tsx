import { pageContext } from "@/lib/http/page-context";
import { listRubrics } from "@/lib/campaigns/rubrics";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { RubricEditor } from "@/components/campaigns/rubric-editor";

export default async function RubricsPage() {
  const { db } = await pageContext("campaigns:manage");
  // every rubric, as the client gathers them from GET /api/v1/campaigns/rubrics page by page
  const rubrics = await listRubrics(db);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Rubrics</h1>
      <Prefetched entries={[[queryKeys.rubrics(), rubrics]]}>
        <RubricEditor />
      </Prefetched>
    </div>
  );
}
