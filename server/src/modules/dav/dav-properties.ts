/**
 * Dead properties (PROPPATCH's), per user and path, in this process's
 * memory (docs/disk.md): each value is self-contained XML. They go with a
 * deleted path, move with a moved one, and are copied by COPY.
 */
export class DavProperties {
  readonly #byPath = new Map<string, Map<string, string>>();

  #id(userId: string, path: string): string {
    return `${userId}\u0000${path}`;
  }

  /** The entries of `path` and of everything below it. */
  #under(userId: string, path: string): [string, Map<string, string>][] {
    const base = this.#id(userId, path);
    return [...this.#byPath].filter(([id]) => id === base || id.startsWith(`${base}/`));
  }

  of(userId: string, path: string): ReadonlyMap<string, string> | undefined {
    return this.#byPath.get(this.#id(userId, path));
  }

  /** Applies set (a value) and remove (null) changes in order. */
  change(userId: string, path: string, changes: [key: string, value: string | null][]): void {
    const id = this.#id(userId, path);
    const properties = this.#byPath.get(id) ?? new Map<string, string>();
    for (const [key, value] of changes) {
      if (value === null) properties.delete(key);
      else properties.set(key, value);
    }
    if (properties.size > 0) this.#byPath.set(id, properties);
    else this.#byPath.delete(id);
  }

  forget(userId: string, path: string): void {
    for (const [id] of this.#under(userId, path)) this.#byPath.delete(id);
  }

  move(userId: string, from: string, to: string): void {
    const base = this.#id(userId, from);
    for (const [id, properties] of this.#under(userId, from)) {
      this.#byPath.delete(id);
      this.#byPath.set(this.#id(userId, to) + id.slice(base.length), properties);
    }
  }

  copy(userId: string, from: string, to: string, shallow: boolean): void {
    const base = this.#id(userId, from);
    for (const [id, properties] of this.#under(userId, from)) {
      if (shallow && id !== base) continue;
      this.#byPath.set(this.#id(userId, to) + id.slice(base.length), new Map(properties));
    }
  }
}
