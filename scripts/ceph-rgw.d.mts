// Types of ceph-rgw.mjs for the TypeScript tests that drive it.
export interface RgwState {
  dir: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  ports: { mon: number; rgw: number; osdMin: number; osdMax: number };
  pids: Record<"mon" | "osd" | "rgw", number>;
}
export function cacheDirectory(): string;
export function fetchCeph(cache?: string): string;
export function startRgw(options?: { dir?: string; memoryMiB?: number }): Promise<RgwState>;
export function stopRgw(dir: string, options?: { keep?: boolean }): Promise<void>;
export function killRgwNow(dir: string): void;
export function readRgwState(dir: string): RgwState | null;
export function stopGateway(dir: string): Promise<void>;
export function startGateway(dir: string): Promise<void>;
export function s3Environment(state: RgwState, bucket: string): Record<string, string>;
