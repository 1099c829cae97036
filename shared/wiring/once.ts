/**
 * A value built on first use and reused afterwards: how the composition root keeps clients,
 * stores and adapters to one per container without building any at import time (anonymous routes
 * and functions that never touch the table must not need its configuration).
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
