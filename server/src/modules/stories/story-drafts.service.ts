import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { Conflict, Forbidden, Invalid } from "../../http/errors.js";
import { auditChanges } from "../audit/audit-log.js";
import { addedKeywords } from "./keyword-use.js";
import { HEX64, nowOf, type StoryWriteDependencies } from "./stories.dependencies.js";
import { storyAction, storyAudit } from "./story-action.js";
import { mergeProperties, metadataChanges } from "./story-metadata.js";
import { checkProperties } from "./story-properties.js";
import { folderFor, readableMembers } from "./story-references.js";
import { originalFile } from "./story-rows.js";
import { StoryTexts, textOfInput } from "./story-texts.js";
import type { Actor, MediaType, Story, StoryMetadata } from "./story-types.js";

/** A finished upload, as the upload module hands it over. */
export interface UploadedOriginal {
  userId: string;
  libraryId: string;
  folderId?: string | null;
  type: MediaType;
  blobKey: string;
  sha256: string;
  size: number;
  mime: string;
  originalName: string;
  metadata?: StoryMetadata;
  /**
   * The enabled account as the caller read it, when it checked within the same request, moments
   * ago, that this account may write to `libraryId` (a tus POST that creates and finishes its
   * upload): neither is looked up again. Absent: both are checked here.
   */
  checkedAccount?: UploadAccount;
}

/** An enabled account, as `checkUploadTarget` read it. */
export interface UploadAccount {
  id: string;
  username: string;
  admin: boolean;
  roleId: string | null;
}

export interface IngestOptions {
  /**
   * Runs inside the transaction that writes the story, after its rows: the
   * upload module writes its own rows here (the blob's), so both exist
   * together or not at all. Throwing rolls everything back.
   */
  withinTransaction?: (
    trx: Kysely<Database>,
    story: { id: string; libraryId: string; versionNo: number },
  ) => Promise<void>;
  /** Where the upload came from, for the story action and the operation log. */
  ip?: string | null;
  userAgent?: string | null;
  /**
   * The request's actor (`actorOf`), when the upload's account is the caller: the operation log's record is
   * written with it, so the request's change is known recorded and the floor (`recordUnrecorded`) does not
   * record the request a second time. Its address and user agent are the record's.
   */
  auditAs?: Actor;
  /** Enqueue media processing now rather than on commit. */
  enqueueProcessing?: boolean;
}

export interface CreateDraftInput extends StoryMetadata {
  libraryId: string;
  folderId?: string | null;
  /** Composite stories: the member stories, in order. */
  members?: { libraryId: string; storyId: string }[];
  /** Composite stories: the text (a TipTap JSON document), sanitised before it is stored. */
  text?: unknown;
}

export interface CommitInput {
  libraryId: string;
  storyIds: string[];
  metadata?: StoryMetadata;
  /** Per story id: custom properties merged over `metadata.properties` for that story only. */
  properties?: Record<string, Record<string, unknown>>;
}

type DraftDependencies = Pick<
  StoryWriteDependencies,
  | "db"
  | "stories"
  | "actions"
  | "audit"
  | "access"
  | "folders"
  | "users"
  | "processing"
  | "keywords"
  | "propertyDefinitions"
  | "propertyAccess"
  | "events"
  | "clock"
>;

/** New stories: drafts from an upload or from metadata, and their commit. */
export class StoryDrafts {
  constructor(private readonly deps: DraftDependencies) {}

  #newStoryRow(input: {
    libraryId: string;
    folderId: string | null;
    type: Story["type"];
    userId: string;
    oid: string;
    now: string;
    metadata: StoryMetadata;
  }) {
    const json = (value: unknown) => this.deps.stories.json(value);
    const { metadata } = input;
    return {
      id: randomUUID(),
      library_id: input.libraryId,
      folder_id: input.folderId,
      type: input.type,
      half_product: metadata.halfProduct ?? false,
      status: "draft" as const,
      title: metadata.title ?? "",
      caption: metadata.caption ?? "",
      authors: json(metadata.authors ?? []),
      source: metadata.source ?? null,
      keywords: json(metadata.keywords ?? []),
      tags: json(metadata.tags ?? []),
      theme: metadata.theme ?? null,
      category: metadata.category ?? null,
      properties: json(mergeProperties({}, metadata.properties)),
      oid: input.oid,
      version_no: 1,
      processing_state: "none" as const,
      created_by: input.userId,
      created_at: input.now,
      updated_by: input.userId,
      updated_at: input.now,
    };
  }

  /**
   * The upload module's entry point: a finished upload becomes a draft story
   * (version 1 and its original file). Refuses a library the user cannot
   * write; reports the stories of the library holding the same bytes.
   */
  async createFromUpload(
    input: UploadedOriginal,
    options: IngestOptions = {},
  ): Promise<{ story: Story; duplicates: Story[] }> {
    if (!HEX64.test(input.sha256)) throw new Invalid("sha256: must be 64 lower-case hex characters");
    const user = await this.#writer(input);
    const folderId = await folderFor(this.deps.folders, input.libraryId, input.folderId);
    const now = nowOf(this.deps);
    const oid = randomUUID();
    const row = {
      ...this.#newStoryRow({
        libraryId: input.libraryId,
        folderId,
        type: input.type,
        userId: user.id,
        oid,
        now,
        metadata: { title: stripExtension(input.originalName), ...input.metadata },
      }),
      content_sha256: input.sha256,
      size: input.size,
      mime: input.mime,
      original_name: input.originalName,
      ...(options.enqueueProcessing ? { processing_state: "queued" as const } : {}),
    };
    const duplicates = await this.deps.stories.withSha256([input.libraryId], input.sha256);
    // Every check above runs before the transaction: SQLite has one connection, held by it.
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const stories = this.deps.stories.with(trx);
      await stories.insertStory(row);
      await stories.insertVersion({
        storyId: row.id,
        versionNo: 1,
        oid,
        blobKey: input.blobKey,
        sha256: input.sha256,
        size: input.size,
        mime: input.mime,
        originalName: input.originalName,
        note: null,
        createdBy: user.id,
        createdAt: now,
      });
      await stories.insertFile(originalFile(row.id, 1, input), now);
      const by = uploaderOf(user, options);
      await this.deps.audit.record(
        trx,
        by,
        storyAudit({ libraryId: input.libraryId, id: row.id, title: row.title }, "create", {
          details: { type: input.type, originalName: input.originalName, size: input.size },
        }),
      );
      await this.deps.actions.with(trx).record(
        storyAction(by, { libraryId: input.libraryId, id: row.id }, "create", {
          type: input.type,
          originalName: input.originalName,
          sha256: input.sha256,
          duplicates: duplicates.map((story) => story.id),
        }),
        now,
      );
      if (options.enqueueProcessing) await this.deps.processing.enqueue(trx, [row.id]);
      await options.withinTransaction?.(trx, { id: row.id, libraryId: input.libraryId, versionNo: 1 });
    });
    await this.deps.keywords.count([addedKeywords([], input.metadata?.keywords)]);
    return { story: (await this.deps.stories.find(row.id))!, duplicates };
  }

  /** The uploading account, checked for write on the upload's library (unless the caller just did). */
  async #writer(input: UploadedOriginal): Promise<UploadAccount> {
    const checked = input.checkedAccount;
    if (checked?.id === input.userId) return checked;
    const user = await this.deps.users.enabledUser(input.userId);
    if (!user) throw new Forbidden("the account does not exist or is disabled");
    await this.deps.access.libraryForWrite(user, input.libraryId);
    return user;
  }

  /** A draft from metadata alone (no file yet), or a composite grouping other stories. */
  async create(actor: Actor, type: Story["type"], input: CreateDraftInput): Promise<Story> {
    await this.deps.access.libraryForWrite(actor, input.libraryId);
    const folderId = await folderFor(this.deps.folders, input.libraryId, input.folderId);
    if (input.members && type !== "composite") throw new Invalid("members: only a composite story has members");
    const memberIds = input.members ? await readableMembers(this.deps.access, actor, input.members) : [];
    const text = textOfInput(type, input.text, memberIds);
    const now = nowOf(this.deps);
    const row = this.#newStoryRow({
      libraryId: input.libraryId,
      folderId,
      type,
      userId: actor.id,
      oid: randomUUID(),
      now,
      metadata: input,
    });
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const stories = this.deps.stories.with(trx);
      await stories.insertStory(row);
      await stories.insertVersion({
        storyId: row.id,
        versionNo: 1,
        oid: row.oid,
        blobKey: null,
        sha256: null,
        size: null,
        mime: null,
        originalName: null,
        note: null,
        createdBy: actor.id,
        createdAt: now,
      });
      if (memberIds.length > 0) await stories.setMembers(row.id, memberIds);
      if (text?.doc) {
        await new StoryTexts(trx).write(row.id, text.doc, now);
        await stories.changed([row.id]);
      }
      await this.deps.actions
        .with(trx)
        .record(storyAction(actor, { libraryId: input.libraryId, id: row.id }, "create", { type }), now);
      await this.deps.audit.record(
        trx,
        actor,
        storyAudit({ libraryId: input.libraryId, id: row.id, title: row.title }, "create", {
          details: { type, members: memberIds.length || undefined },
        }),
      );
    });
    await this.deps.keywords.count([addedKeywords([], input.keywords)]);
    return (await this.deps.stories.find(row.id))!;
  }

  /**
   * Drafts → committed, with the metadata the upload form gives for all of
   * them; media processing is enqueued in the same transaction.
   */
  async commit(actor: Actor, type: Story["type"], input: CommitInput): Promise<Story[]> {
    await this.deps.access.libraryForWrite(actor, input.libraryId);
    const stories: Story[] = [];
    for (const [index, id] of input.storyIds.entries()) {
      const story = await this.deps.access.forWrite(actor, input.libraryId, id, `storyIds.${index}`);
      if (story.type !== type) throw new Invalid(`storyIds.${index}: story ${id} is a ${story.type}, not a ${type}`);
      if (story.status !== "draft") throw new Conflict(`storyIds.${index}: story ${id} is not a draft`, "not_a_draft");
      stories.push(story);
    }
    if (type === "composite") {
      // A composite groups stories: one with none is nothing to commit yet.
      const members = await this.deps.stories.membersOf(input.storyIds);
      const empty = input.storyIds.findIndex((id) => (members.get(id) ?? []).length === 0);
      if (empty >= 0) {
        throw new Invalid(
          `storyIds.${empty}: composite ${input.storyIds[empty]} has no members; add members before committing it`,
          "empty_composite",
        );
      }
    }
    const committed = [
      ...Object.keys(input.metadata?.properties ?? {}),
      ...Object.values(input.properties ?? {}).flatMap((own) => Object.keys(own ?? {})),
    ];
    await this.deps.propertyAccess?.checkEditable(actor, [...new Set(committed)]);
    const perStory = await this.#commitProperties(type, input, stories);
    const withFiles = new Set(
      (await this.deps.stories.files(input.storyIds))
        .filter((file) => file.role === "original")
        .map((file) => file.storyId),
    );
    const now = nowOf(this.deps);
    // Uploads start their processing on the last byte; commit starts what has not run (or failed).
    const toProcess = new Set(
      stories
        .filter((story) => withFiles.has(story.id) && ["none", "failed"].includes(story.processingState))
        .map((story) => story.id),
    );
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      const repository = this.deps.stories.with(trx);
      const actions = this.deps.actions.with(trx);
      for (const story of stories) {
        const metadata = perStory.has(story.id)
          ? { ...input.metadata, properties: perStory.get(story.id) }
          : input.metadata;
        const changes = metadata ? metadataChanges(story, metadata, (v) => repository.json(v)) : {};
        if (Object.keys(changes).length > 0) await repository.update(story.id, changes);
        if (!(await repository.markCommitted(story.id, actor.id, now, toProcess.has(story.id)))) {
          throw new Conflict(`story ${story.id} is not a draft`, "not_a_draft");
        }
        await actions.record(
          storyAction(actor, story, "commit", {
            fields: Object.keys({ ...input.metadata, ...(perStory.has(story.id) ? { properties: true } : {}) }),
          }),
          now,
        );
        const committed = { ...metadata, status: "committed" };
        await this.deps.audit.record(trx, actor, storyAudit(story, "commit", auditChanges(story, committed)));
      }
      await this.deps.processing.enqueue(trx, [...toProcess]);
      await this.deps.events?.record(
        trx,
        stories.map((story) => ({
          kind: "committed" as const,
          libraryId: story.libraryId,
          storyId: story.id,
          actorId: actor.id,
        })),
      );
    });
    await this.deps.keywords.count(stories.map((story) => addedKeywords(story.keywords, input.metadata?.keywords)));
    return this.deps.stories
      .findMany(input.storyIds)
      .then((found) => input.storyIds.map((id) => found.find((story) => story.id === id)!));
  }

  /**
   * The custom properties each story gets on commit (the batch's, then its own
   * on top), checked against the catalogue's definitions for the type and
   * library when the commit carries any: values must fit their kind and every
   * required property must have a value.
   */
  async #commitProperties(
    type: Story["type"],
    input: CommitInput,
    stories: Story[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const batch = input.metadata?.properties;
    const own = input.properties ?? {};
    const result = new Map<string, Record<string, unknown>>();
    const unknownId = Object.keys(own).find((id) => !input.storyIds.includes(id));
    if (unknownId) throw new Invalid(`properties.${unknownId}: not one of storyIds`, "invalid_property");
    if (!batch && Object.keys(own).length === 0) return result;
    // The catalogue defines properties per media type; a composite's are stored as given (as its edit does).
    const checked = type === "composite" ? undefined : this.deps.propertyDefinitions;
    const definitions =
      type === "composite" ? [] : ((await checked?.lookup({ storytype: type, libraryId: input.libraryId })) ?? []);
    for (const story of stories) {
      const patch = { ...batch, ...own[story.id] };
      const path = story.id in own ? `properties.${story.id}` : "metadata.properties";
      if (checked) {
        checkProperties(definitions, patch, { path, current: story.properties, complete: true });
      }
      result.set(story.id, patch);
    }
    return result;
  }
}

function stripExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Who the record of an upload names: the request's actor when it is the uploading account, else the account. */
export function uploaderOf(user: UploadAccount, options: IngestOptions): Actor {
  if (options.auditAs?.id === user.id) return options.auditAs;
  return { ...user, ip: options.ip ?? null, userAgent: options.userAgent ?? null };
}
