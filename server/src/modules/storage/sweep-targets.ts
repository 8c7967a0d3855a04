import type { SweepTargets } from "../blobs/blob-sweeper.js";
import type { StorageRepository } from "./storage.repository.js";
import { BUILT_IN_TARGET, placeOfTarget, type TargetStores } from "./target-stores.js";

/** The storage targets as the orphan sweeper walks them: the built-in storage and every target an administrator added. */
export class StorageSweepTargets implements SweepTargets {
  readonly builtInId = BUILT_IN_TARGET;

  constructor(
    private readonly rows: StorageRepository,
    private readonly stores: TargetStores,
    private readonly places: { builtIn: string; localRoot: string },
  ) {}

  async list() {
    const targets = await this.rows.targets();
    return [
      { id: BUILT_IN_TARGET, name: "", place: this.places.builtIn, store: async () => this.stores.builtIn },
      ...targets.map((target) => ({
        id: target.id,
        name: target.name,
        place: placeOfTarget(target, this.places.localRoot),
        store: () => this.stores.of(target.id),
      })),
    ];
  }

  locations(keys: string[]) {
    return this.rows.locations(keys);
  }

  activeMoveTargets() {
    return this.rows.activeMoveTargets();
  }

  forgetLocation(key: string) {
    return this.rows.deleteLocation(key);
  }
}
