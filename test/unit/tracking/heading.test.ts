import { describe, expect, it } from 'vitest';
import { HEADING_POLICY, type HeadingFix, travelHeading } from '#shared/tracking/domain/heading.ts';

const T0 = Date.UTC(2026, 10, 21, 18, 0, 0);
const MINUTE = 60_000;
/** About a mile of latitude. */
const MILE = 1 / 69.05;

/** A breadcrumb `minutes` after T0, `north`/`east` miles from a point in Oklahoma. */
function fix(minutes: number, north: number, east: number, extra: Partial<HeadingFix> = {}): HeadingFix {
  return {
    recordedAtMs: T0 + minutes * MINUTE,
    latitude: 35.5 + north * MILE,
    longitude: -98 + (east * MILE) / Math.cos((35.5 * Math.PI) / 180),
    speedKmh: null,
    ...extra,
  };
}

describe('travelHeading', () => {
  it('takes the reported heading of a moving truck', () => {
    // Act
    const heading = travelHeading(fix(2, 2, 0, { speedKmh: 95, headingDegrees: 271 }), [fix(1, 1, 0)]);

    // Assess: the provider's heading wins over the bearing of the breadcrumbs (north).
    expect(heading).toBe(271);
  });

  it('normalises a reported heading to 0–360', () => {
    expect(travelHeading(fix(0, 0, 0, { speedKmh: 95, headingDegrees: -90 }), [])).toBe(270);
    expect(travelHeading(fix(0, 0, 0, { speedKmh: 95, headingDegrees: 360 }), [])).toBe(0);
  });

  it.each([
    ['a reported speed at walking pace', { speedKmh: 3, headingDegrees: 90 }],
    ['a reported speed of 0', { speedKmh: 0 }],
  ])('has none for a truck standing still for the whole lookback, by %s', (_label, extra) => {
    // Prepare: GPS jitter of tens of metres around one spot for 15 minutes.
    const trail = [fix(0, 0, 0), fix(5, 0.03, 0.02), fix(10, -0.02, 0.04), fix(14, 0.01, -0.03)];

    // Act
    const heading = travelHeading(fix(15, 0.02, 0, extra), trail);

    // Assess
    expect(heading).toBeNull();
  });

  it.each([
    ['a reported speed at walking pace', { speedKmh: 3, headingDegrees: 90 }],
    ['a reported speed of 0', { speedKmh: 0 }],
  ])('a truck crawling in a jam keeps the direction its trail shows, by %s', (_label, extra) => {
    // Prepare: northbound at a mile a minute, then 0.02 mi in the last minute.
    const trail = [fix(0, 0, 0), fix(1, 1, 0), fix(2, 2, 0)];

    // Act
    const heading = travelHeading(fix(3, 2.02, 0, extra), trail);

    // Assess: north, from the trail; a heading reported at a crawl (east) is not taken.
    expect(heading).toBeCloseTo(0, 0);
  });

  it('a truck without a speed that moved no more than GPS jitter since its last breadcrumb keeps its trail’s direction', () => {
    // Act: 0.05 mi in a minute, the step before a whole mile north; the reported heading east.
    const heading = travelHeading(fix(2, 1.05, 0, { headingDegrees: 90 }), [fix(0, 0, 0), fix(1, 1, 0)]);

    // Assess
    expect(heading).toBeCloseTo(0, 0);
  });

  it('a slow truck whose moving breadcrumbs are older than the lookback has none', () => {
    // Prepare: it drove north until 20 minutes ago, and has stood since.
    const trail = [fix(0, 0, 0), fix(1, 1, 0), fix(10, 1.01, 0), fix(20, 1.02, 0)];

    // Act
    const heading = travelHeading(fix(21, 1.02, 0.01, { speedKmh: 2 }), trail);

    // Assess
    expect(heading).toBeNull();
  });

  it('takes the bearing from the newest earlier breadcrumb far enough away when none is reported', () => {
    // Prepare: eastbound; the breadcrumb just before lies 0.1 mi off, GPS jitter to the north-west.
    const trail = [fix(0, 0, -2), fix(1, 0, -1), fix(2, 0, 0), fix(2.9, 0.05, 0.9)];

    // Act
    const heading = travelHeading(fix(3, 0, 1, { speedKmh: 90 }), trail);

    // Assess: from the minute-2 breadcrumb a mile west, not from the jittered one (south-east of it).
    expect(heading).toBeCloseTo(90, 0);
  });

  it('reads breadcrumbs by recorded time, whatever order they were delivered in', () => {
    // Prepare: southbound; the newest earlier breadcrumb delivered first, the oldest last.
    const trail = [fix(2, 2, 0), fix(0, 4, 0), fix(1, 3, 0)];

    // Act
    const heading = travelHeading(fix(3, 1, 0, { speedKmh: 90 }), trail);

    // Assess
    expect(heading).toBeCloseTo(180, 0);
  });

  it('ignores breadcrumbs recorded after the latest (a late one from before a turn)', () => {
    // Act: the latest is at minute 3; one "from the future" lies west of it.
    const heading = travelHeading(fix(3, 0, 0, { speedKmh: 90 }), [fix(2, -1, 0), fix(4, 0, -1)]);

    // Assess: north, from the minute-2 breadcrumb.
    expect(heading).toBeCloseTo(0, 0);
  });

  it('skips earlier breadcrumbs too close to give a bearing, and looks no further back than the lookback', () => {
    // Prepare
    const near = fix(29, 0, 0.1);
    const old = fix(30 - HEADING_POLICY.maxLookbackMinutes - 1, 0, -5);

    // Act: 0.1 mi is under the base; the breadcrumb 5 miles west is older than the lookback.
    const heading = travelHeading(fix(30, 0, 0.2, { speedKmh: 20 }), [old, near]);

    // Assess
    expect(heading).toBeNull();
  });

  it('has none for a first breadcrumb with neither heading nor an earlier breadcrumb', () => {
    expect(travelHeading(fix(0, 0, 0, { speedKmh: 90 }), [])).toBeNull();
  });
});
