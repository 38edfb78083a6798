import { ApiTokens } from "@/components/admin/api-tokens";

export default function TokensPage() {
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">API tokens</h1>
      <p className="mb-4 max-w-2xl text-sm text-slate-600">
        Tokens let the CLI and scripts call <code>/api/v1</code> as you (<code>Authorization: Bearer …</code>). A token is shown once; only its hash is stored.
      </p>
      <ApiTokens />
    </>
  );
}
