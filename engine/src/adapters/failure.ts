/** A failure of an adapter's background work (a reply being generated), thrown once at the engine's next call. */
export class PendingFailure {
  private error: Error | undefined;

  set(error: Error): void {
    this.error = error;
  }

  clear(): void {
    this.error = undefined;
  }

  throwIfAny(): void {
    const e = this.error;
    this.error = undefined;
    if (e) throw e;
  }
}
