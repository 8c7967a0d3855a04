import net from "node:net";

/**
 * A port nothing listens on, for an app that must know its address before it
 * listens. Taken below Linux's ephemeral range (32768 and up), where every
 * `listen(0)` of the parallel test files picks its ports: a port found free
 * there could be taken by one of them before this app listens on it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
