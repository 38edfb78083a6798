import { pageContext, type PageContext } from "@/lib/http/page-context";
import { AppError } from "@/lib/errors/app-error";
import { taskListContext } from "@/lib/http/task-list-context";
import { toSearchParams } from "@/lib/http/search-params";
import { listTasks } from "@/lib/tasks/list-tasks";
import { taskFacets } from "@/lib/tasks/task-facets";
import { filtersFromSearchParams, filtersToSearchParams } from "@/lib/tasks/task-filters";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys, TASK_PAGE_SIZE } from "@/components/ui/query-keys";
import { TaskListPage } from "@/components/tasks/task-list-page";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The first page of rows and the facet counts for the URL's filters, read here so the list arrives with the page. */
async function taskListData({ db, actor }: PageContext, searchParams: Awaited<SearchParams>) {
  const parsed = (() => {
    try {
      return filtersFromSearchParams(toSearchParams(searchParams));
    } catch {
      return null; // a malformed URL: the client says what is wrong, from the API's answer
    }
  })();
  if (!parsed) return [];
  const queryString = filtersToSearchParams(parsed).toString();
  const context = await taskListContext(db, actor, parsed).catch((error: unknown) => {
    // a slice link that no longer resolves is said by the client, from the API's own answer
    if (error instanceof AppError && error.code === "BAD_REQUEST") return null;
    throw error;
  });
  if (!context) return [];
  const [page, facets] = await Promise.all([
    listTasks(db, { ...parsed, limit: TASK_PAGE_SIZE }, context),
    taskFacets(db, parsed, context),
  ]);
  return [
    [queryKeys.tasks(queryString), { pages: [page], pageParams: [null] }],
    [queryKeys.taskFacets(queryString), facets],
  ] satisfies [readonly unknown[], unknown][];
}

export default async function TasksPage({ searchParams }: { searchParams: SearchParams }) {
  const page = await pageContext();
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Tasks</h1>
      <Prefetched entries={await taskListData(page, await searchParams)}>
        <TaskListPage />
      </Prefetched>
    </>
  );
}
