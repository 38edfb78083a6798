// A stand-in for the web process in restart tests: it serves POST /upload?fileName=… with
// the same domain call the /api/v1/imports route makes (store the body, enqueue the import),
// so a test can SIGKILL it mid-upload or right after its 202. Prints "listening <port>".
import http from "node:http";
import { Readable } from "node:stream";
import { createPrismaClient } from "../../lib/db/client";
import { startUploadImport } from "../../lib/imports/upload-import";

const db = createPrismaClient(process.env.DATABASE_URL!, 3);
const server = http.createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  try {
    const body = Readable.toWeb(request) as ReadableStream<Uint8Array>;
    const batch = await startUploadImport(db, body, {
      fileName: url.searchParams.get("fileName") ?? "upload",
      actorId: null,
    });
    response
      .writeHead(202, { "content-type": "application/json" })
      .end(JSON.stringify({ id: batch.id, status: batch.status }));
  } catch (error) {
    response.writeHead(400).end((error as Error).message);
  }
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as { port: number }).port}`));
