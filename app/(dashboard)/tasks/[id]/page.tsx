import { pageContext, type PageContext } from "@/lib/http/page-context";
import { getTaskDetail } from "@/lib/curation/get-task-detail";
import { taskHistory } from "@/lib/tasks/task-history";
import { listTaskValidations } from "@/lib/runs/list-task-validations";
import { taskEvidenceMatrix } from "@/lib/runs/evidence-matrix";
import { Prefetched, unlessRefused } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { TaskDetail } from "@/components/tasks/task-detail";

/**
 * The task, its validations, its history and its evidence per test as the reader may see them
 * (their blind set), read here so the first HTML shows them; the client keeps them fresh. A
 * reader blind to the verdict gets no evidence: the page does not show it to them.
 */
async function taskPageData(id: string, { db, blind }: PageContext) {
  const task = await unlessRefused(getTaskDetail(db, id, blind));
  if (!task) return [];
  const [validations, history, evidence] = await Promise.all([
    listTaskValidations(db, task.id, {}, blind),
    taskHistory(db, task.id, blind),
    unlessRefused(taskEvidenceMatrix(db, task.id, blind)),
  ]);
  const entries: [readonly unknown[], unknown][] = [
    [queryKeys.task(id), task],
    [queryKeys.taskValidations(task.id), validations],
    [queryKeys.taskHistory(task.id, task.version), history],
  ];
  if (evidence) entries.push([queryKeys.taskEvidence(task.id), evidence]);
  return entries;
}

export default async function TaskPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const page = await pageContext();
  return (
    <Prefetched entries={await taskPageData(id, page)}>
      <TaskDetail taskId={id} />
    </Prefetched>
  );
}
