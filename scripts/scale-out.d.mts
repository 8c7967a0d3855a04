// Types of scale-out.mjs for the multi-node test.
import type { RgwState } from "./ceph-rgw.mjs";

export interface DamsProcess {
  name: string;
  kind: "api" | "worker";
  /** http://127.0.0.1:<port> for an API node, null for a worker. */
  url: string | null;
  pid: number | null;
  logFile: string;
  start(): Promise<void>;
  ready(): Promise<void>;
  log(): string;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface Topology {
  dir: string;
  /** The load balancer (HAProxy). */
  url: string;
  adminPassword: string;
  postgres: { dir: string; url: string; restart(): void; stop(): void };
  rgw: RgwState;
  bucket: string;
  api: DamsProcess[];
  workers: DamsProcess[];
  /** The load balancer's process. */
  haproxy: { pid: number; stop(): Promise<void> };
  stop(): Promise<void>;
}

export function freePort(): Promise<number>;
export function startTopology(options?: {
  api?: number;
  workers?: number;
  rgw?: RgwState;
  env?: Record<string, string>;
  workerEnv?: Record<string, string>;
  adminPassword?: string;
}): Promise<Topology>;
