import type { Db } from "../../db/database.js";
import { FavouritesRepository } from "./favourites.repository.js";
import { type FavouritesDependencies, FavouritesService } from "./favourites.service.js";

/** Builds the favourites service once (called by app.ts). */
export function buildFavourites(db: Db, deps: Omit<FavouritesDependencies, "favourites">): FavouritesService {
  return new FavouritesService({ ...deps, favourites: new FavouritesRepository(db.kysely) });
}
