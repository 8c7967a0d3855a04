// The Node.js options every dams server process runs with: `npm start`
// (scripts/start.mjs), the scale-out topology (scripts/scale-out.mjs) and the
// benchmarks that start the built server, so they measure what operators run.
//
// --max-semi-space-size: V8's young generation, where a request's short-lived
// objects (rows, views, the JSON of the answer) are born. At the default
// (16 MiB a semi-space on 64-bit) a busy API fills it every few dozen
// requests, while ~20 requests are still in flight: their objects survive the
// scavenge and are copied, twice, into the old generation. At 32 MiB the
// scavenges halve and most of a request's objects are already garbage when
// one runs (issue 21: search CPU a request ≈ −10 %, docs/operations.md).
// The space grows to this size only under load; at most +32 MiB of RSS.
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=32"];
