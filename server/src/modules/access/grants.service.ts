import type { PageQuery } from "../../http/envelope.js";
import { Invalid, NotFound } from "../../http/errors.js";
import type { UsersService } from "../users/users.service.js";
import type { GrantRecord, GrantsRepository } from "./grants.repository.js";
import type { CreateGrantBody } from "./grants.schema.js";
import type { RolesRepository } from "./roles.repository.js";

/**
 * Whether a library exists: the libraries module answers (it builds on this
 * module, so the composition root passes its lookup in; see docs/architecture.md).
 */
export interface GrantLibraries {
  exists(libraryId: string): Promise<boolean>;
}

/** The back area's access control screen: library grants per role and per user. */
export class GrantsService {
  #libraries: GrantLibraries | undefined;

  constructor(
    private readonly grants: GrantsRepository,
    private readonly roles: RolesRepository,
    private readonly accounts: Pick<UsersService, "account">,
    /** Drops cached library levels on every node. */
    private readonly changed?: { grantsChanged(): Promise<void> },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Grants name existing libraries (or `*`) once the libraries module is known. */
  useLibraries(libraries: GrantLibraries): void {
    this.#libraries = libraries;
  }

  async list(query: PageQuery & { libraryId?: string }): Promise<{ content: GrantRecord[]; total: number }> {
    const { grants, total } = await this.grants.list(query);
    return { content: grants, total };
  }

  async create(input: CreateGrantBody): Promise<GrantRecord> {
    if (input.libraryId !== "*" && this.#libraries && !(await this.#libraries.exists(input.libraryId))) {
      throw new Invalid(`body.libraryId: library ${input.libraryId} does not exist`, "library_not_found");
    }
    if (input.roleId && !(await this.roles.findById(input.roleId))) {
      throw new Invalid(`body.roleId: role ${input.roleId} does not exist`, "role_not_found");
    }
    if (input.userId && !(await this.accounts.account(input.userId))) {
      throw new Invalid(`body.userId: user ${input.userId} does not exist`, "user_not_found");
    }
    const id = await this.grants.insert(
      { libraryId: input.libraryId, roleId: input.roleId ?? null, userId: input.userId ?? null, level: input.level },
      this.clock().toISOString(),
    );
    await this.changed?.grantsChanged();
    return (await this.grants.findById(id))!;
  }

  async delete(id: string): Promise<void> {
    if (!(await this.grants.delete(id))) throw new NotFound(`grant ${id} does not exist`, "grant_not_found");
    await this.changed?.grantsChanged();
  }
}
