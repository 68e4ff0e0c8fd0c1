/**
 * Listeners of one kind of news, called synchronously in the order they were added. `add`
 * returns the only way to stop listening; a listener added or removed during an emit takes
 * effect from the next one.
 */
export class ListenerSet<Args extends unknown[]> {
  private readonly listeners = new Set<(...args: Args) => void>();

  add(listener: (...args: Args) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(...args: Args): void {
    for (const listener of [...this.listeners]) listener(...args);
  }

  get size(): number {
    return this.listeners.size;
  }
}
