import { Link } from "@/components/ui/link";
import { pageContext, type PageContext } from "@/lib/http/page-context";
import { listTaskValidations } from "@/lib/runs/list-task-validations";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { ValidationPanel } from "@/components/validation/validation-panel";

export const metadata = { title: "Validation · SWE Curator" };

/** The task's validation groups as GET /api/v1/runs?taskId= reads them for the reader (a blind annotator gets none), so the first HTML shows them. */
async function validationPageData(taskId: string, { db, blind }: PageContext) {
  const validations = await unlessRefused(listTaskValidations(db, taskId, {}, blind));
  if (!validations) return [];
  return [[queryKeys.taskValidations(taskId), validations]] satisfies [readonly unknown[], unknown][];
}

/** A task's validation on its own page (the jobs page links here); the task page embeds the same panel. */
export default async function TaskValidationPage({ params }: { params: Promise<{ taskId: string }> }) {
  const { taskId } = await params;
  const page = await pageContext();
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <h1 className="text-xl font-semibold text-slate-900">Validation</h1>
        <Link className="text-sm text-blue-800 underline" href={`/tasks/${taskId}`}>
          Open the task
        </Link>
      </div>
      <Prefetched entries={await validationPageData(taskId, page)}>
        <ValidationPanel taskId={taskId} />
      </Prefetched>
    </div>
  );
}
