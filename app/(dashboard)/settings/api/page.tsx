import { pageActor } from "@/lib/auth/session";
import { apiOperations } from "@/lib/http/openapi";
import { openApiDocument } from "@/app/api/v1/api-routes";
import { ApiReference } from "@/components/api/api-reference";
import { ApiRouteIndex } from "@/components/api/api-route-index";

export default async function ApiReferencePage() {
  // the permission of GET /api/v1/openapi.json (tasks:read), whose document this page lists
  await pageActor();
  const operations = apiOperations(await openApiDocument());
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">API reference</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Every <code>/api/v1</code> route, generated from the schemas the server validates with (
        <a className="underline" href="/api/v1/openapi.json">
          openapi.json
        </a>
        ). Call it with <code>Authorization: Bearer swc_…</code> from{" "}
        <a className="underline" href="/settings/tokens">
          API tokens
        </a>
        .
      </p>
      <div className="flex flex-col gap-6">
        <ApiRouteIndex operations={operations} />
        <section aria-labelledby="api-schemas" className="flex flex-col gap-2">
          <h2 id="api-schemas" className="text-base font-semibold">
            Parameters, schemas and answers
          </h2>
          <ApiReference />
        </section>
      </div>
    </>
  );
}
