import { Forbidden } from "../../http/errors.js";
import type { Actor } from "../auth/actor.js";
import { safeFileNameText } from "../blobs/file-names.js";
import type { FolderNode, FoldersService } from "../folders/folders.service.js";
import type { LibrariesService } from "../libraries/libraries.service.js";
import { downloadFileName, type StoryDownloads } from "../stories/story-downloads.service.js";
import type { StoryQueries } from "../stories/story-queries.service.js";
import type { StoryView } from "../stories/story-view.js";
import { type DavEntry, type DavTree, type Found, type OpenedFile, withSuffix } from "./dav-tree.js";

/** A folder lists at most this many stories (the newest; docs/disk.md). */
export const LIBRARY_FOLDER_LIMIT = 1000;
/** Stories read per page while listing a folder. */
const PAGE_SIZE = 200;

/** Where an entry lives: the library, and the folder of a story (null at the library's top). */
interface Place {
  libraryId: string;
  folderId: string | null;
}

export interface LibraryTreeDependencies {
  libraries: Pick<LibrariesService, "readable">;
  folders: Pick<FoldersService, "tree">;
  stories: Pick<StoryQueries, "list">;
  downloads: Pick<StoryDownloads, "resolve" | "record">;
}

/** Gives each entry a name unique among its siblings: the first to claim a name keeps it, later ones are suffixed. */
class Names {
  readonly #taken = new Set<string>();

  claim(name: string, kind: "folder" | "file", id: string): string {
    const candidates = [name, withSuffix(name, kind, id.slice(0, 8)), withSuffix(name, kind, id)];
    const free = candidates.find((candidate) => !this.#taken.has(candidate.toLowerCase())) ?? candidates[2]!;
    this.#taken.add(free.toLowerCase());
    return free;
  }
}

/** A name as one path segment (libraries and folders are named by people, not for file systems). */
function segmentName(name: string, id: string): string {
  return safeFileNameText(name).replaceAll("/", "_").replaceAll("\\", "_") || id;
}

/**
 * `/dav-libraries/`, read-only: a folder per library the caller may read now
 * (LibrariesService), its folder tree (FoldersService), and in each folder the
 * current originals of its committed and published stories as files, listed
 * through StoryQueries.list — the catalogue's search, with its library check
 * and its rule for drafts (none are shown here, the caller's own neither).
 * A story's file is named like its download (title, extension from the
 * stored type); when names meet in one folder, the oldest story keeps the
 * name and the others take their id's first 8 characters.
 */
export class LibraryTree implements DavTree {
  readonly readOnly = "the libraries are read-only over WebDAV: upload through the pages or send files from your disk";
  readonly #places = new WeakMap<DavEntry, Place>();

  constructor(private readonly deps: LibraryTreeDependencies) {}

  async #libraries(actor: Actor): Promise<Map<string, DavEntry>> {
    const names = new Names();
    const entries = new Map<string, DavEntry>();
    for (const library of await this.deps.libraries.readable(actor)) {
      const entry = this.#folder(library.id, names.claim(segmentName(library.name, library.id), "folder", library.id));
      this.#places.set(entry, { libraryId: library.id, folderId: null });
      entries.set(entry.name.toLowerCase(), entry);
    }
    return entries;
  }

  #folder(id: string, name: string, at: { createdAt: string; updatedAt: string } | null = null): DavEntry {
    return {
      id,
      kind: "folder",
      name,
      size: 0,
      mime: null,
      createdAt: at?.createdAt ?? null,
      updatedAt: at?.updatedAt ?? null,
    };
  }

  /** A folder's sub-folders (a library's top folders for null) by name. */
  #subfolders(
    libraryId: string,
    nodes: FolderNode[],
    names: Names,
  ): Map<string, { entry: DavEntry; node: FolderNode }> {
    const byName = new Map<string, { entry: DavEntry; node: FolderNode }>();
    for (const node of [...nodes].sort((a, b) => a.sort - b.sort || a.createdAt.localeCompare(b.createdAt))) {
      const entry = this.#folder(node.id, names.claim(segmentName(node.name, node.id), "folder", node.id), node);
      this.#places.set(entry, { libraryId, folderId: node.id });
      byName.set(entry.name.toLowerCase(), { entry, node });
    }
    return byName;
  }

  /** The newest LIBRARY_FOLDER_LIMIT committed and published stories filed directly in the folder, as files. */
  async #stories(actor: Actor, place: Place, names: Names): Promise<DavEntry[]> {
    const stories: StoryView[] = [];
    for (let page = 0; stories.length < LIBRARY_FOLDER_LIMIT; page++) {
      const { content } = await this.deps.stories.list(actor, {
        libraryId: place.libraryId,
        ...(place.folderId ? { folderId: place.folderId } : { unfiled: true }),
        status: ["committed", "published"],
        page,
        size: PAGE_SIZE,
        sort: "date",
        order: "desc",
      });
      stories.push(...content);
      if (content.length < PAGE_SIZE) break;
    }
    // The oldest of stories whose names meet keeps the name: names are given oldest first.
    const oldestFirst = stories
      .slice(0, LIBRARY_FOLDER_LIMIT)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const entries: DavEntry[] = [];
    for (const story of oldestFirst) {
      const original =
        story.files.find((file) => file.role === "original" && file.versionNo === story.versionNo) ??
        story.files.find((file) => file.role === "original");
      // A composite has no file of its own: its members are listed where they are filed.
      if (!original) continue;
      const name = names.claim(
        downloadFileName(story, "original", original.mime, story.originalName),
        "file",
        story.id,
      );
      const entry: DavEntry = {
        id: story.id,
        kind: "file",
        name,
        size: original.size,
        mime: original.mime,
        createdAt: story.createdAt,
        updatedAt: story.updatedAt,
      };
      this.#places.set(entry, place);
      entries.push(entry);
    }
    return entries;
  }

  /** What is directly in a library or folder: its sub-folders first, then its stories' files. */
  async #children(actor: Actor, place: Place): Promise<DavEntry[]> {
    const names = new Names();
    const tree = await this.deps.folders.tree(place.libraryId);
    const nodes = place.folderId === null ? tree : (findNode(tree, place.folderId)?.children ?? []);
    const folders = [...this.#subfolders(place.libraryId, nodes, names).values()].map(({ entry }) => entry);
    return [...folders, ...(await this.#stories(actor, place, names))];
  }

  async find(actor: Actor, segments: readonly string[]): Promise<Found> {
    const [first, ...rest] = segments.map((segment) => segment.normalize("NFC"));
    if (first === undefined) return null;
    const library = (await this.#libraries(actor)).get(first.toLowerCase());
    if (!library) return undefined;
    let current = library;
    let nodes = await this.deps.folders.tree(library.id);
    for (const [index, segment] of rest.entries()) {
      const place = this.#places.get(current)!;
      const last = index === rest.length - 1;
      const names = new Names();
      const folder = this.#subfolders(place.libraryId, nodes, names).get(segment.toLowerCase());
      if (folder) {
        current = folder.entry;
        nodes = folder.node.children;
        continue;
      }
      if (!last) return undefined;
      return (await this.#stories(actor, place, names)).find(
        (entry) => entry.name.toLowerCase() === segment.toLowerCase(),
      );
    }
    return current;
  }

  async list(actor: Actor, _segments: readonly string[], folder: DavEntry | null): Promise<DavEntry[]> {
    if (folder === null) return [...(await this.#libraries(actor)).values()];
    const place = this.#places.get(folder);
    return place ? this.#children(actor, place) : [];
  }

  async open(actor: Actor, _segments: readonly string[], file: DavEntry, counted: boolean): Promise<OpenedFile> {
    const place = this.#places.get(file);
    if (!place) throw new Forbidden("not a story's file");
    const request = { libraryId: place.libraryId, storyId: file.id };
    const resolved = await this.deps.downloads.resolve(request);
    // Downloads are recorded as on the pages: a whole read from the first byte, not HEAD or a seek.
    if (counted) await this.deps.downloads.record(actor, [{ request, resolved }]);
    return { key: resolved.blobKey, fileName: file.name, contentType: resolved.contentType };
  }

  createFolder(): Promise<string> {
    return this.#refuse();
  }

  storeFile(): Promise<void> {
    return this.#refuse();
  }

  move(): Promise<void> {
    return this.#refuse();
  }

  trash(): Promise<void> {
    return this.#refuse();
  }

  room(): Promise<never> {
    return this.#refuse();
  }

  checkQuota(): Promise<void> {
    return this.#refuse();
  }

  async #refuse(): Promise<never> {
    throw new Forbidden(this.readOnly, "dav_read_only");
  }
}

function findNode(nodes: FolderNode[], id: string): FolderNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = findNode(node.children, id);
    if (below) return below;
  }
  return undefined;
}
