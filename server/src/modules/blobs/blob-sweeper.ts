import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { ORIGINALS_PREFIX } from "./blob-keys.js";
import type { BlobStore } from "./blob-store.js";
import type { BlobsRepository } from "./blobs.repository.js";
import { isStorageUnreachable } from "./storage-errors.js";

/** One storage target as the sweeper walks it (the storage module answers them; modules/storage/sweep-targets.ts). */
export interface SweepTarget {
  id: string;
  /** "" for the built-in storage (the monitor names it). */
  name: string;
  /**
   * Where its keys are (a folder, or endpoint + bucket + prefix), ending in `/`:
   * targets naming the same place are walked once, as one.
   */
  place: string;
  /** Its store; throws when it cannot be built (a secret that no longer decrypts). */
  store(): Promise<BlobStore>;
}

/** Where a key is recorded (a `blob_locations` row); no row: the built-in storage. */
export interface SweepLocation {
  targetId: string;
  /** Set while a move has switched the key and not yet deleted the old copy there. */
  previousTargetId: string | null;
}

/** The storage targets and where each key lives: what the sweeper needs of the storage module. */
export interface SweepTargets {
  /** The id a key without a location row lives in. */
  readonly builtInId: string;
  /** Every target, the built-in storage first. */
  list(): Promise<SweepTarget[]>;
  /** The location rows of these keys (absent: the built-in storage). */
  locations(keys: string[]): Promise<Map<string, SweepLocation>>;
  /** Targets a move is on its way to (queued or running): copies there may not have their row yet. */
  activeMoveTargets(): Promise<Set<string>>;
  /** The key's location row goes (its file was an orphan and is deleted). */
  forgetLocation(key: string): Promise<void>;
}

/** What the sweeper found in one target. */
export interface TargetSweepReport {
  targetId: string;
  name: string;
  /** Keys under originals/ listed there. */
  scanned: number;
  deleted: number;
  young: number;
  /** Copies of registered blobs not recorded there, kept because a move is on its way there. */
  moving: number;
  /** Registered blobs recorded there whose file is missing. */
  missing: number;
  /**
   * Why the target was not (fully) swept: it could not be reached, its files
   * overlap another target's (one's folder or prefix inside the other's), or
   * another failure; with the store's message.
   */
  error: { reason: "unreachable" | "overlaps" | "failed"; message: string } | null;
  /** Another target naming the same place: that one's walk covered this one (its figures are there). */
  sameAs: string | null;
}

export interface SweepReport {
  /** Blobs under originals/ that were looked at, in every target. */
  scanned: number;
  /** Orphans (no registry row, or a copy where the row does not put it; older than the grace period) that were deleted. */
  deleted: string[];
  /** Orphans kept because they are younger than the grace period (an upload or a move may be finishing). */
  young: string[];
  /** Registry rows whose blob is missing from the target they are recorded in: reported, never deleted (a person decides). */
  missing: string[];
  /** Each target's figures, the built-in storage first. */
  targets: TargetSweepReport[];
}

export interface SweepOptions {
  /** Orphans younger than this are left alone (default one hour): the upload that wrote them may be inserting its row. */
  graceMs?: number;
  now?: Date;
}

const BATCH = 500;
/** Where the sweeper's probes go (as "test connection"'s): outside originals/, deleted at once. */
const PROBE_PREFIX = "dams-probe/sweep-";

/** A store over one place: the targets naming it (the first one walks it) and what was found. */
interface Place {
  targets: SweepTarget[];
  ids: Set<string>;
  store: BlobStore | null;
  report: TargetSweepReport;
}

const failureOf = (error: unknown): NonNullable<TargetSweepReport["error"]> => ({
  reason: isStorageUnreachable(error) ? "unreachable" : "failed",
  message: (error instanceof Error ? error.message : String(error)).slice(0, 300),
});

/** The store of a target without others: the built-in storage only (a server without storage targets). */
export function singleStoreTargets(store: BlobStore): SweepTargets {
  const builtInId = "builtin";
  return {
    builtInId,
    list: async () => [{ id: builtInId, name: "", place: "builtin/", store: async () => store }],
    locations: async () => new Map(),
    activeMoveTargets: async () => new Set(),
    forgetLocation: async () => {},
  };
}

/**
 * Finds what a crash between "blob stored" and "row inserted" leaves behind,
 * in every storage target, and rows whose blob went missing. A file under
 * originals/ is live when the registry knows its key and its location puts it
 * in that target (the current one, or the previous one of a move not yet
 * finished); anything else older than the grace period is deleted, except in
 * a target a move is on its way to, where a copy is kept until the move ends.
 * A target that cannot be reached is reported and the others are swept. Safe
 * to run while uploads and moves go on: an upload stores its blob before its
 * row, a move copies before it switches the row, and the grace period covers
 * both gaps; before each deletion the key's row, its location and the moves
 * under way are read again, then its age.
 */
export class BlobSweeper {
  constructor(
    private readonly blobs: BlobsRepository,
    private readonly targets: SweepTargets,
  ) {}

  async sweep(options: SweepOptions = {}): Promise<SweepReport> {
    const graceMs = options.graceMs ?? 60 * 60 * 1000;
    const cutoff = (options.now ?? new Date()).getTime() - graceMs;
    const report: SweepReport = { scanned: 0, deleted: [], young: [], missing: [], targets: [] };
    const places = await this.#probed(await this.#places(await this.targets.list()));
    const movesAtStart = await this.targets.activeMoveTargets();

    for (const place of places) {
      if (!place.store) continue;
      const store = place.store;
      const figures = place.report;
      const here = (location: SweepLocation | undefined) =>
        location
          ? place.ids.has(location.targetId) ||
            (location.previousTargetId !== null && place.ids.has(location.previousTargetId))
          : place.ids.has(this.targets.builtInId);
      /** Whether each key is live here, a copy a move on its way here is making ("moving"), or an orphan. */
      const judgeKeys = async (keys: string[], moves: Set<string>) => {
        const [registered, locations] = await Promise.all([
          this.blobs.existingKeys(keys),
          this.targets.locations(keys),
        ]);
        const moveOnItsWay = [...place.ids].some((id) => moves.has(id));
        const verdict = (key: string): "live" | "moving" | "orphan" => {
          if (!registered.has(key)) return "orphan";
          if (here(locations.get(key))) return "live";
          return moveOnItsWay ? "moving" : "orphan";
        };
        return { verdict, registered, locations };
      };
      const judge = async (keys: string[]) => {
        const { verdict } = await judgeKeys(keys, movesAtStart);
        for (const key of keys) {
          const first = verdict(key);
          if (first === "live") continue;
          if (first === "moving") {
            figures.moving++;
            continue;
          }
          // Read again (rows, locations, moves) before the age: an upload or a move may have recorded or
          // copied it meanwhile; a copy written after this reading is young.
          const again = await judgeKeys([key], await this.targets.activeMoveTargets());
          const verdictNow = again.verdict(key);
          if (verdictNow === "live") continue;
          if (verdictNow === "moving") {
            figures.moving++;
            continue;
          }
          const stat = await store.stat(key);
          if (!stat) continue;
          // A store that cannot tell the age never has its orphans deleted blind.
          if (stat.modifiedAt === undefined || stat.modifiedAt.getTime() > cutoff) {
            report.young.push(key);
            figures.young++;
            continue;
          }
          await store.delete(key);
          // An upload placed here that never got its row: its location goes with its file.
          const location = again.locations.get(key);
          if (!again.registered.has(key) && location && place.ids.has(location.targetId)) {
            await this.targets.forgetLocation(key);
          }
          report.deleted.push(key);
          figures.deleted++;
        }
      };
      try {
        let batch: string[] = [];
        for await (const key of store.list(ORIGINALS_PREFIX)) {
          report.scanned++;
          figures.scanned++;
          batch.push(key);
          if (batch.length === BATCH) {
            await judge(batch);
            batch = [];
          }
        }
        await judge(batch);
      } catch (error) {
        figures.error = failureOf(error);
        place.store = null;
      }
    }

    await this.#findMissing(places, report);
    report.targets = places.flatMap((place) => [
      place.report,
      ...place.targets.slice(1).map((target) => ({
        ...emptyFigures(target),
        error: place.report.error,
        sameAs: place.report.targetId,
      })),
    ]);
    return report;
  }

  /** The targets grouped by place, each place's store built (or its error noted); places that overlap are not walked. */
  async #places(targets: SweepTarget[]): Promise<Place[]> {
    const byPlace = new Map<string, SweepTarget[]>();
    for (const target of targets) byPlace.set(target.place, [...(byPlace.get(target.place) ?? []), target]);
    const places: Place[] = [];
    for (const [where, group] of byPlace) {
      const first = group[0]!;
      const place: Place = {
        targets: group,
        ids: new Set(group.map((t) => t.id)),
        store: null,
        report: emptyFigures(first),
      };
      // One's originals/ inside another's: the outer walk would see the inner one's files as strangers.
      const listed = `${where}${ORIGINALS_PREFIX}`;
      const other = [...byPlace.keys()].find(
        (p) =>
          p !== where && (`${p}${ORIGINALS_PREFIX}`.startsWith(listed) || listed.startsWith(`${p}${ORIGINALS_PREFIX}`)),
      );
      if (other !== undefined) {
        const names = byPlace.get(other)!.map((t) => t.name || t.id);
        place.report.error = { reason: "overlaps", message: `its files overlap ${names.join(", ")}'s` };
      } else {
        try {
          place.store = await first.store();
        } catch (error) {
          place.report.error = failureOf(error);
        }
      }
      places.push(place);
    }
    return places;
  }

  /**
   * Places that are one under two spellings (a host by name and by address, a
   * folder through a link) are found by a probe written in each and looked for
   * in the others, and swept as one: else one's walk would take the other's
   * files for strays. A place the probe cannot be written to is not swept.
   */
  async #probed(places: Place[]): Promise<Place[]> {
    const probes = new Map<Place, { key: string; store: BlobStore }>();
    try {
      for (const place of places) {
        if (!place.store) continue;
        const key = `${PROBE_PREFIX}${randomUUID()}`;
        try {
          await place.store.put(key, Readable.from([Buffer.from("the orphan sweeper's probe")]));
          probes.set(place, { key, store: place.store });
        } catch (error) {
          place.report.error = failureOf(error);
          place.store = null;
        }
      }
      const merged = new Set<Place>();
      for (const [place, { key }] of probes) {
        if (merged.has(place)) continue;
        for (const other of probes.keys()) {
          if (other === place || merged.has(other) || !other.store) continue;
          try {
            if (!(await other.store.stat(key))) continue;
          } catch (error) {
            other.report.error = failureOf(error);
            other.store = null;
            continue;
          }
          place.targets.push(...other.targets);
          for (const id of other.ids) place.ids.add(id);
          merged.add(other);
        }
      }
      return places.filter((place) => !merged.has(place));
    } finally {
      for (const { key, store } of probes.values()) await store.delete(key).catch(() => {});
    }
  }

  /** Registered keys whose file is not in the target recorded for them (targets that could not be walked are not asked). */
  async #findMissing(places: Place[], report: SweepReport): Promise<void> {
    const placeOf = new Map<string, Place>();
    for (const place of places) for (const id of place.ids) placeOf.set(id, place);
    let after = "";
    for (;;) {
      const keys = await this.blobs.keysAfter(after, BATCH);
      if (keys.length === 0) break;
      const locations = await this.targets.locations(keys);
      for (const key of keys) {
        const place = placeOf.get(locations.get(key)?.targetId ?? this.targets.builtInId);
        if (place && !place.store) continue;
        let present = false;
        if (place?.store) {
          try {
            present = (await place.store.stat(key)) !== null;
          } catch (error) {
            place.report.error = failureOf(error);
            place.store = null;
            continue;
          }
        }
        if (present) continue;
        report.missing.push(key);
        if (place) place.report.missing++;
      }
      after = keys[keys.length - 1]!;
    }
  }
}

function emptyFigures(target: SweepTarget): TargetSweepReport {
  return {
    targetId: target.id,
    name: target.name,
    scanned: 0,
    deleted: 0,
    young: 0,
    moving: 0,
    missing: 0,
    error: null,
    sameAs: null,
  };
}
