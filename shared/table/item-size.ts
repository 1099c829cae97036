/**
 * DynamoDB's size of an item as the DocumentClient takes it (unmarshalled), which is what write
 * units are billed on: attribute names and strings by UTF-8 bytes, numbers about one byte per two
 * significant digits plus one, lists and maps 3 bytes plus one per element (and each map key's
 * bytes), binary by its length, null and booleans one byte. It errs a byte per attribute high, never low.
 */
export function dynamoItemBytes(item: Readonly<Record<string, unknown>>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    bytes += Buffer.byteLength(name) + 1 + valueBytes(value);
  }
  return bytes;
}

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === 'number') {
    const digits = String(Math.abs(value))
      .replace(/e.*$/, '')
      .replace('.', '')
      .replace(/^0+|0+$/g, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (Array.isArray(value))
    return 3 + value.reduce((sum: number, element) => sum + 1 + valueBytes(element), 0);
  if (value && typeof value === 'object') return 3 + dynamoItemBytes(value as Record<string, unknown>);
  return 1;
}
