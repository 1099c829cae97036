import { describe, expect, it } from 'vitest';
import { adminRouteList } from '#shared/admin/api/operations.ts';
import { servedRouteList } from '#shared/api/route-table.ts';

describe('operation ids across the public and operator route tables', () => {
  it('are unique: each names one function, one bundle folder and one log line', () => {
    const ids = [...servedRouteList, ...adminRouteList].map((route) => route.operationId);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated).toEqual([]);
  });
});
