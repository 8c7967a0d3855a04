import type { Kysely } from "kysely";
import type { Db } from "../../db/database.js";
import type { Database } from "../../db/schema.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { FoldersService } from "../folders/folders.service.js";
import type { KeywordUseCounter } from "./keyword-use.js";
import type { ProcessingQueue } from "./processing-queue.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { StoryAccess } from "./story-access.js";
import type { StoryActionsRepository } from "./story-actions.repository.js";
import type { StoryEventSink } from "./story-events.js";
import type { PropertyDefinitions } from "./story-properties.js";

/** The account behind an ingest call (upload, URL fetch), enabled ones only: the users module's UsersService. */
export interface IngestUsers {
  enabledUser(id: string): Promise<{ id: string; username: string; admin: boolean; roleId: string | null } | undefined>;
}

/** The upload registry (`blobs`) rows of keys no story uses any more: the blobs module's BlobsService. */
export interface BlobRegistry {
  forget(keys: string[], transaction?: Kysely<Database>): Promise<void>;
}

/** What the story write services are built from (each takes the part it uses). */
export interface StoryWriteDependencies {
  db: Db;
  stories: StoriesRepository;
  actions: StoryActionsRepository;
  /** The operation log: every change records itself in its transaction. */
  audit: AuditLog;
  access: StoryAccess;
  folders: FoldersService;
  users: IngestUsers;
  processing: ProcessingQueue;
  keywords: KeywordUseCounter;
  blobs: BlobStore;
  blobRegistry: BlobRegistry;
  /** Checks custom properties on commit and edit; without it they are stored unchecked. */
  propertyDefinitions?: PropertyDefinitions;
  /** Field-level access: refuses edits of properties the actor's role may not edit. */
  propertyAccess?: PropertyEditCheck;
  /** Commit, publish and added tags, written in the change's transaction (the actions module's triggers). */
  events?: StoryEventSink;
  clock?: () => Date;
  onBlobDeleteError?: (key: string, error: unknown) => void;
  /** A deleted story's copies made for downloads go too (the outgoing module's forgetStory). */
  forgetOutgoing?: (storyId: string) => Promise<void>;
}

/** Field-level access as the stories ask it (the access module's PropertyAccessService). */
export interface PropertyEditCheck {
  checkEditable(user: { admin: boolean; roleId: string | null }, properties: readonly string[]): Promise<void>;
  /** The properties the user may not see (a search does not match their values). */
  hiddenFor(user: { admin: boolean; roleId: string | null }): Promise<ReadonlySet<string>>;
}

/** The time of a change, as stored. */
export function nowOf(deps: { clock?: () => Date }): string {
  return (deps.clock?.() ?? new Date()).toISOString();
}

export const HEX64 = /^[0-9a-f]{64}$/;
