/**
 * At most `limit` of the tasks handed to the returned function run at once; the others wait their
 * turn, first come first served. For fan-outs over a batch (a 500-item request touches up to 500
 * vehicles) that would otherwise queue hundreds of calls behind the SDK's 50 sockets, where they
 * time out together instead of finishing one after another.
 *
 * @example
 * const limited = concurrencyLimit(32);
 * await Promise.all(vehicleIds.map((id) => limited(() => store.get(id))));
 */
export function concurrencyLimit(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      next();
    }
  };
}
