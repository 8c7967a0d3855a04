import { Forbidden, NotFound } from "../../http/errors.js";
import type { LibraryUser } from "../access/library-access.js";
import { hasPermission, type PermissionSet } from "../auth/permissions.js";
import type { LibraryRecord } from "../libraries/libraries.repository.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import type { StoriesRepository } from "./stories.repository.js";
import type { Story } from "./story-types.js";

/**
 * Who may change another user's draft besides administrators: holders of
 * `story.list` → `delete` (the built-in editor role; contributors lack it).
 * Whoever may remove any story may also finish or fix someone else's draft.
 */
export const OTHERS_DRAFTS = { permission: "story.list", action: "delete" } as const;

/** A caller who changes stories: the library rules' user, with the permissions of their role when known. */
export interface StoryWriter extends LibraryUser {
  permissions?: PermissionSet;
}

/**
 * The one answer to "this story, in this library, for this caller — or
 * 404". Every read and write of a story by a caller comes through here:
 * `forRead` for reads and links (favourites, relations, shares), `forWrite`
 * for every change. `forWrite` is the single place where a story write is
 * authorised; a rule about who may change which story (draft ownership,
 * locks) goes there and nowhere else.
 */
/** The permissions of a role (the access module's RolesService.permissionSet). */
export type RolePermissions = (roleId: string | null) => Promise<PermissionSet>;

export class StoryAccess {
  constructor(
    private readonly stories: StoriesRepository,
    private readonly libraries: LibrariesService,
    private readonly rolePermissions: RolePermissions,
  ) {}

  /**
   * The story, when it is in this library; NotFound otherwise, so ids of
   * other libraries do not leak. `field` names the request field the id came
   * from (`members.0`, `storyIds.2`); for routes whose library the route
   * config has already checked.
   */
  async find(libraryId: string, storyId: string, field?: string): Promise<Story> {
    const story = await this.stories.find(storyId);
    if (!story || story.libraryId !== libraryId) throw notInLibrary(libraryId, storyId, field);
    return story;
  }

  /** The story, for a caller who can read its library; the same 404 when they cannot. */
  async forRead(actor: LibraryUser, libraryId: string, storyId: string, field?: string): Promise<Story> {
    if (!(await this.libraries.canRead(actor, libraryId))) throw notInLibrary(libraryId, storyId, field);
    return this.find(libraryId, storyId, field);
  }

  /**
   * The story, for a caller who may change it: write on its library (404
   * when they cannot read it, 403 when they only read it), then the story.
   */
  async forWrite(actor: StoryWriter, libraryId: string, storyId: string, field?: string): Promise<Story> {
    await this.libraryForWrite(actor, libraryId);
    const story = await this.find(libraryId, storyId, field);
    await this.assertMayChange(actor, story, field);
    return story;
  }

  /**
   * Draft ownership (docs/security.md): a draft is its creator's until it is
   * committed; administrators and holders of OTHERS_DRAFTS may act on others'
   * drafts. Committed and published stories, and half products (drafts meant
   * to be continued by others), follow the library rules alone.
   * An actor not made from a request (an upload's account) has its role's
   * permissions looked up.
   */
  async assertMayChange(actor: StoryWriter, story: Story, field?: string): Promise<void> {
    // A half product is a draft meant to be shared: anyone who may write to its library continues it.
    if (story.status !== "draft" || story.halfProduct || story.createdBy === actor.id || actor.admin) return;
    const permissions = actor.permissions ?? (await this.rolePermissions(actor.roleId));
    if (hasPermission(permissions, OTHERS_DRAFTS.permission, OTHERS_DRAFTS.action)) return;
    throw new Forbidden(
      `${field ? `${field}: ` : ""}story ${story.id} is another user's draft: only its creator or an editor may change it`,
      "draft_of_another_user",
    );
  }

  /**
   * forWrite of a story named by its id alone (a batch edit's selection): 404
   * when there is no such story or the caller cannot read its library.
   */
  async forWriteById(actor: StoryWriter, storyId: string): Promise<Story> {
    const story = await this.stories.find(storyId);
    if (!story) throw new NotFound(`story ${storyId} does not exist`);
    await this.libraries.require(actor, story.libraryId, "write").catch((error: unknown) => {
      throw error instanceof NotFound ? new NotFound(`story ${storyId} does not exist`) : error;
    });
    await this.assertMayChange(actor, story);
    return story;
  }

  /** A library the caller may create stories in (404 / 403 as forWrite). */
  async libraryForWrite(actor: LibraryUser, libraryId: string): Promise<LibraryRecord> {
    return this.libraries.require(actor, libraryId, "write");
  }
}

function notInLibrary(libraryId: string, storyId: string, field: string | undefined): NotFound {
  return new NotFound(`${field ? `${field}: ` : ""}story ${storyId} is not in library ${libraryId}`);
}
