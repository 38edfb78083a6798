// A stand-in web process for fault tests that kill and restart "the web server": the real
// route handlers of the run log and the export served over node:http on ROUTE_SERVER_PORT, in a process
// of its own (no Next build needed). Run with `node --import tsx test/helpers/route-server.ts`.
import http from "node:http";
import { Readable } from "node:stream";
import * as exportsRoute from "../../app/api/v1/exports/route";
import * as runLogRoute from "../../app/api/v1/runs/[id]/log/route";

const ROUTES: Array<[RegExp, (request: Request, context: { params: Promise<unknown> }) => Promise<Response>]> = [
  [/^\/api\/v1\/runs\/([^/]+)\/log$/, runLogRoute.GET],
  [/^\/api\/v1\/exports$/, exportsRoute.GET],
];

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
  const route = ROUTES.map(([pattern, handler]) => [pattern.exec(url.pathname), handler] as const).find(
    ([match]) => match,
  );
  if (!route) return void res.writeHead(404).end();
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const request = new Request(url, { headers: req.headers as Record<string, string>, signal: abort.signal });
  const response = await route[1](request, { params: Promise.resolve({ id: route[0]![1] }) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  Readable.fromWeb(response.body as import("node:stream/web").ReadableStream)
    .on("error", () => res.destroy())
    .pipe(res);
});
server.listen(Number(process.env.ROUTE_SERVER_PORT), "127.0.0.1", () => console.log("route server ready"));
