import type { ApiOperation } from "@/lib/http/openapi";

const METHOD_TONE: Record<string, string> = {
  GET: "text-blue-800",
  POST: "text-green-800",
  PUT: "text-amber-800",
  PATCH: "text-amber-800",
  DELETE: "text-red-800",
};

/**
 * Every /api/v1 operation with its summary and the role it needs, rendered on the server
 * from the OpenAPI document: the reference reads at once, while Swagger UI (schemas, Try it
 * out) loads below it.
 */
export function ApiRouteIndex({ operations }: { operations: ApiOperation[] }) {
  return (
    <section aria-labelledby="api-routes" className="flex flex-col gap-2">
      <h2 id="api-routes" className="text-base font-semibold">
        Routes ({operations.length})
      </h2>
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className="w-full text-left text-sm" data-testid="api-route-index">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Method
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Path
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                What it does
              </th>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Needs
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {operations.map((op) => (
              <tr key={`${op.method} ${op.path}`}>
                <td className={`px-2 py-1 font-mono text-xs font-semibold ${METHOD_TONE[op.method] ?? ""}`}>
                  {op.method}
                </td>
                <td className="px-2 py-1 font-mono text-xs">/api/v1{op.path}</td>
                <td className="px-2 py-1">{op.summary}</td>
                <td className="px-2 py-1 text-xs text-slate-600" title={op.permission}>
                  {op.role.toLowerCase()}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
