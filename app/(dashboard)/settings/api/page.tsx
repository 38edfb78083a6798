import { ApiReference } from "@/components/api/api-reference";

export default function ApiReferencePage() {
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">API reference</h1>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Every <code>/api/v1</code> route, generated from the schemas the server validates with (<a className="underline" href="/api/v1/openapi.json">openapi.json</a>). Call it with{" "}
        <code>Authorization: Bearer swc_…</code> from <a className="underline" href="/settings/tokens">API tokens</a>.
      </p>
      <ApiReference />
    </>
  );
}
