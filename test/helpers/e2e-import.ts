import type { APIRequestContext } from "playwright-core";
import { appUrl } from "./browser";

/**
 * Imports a file through POST /api/v1/imports as the signed-in context's user (the request
 * the imports page sends), then waits until a worker has imported it; throws unless it SUCCEEDED.
 */
export async function importThroughApi(request: APIRequestContext, name: string, text: string): Promise<void> {
  const started = await request.post(appUrl("/api/v1/imports"), {
    headers: { "x-file-name": encodeURIComponent(name), "content-type": "application/octet-stream" },
    data: Buffer.from(text),
  });
  if (started.status() !== 202)
    throw new Error(`the upload of ${name} answered ${started.status()}: ${await started.text()}`);
  const { id } = (await started.json()) as { id: string };
  // expect.poll works only inside a test; callers import in beforeAll too
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    const batch = (await (await request.get(appUrl(`/api/v1/imports/${id}`))).json()) as {
      status: string;
      errors?: unknown;
    };
    if (batch.status === "SUCCEEDED") return;
    // imports are queue jobs: QUEUED until a worker takes the batch
    if (batch.status !== "RUNNING" && batch.status !== "QUEUED")
      throw new Error(`the import of ${name} ended ${batch.status}: ${JSON.stringify(batch.errors)}`);
  }
  throw new Error(`the import of ${name} did not finish within a minute`);
}
