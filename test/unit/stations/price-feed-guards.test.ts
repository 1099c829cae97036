import { describe, expect, it } from 'vitest';
import {
  type CatalogDiff,
  DEFAULT_PRICE_FEED_POLICY,
  diffCatalogs,
  parseShare,
  priceFeedPolicyFromEnv,
  priceFileFormatOf,
  priceFileRefusals,
} from '#shared/stations/domain/price-feed-guards.ts';
import type { Station } from '#shared/stations/domain/station.ts';

const station = (id: string, price = 3.5, latitude = 35): Station => ({
  id,
  name: `Stop ${id}`,
  chain: 'TA',
  latitude,
  longitude: -101,
  address: '',
  state: 'TX',
  amenities: [],
  fuels: ['diesel'],
  dieselPriceUsdPerGallon: price,
  priceUpdatedAtMs: 0,
});

const noChange: CatalogDiff = {
  added: 0,
  removed: 0,
  repriced: 0,
  moved: 0,
  unchanged: 0,
  largestPriceMoves: [],
};

describe('diffCatalogs', () => {
  it('counts added, removed, repriced, moved and unchanged stations by id', () => {
    const current = [station('a'), station('b'), station('c', 3.5, 35), station('d'), station('e')];
    const next = [
      station('a'), // unchanged
      station('b', 3.299), // repriced
      station('c', 3.6, 35.01), // repriced and moved
      station('e', 3.5, 35.2), // moved
      station('f'), // added
      station('g'), // added
    ]; // d removed
    const diff = diffCatalogs(current, next);
    expect({
      ...diff,
      largestPriceMoves: diff.largestPriceMoves.map((m) => [m.stationId, m.changeUsdPerGallon]),
    }).toEqual({
      added: 2,
      removed: 1,
      repriced: 2,
      moved: 2,
      unchanged: 1,
      // −0.201 before +0.1: ordered by size, either direction; exact to the tenth of a cent.
      largestPriceMoves: [
        ['b', -0.201],
        ['c', 0.1],
      ],
    });
  });

  it('lists at most the ten largest price moves, ties by id', () => {
    const current = Array.from({ length: 12 }, (_, i) => station(`s${String(i).padStart(2, '0')}`, 3));
    const next = current.map((s, i) => ({ ...s, dieselPriceUsdPerGallon: 3 + (i < 2 ? 0.05 : 0.01 * i) }));
    const moves = diffCatalogs(current, next).largestPriceMoves;
    expect(moves.map((m) => m.stationId)).toEqual([
      's11',
      's10',
      's09',
      's08',
      's07',
      's06',
      's00',
      's01',
      's05',
      's04',
    ]);
    expect(moves[0]).toEqual({
      stationId: 's11',
      name: 'Stop s11',
      fromUsdPerGallon: 3,
      toUsdPerGallon: 3.11,
      changeUsdPerGallon: 0.11,
    });
  });
});

describe('priceFileRefusals', () => {
  const policy = DEFAULT_PRICE_FEED_POLICY;
  /** Neither the file nor the catalog says how new its prices are: the age guard stays out. */
  const undated = { fileNewestPriceMs: null, currentNewestPriceMs: null };

  it('refuses a file without rows, whatever else', () => {
    expect(
      priceFileRefusals(
        { totalRows: 0, acceptedRows: 0, diff: noChange, currentImportedCount: null, ...undated },
        policy,
      ),
    ).toEqual(['The file has no station rows (empty, a header alone, or []): there is nothing to publish.']);
  });

  it('publishes at exactly the minimum accepted share and refuses just below it', () => {
    const facts = (acceptedRows: number) => ({
      totalRows: 200,
      acceptedRows,
      diff: noChange,
      currentImportedCount: null,
      ...undated,
    });
    expect(priceFileRefusals(facts(190), policy)).toEqual([]);
    expect(priceFileRefusals(facts(189), policy)).toEqual([
      'Only 189 of 200 rows (94.5 %) were accepted; at least 95 % must be (PRICE_FEED_MIN_ACCEPTED_SHARE). Fix the rejected rows and drop the file again.',
    ]);
  });

  it('refuses a file with no accepted row even when the policy accepts any share', () => {
    expect(
      priceFileRefusals(
        { totalRows: 3, acceptedRows: 0, diff: noChange, currentImportedCount: null, ...undated },
        { ...policy, minAcceptedShare: 0 },
      ),
    ).toEqual(["None of the file's 3 rows was accepted: see the rejected rows."]);
  });

  it('refuses losing more than the set share of an imported catalog, and allows exactly that share', () => {
    const facts = (removed: number) => ({
      totalRows: 900,
      acceptedRows: 900,
      diff: { ...noChange, removed },
      currentImportedCount: 1000,
      ...undated,
    });
    expect(priceFileRefusals(facts(100), policy)).toEqual([]);
    expect(priceFileRefusals(facts(101), policy)).toEqual([
      "Publishing would remove 101 of the current catalog's 1,000 stations (10.1 %); at most 10 % may go at once (PRICE_FEED_MAX_STATION_LOSS_SHARE). Send the whole catalog, not part of it.",
    ]);
  });

  it('lets a first import replace the synthetic catalog whatever its size', () => {
    expect(
      priceFileRefusals(
        {
          totalRows: 2,
          acceptedRows: 2,
          diff: { ...noChange, added: 2 },
          currentImportedCount: null,
          ...undated,
        },
        policy,
      ),
    ).toEqual([]);
  });

  it('refuses a file whose newest price is older than the current catalog’s, and allows one as new', () => {
    const monday = Date.parse('2026-11-23T17:10:00Z');
    const tuesday = Date.parse('2026-11-24T06:00:00Z');
    const facts = (fileNewestPriceMs: number | null, currentNewestPriceMs: number | null) => ({
      totalRows: 20,
      acceptedRows: 20,
      diff: noChange,
      currentImportedCount: 20,
      fileNewestPriceMs,
      currentNewestPriceMs,
    });
    expect(priceFileRefusals(facts(monday, tuesday), policy)).toEqual([
      "The file's newest price (2026-11-23T17:10:00.000000Z) is older than the current catalog's (2026-11-24T06:00:00.000000Z): it is an earlier file delivered late or dropped again. Drop a current file.",
    ]);
    expect(priceFileRefusals(facts(monday, monday), policy)).toEqual([]);
    expect(priceFileRefusals(facts(tuesday, monday), policy)).toEqual([]);
    // The synthetic catalog, or an imported one that does not record its newest price: no guard.
    expect(priceFileRefusals(facts(monday, null), policy)).toEqual([]);
  });

  it('gives every reason that applies', () => {
    const reasons = priceFileRefusals(
      {
        totalRows: 10,
        acceptedRows: 2,
        diff: { ...noChange, removed: 998 },
        currentImportedCount: 1000,
        ...undated,
      },
      policy,
    );
    expect(reasons.map((reason) => reason.split(' ')[0])).toEqual(['Only', 'Publishing']);
  });
});

describe('the policy and the file name', () => {
  it('reads shares from the environment, defaults when unset, and names a bad value', () => {
    expect(priceFeedPolicyFromEnv({})).toEqual({ minAcceptedShare: 0.95, maxStationLossShare: 0.1 });
    expect(
      priceFeedPolicyFromEnv({ PRICE_FEED_MIN_ACCEPTED_SHARE: '0.8', PRICE_FEED_MAX_STATION_LOSS_SHARE: '' }),
    ).toEqual({ minAcceptedShare: 0.8, maxStationLossShare: 0.1 });
    expect(() => priceFeedPolicyFromEnv({ PRICE_FEED_MAX_STATION_LOSS_SHARE: '10' })).toThrow(
      "PRICE_FEED_MAX_STATION_LOSS_SHARE must be a share between 0 and 1 (e.g. 0.95), not '10'",
    );
    expect(() => parseShare('ninety', '--min-accepted-share')).toThrow(
      /--min-accepted-share must be a share/,
    );
  });

  it('knows CSV and JSON by extension, in any case', () => {
    expect(
      ['a.csv', 'incoming/B.JSON', 'prices.xlsx', 'csv', 'prices.csv.gz'].map(priceFileFormatOf),
    ).toEqual(['csv', 'json', null, null, null]);
  });
});
