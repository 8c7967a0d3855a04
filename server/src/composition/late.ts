/**
 * A part built after the parts that call it at request time (the shares module answers the `share` kind of
 * access, which is registered before any module): set once when it is built, asked for only while a request runs.
 */
export class Late<T> {
  #value: T | undefined;

  constructor(private readonly what: string) {}

  set(value: T): void {
    if (this.#value !== undefined) throw new Error(`${this.what} set twice`);
    this.#value = value;
  }

  get(): T {
    if (this.#value === undefined) throw new Error(`${this.what} are not ready`);
    return this.#value;
  }
}
