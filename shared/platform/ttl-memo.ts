/**
 * Remembers what a loader returned under a key for `ttlMs` (on the `now` clock), in a container's
 * memory: concurrent calls for one key share the load, a failed load is forgotten at once (the next
 * call tries again), and past `maxEntries` the oldest entries go first.
 */
export function ttlMemo<V>(
  ttlMs: number,
  now: () => number,
  maxEntries = 5_000,
): (key: string, load: () => Promise<V>) => Promise<V> {
  const remembered = new Map<string, { untilMs: number; value: Promise<V> }>();
  return (key, load) => {
    const nowMs = now();
    const hit = remembered.get(key);
    if (hit && hit.untilMs > nowMs) return hit.value;
    remembered.delete(key);
    const value = load();
    value.catch(() => {
      if (remembered.get(key)?.value === value) remembered.delete(key);
    });
    remembered.set(key, { untilMs: nowMs + ttlMs, value });
    if (remembered.size > maxEntries) remembered.delete(remembered.keys().next().value as string);
    return value;
  };
}
