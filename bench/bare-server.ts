import http from "node:http";
import { securityHeaders } from "../server/src/http/security.js";

/**
 * The peer of the API benchmark: bare node:http answering GET
 * /dams/api/v1/system/info with the same JSON body and the same security
 * headers as dams, so the ratio measures the stack (routing, hooks,
 * validation, serialisation, logging, metrics), not the choice of headers.
 */
const body = process.argv[3] ?? "{}";
const server = http.createServer((request, response) => {
  if (request.method === "GET" && request.url === "/dams/api/v1/system/info") {
    response.writeHead(200, { ...securityHeaders, "content-type": "application/json; charset=utf-8" });
    response.end(body);
    return;
  }
  response.writeHead(404).end();
});
server.listen(Number(process.argv[2]), "127.0.0.1", () => process.stdout.write("listening\n"));
