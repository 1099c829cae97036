/**
 * The known field an unknown one was probably meant to be (`tank_size_liters` → `tank_size_gallons`,
 * `lat` → `latitude`, `tankSizeGallons` → `tank_size_gallons`), or null when none is close enough to
 * be worth naming: a wrong guess is worse than none.
 */
export function suggestField(unknown: string, known: readonly string[]): string | null {
  // Longer names are not typos of a field name; comparing them would only cost time.
  if (unknown.length === 0 || unknown.length > 64) return null;
  const unknownTokens = tokens(unknown);
  const flatUnknown = unknownTokens.join('');
  let best: { key: string; score: number; distance: number } | null = null;
  for (const key of known) {
    const keyTokens = tokens(key);
    const flatKey = keyTokens.join('');
    const distance = editDistance(flatUnknown, flatKey);
    const shared = unknownTokens.filter((token) => keyTokens.includes(token)).length;
    const score = Math.max(
      // Same words in another spelling or case (tankSizeGallons, Tank-Size-Gallons).
      flatUnknown === flatKey ? 3 : 0,
      // A typo: a few edits, relative to the name's length (typos rarely hit the first letter, and
      // `altitude` is not `latitude`).
      flatUnknown[0] === flatKey[0] && distance <= Math.max(1, Math.floor(flatKey.length / 4)) ? 2 : 0,
      // An abbreviation of the field (lat, lon, veh).
      flatUnknown.length >= 3 && flatKey.startsWith(flatUnknown) ? 1.5 : 0,
      // Most of the words match (tank_size_liters, speed_kmh, radius_km).
      shared > 0 && shared * 2 >= unknownTokens.length ? 1 + shared / Math.max(keyTokens.length, 1) / 10 : 0,
    );
    if (score === 0) continue;
    if (!best || score > best.score || (score === best.score && distance < best.distance)) {
      best = { key, score, distance };
    }
  }
  return best?.key ?? null;
}

/** `tank_size_liters`, `tankSizeLiters`, `tank-size-liters` → ['tank', 'size', 'liters']. */
function tokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Levenshtein distance (two rows; names are short). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
