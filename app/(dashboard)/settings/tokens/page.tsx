import { pageContext } from "@/lib/http/page-context";
import { listAllOwnApiTokens } from "@/lib/auth/manage-api-tokens";
import { Prefetched } from "@/components/ui/prefetched";
import { queryKeys } from "@/components/ui/query-keys";
import { ApiTokens } from "@/components/admin/api-tokens";

export default async function TokensPage() {
  // the route's permission (tokens:manage); GET /api/v1/tokens lists the caller's own tokens, and so does this page
  const { db, actor } = await pageContext("tokens:manage");
  const tokens = await listAllOwnApiTokens(db, actor);
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">API tokens</h1>
      <p className="mb-4 max-w-2xl text-sm text-slate-600">
        Tokens let the CLI and scripts call <code>/api/v1</code> as you (<code>Authorization: Bearer …</code>). A token
        is shown once; only its hash is stored.
      </p>
      <Prefetched entries={[[queryKeys.tokens(), tokens]]}>
        <ApiTokens />
      </Prefetched>
    </>
  );
}
