import { pageContext, type PageContext } from "@/lib/http/page-context";
import { environmentListQueryString } from "@/lib/environments/environment-query";
import { EnvironmentListQuerySchema, listEnvironments } from "@/lib/environments/list-environments";
import { queryRecord, toSearchParams } from "@/lib/http/search-params";
import { Prefetched } from "@/components/ui/prefetched";
import { ENVIRONMENT_PAGE_SIZE, queryKeys } from "@/components/ui/query-keys";
import { EnvironmentList } from "@/components/environments/environment-list";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The first page of environments for the URL's filters, read as GET /api/v1/environments reads it, so the list arrives with the page. */
async function environmentListData({ db }: PageContext, searchParams: Awaited<SearchParams>) {
  const queryString = environmentListQueryString(toSearchParams(searchParams));
  const parsed = EnvironmentListQuerySchema.safeParse({
    ...queryRecord(new URLSearchParams(queryString)),
    limit: ENVIRONMENT_PAGE_SIZE,
  });
  if (!parsed.success) return []; // a malformed URL: the client says what is wrong, from the API's answer
  const page = await listEnvironments(db, parsed.data);
  return [[queryKeys.environments(queryString), { pages: [page], pageParams: [null] }]] satisfies [
    readonly unknown[],
    unknown,
  ][];
}

export default async function EnvironmentsPage({ searchParams }: { searchParams: SearchParams }) {
  // the route's permission (tasks:read), and no reader-specific filter: the API answers the same to every reader who has it
  const page = await pageContext();
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Environments</h1>
      <Prefetched entries={await environmentListData(page, await searchParams)}>
        <EnvironmentList />
      </Prefetched>
    </>
  );
}
