import http from "node:http";
import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import { loadApiRoutes } from "../../app/api/v1/api-routes";

// A plain node:http server in front of the real /api/v1 route handlers (the same functions
// Next calls), so a test can drive a separate client process over real HTTP without building
// the whole app. Routing is by the OpenAPI path templates.

export async function startApiServer(): Promise<{ url: string; close(): Promise<void> }> {
  const table = await loadApiRoutes();
  const matchers = Object.entries(table).map(([template, methods]) => ({
    methods,
    names: [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
    pattern: new RegExp(`^/api/v1${template.replace(/\{\w+\}/g, "([^/]+)")}$`),
  }));
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const route = matchers.map((m) => ({ m, hit: m.pattern.exec(url.pathname) })).find((x) => x.hit);
      const handler = route?.m.methods[req.method as "GET"];
      if (!route || !handler) return void res.writeHead(404).end();
      const params = Object.fromEntries(route.m.names.map((name, i) => [name, decodeURIComponent(route.hit![i + 1])]));
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) =>
          v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v] as [string, string]],
        ),
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        duplex: "half",
      } as RequestInit);
      const response = await handler(request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body)
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
      res.end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
