// Types of node-flags.mjs for the benchmarks.
export declare const SERVER_NODE_FLAGS: readonly string[];
