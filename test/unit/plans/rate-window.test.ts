import { describe, expect, it } from 'vitest';
import { decideRate, rateLimitHeaders, rateWindow } from '#shared/plans/domain/rate-window.ts';

/** 2026-11-21T22:26:00Z, a minute boundary. */
const MINUTE_MS = Date.UTC(2026, 10, 21, 22, 26, 0, 0);
const MINUTE_S = MINUTE_MS / 1000;

describe('rateWindow', () => {
  it('starts a fresh 60 s window exactly on a minute boundary', () => {
    // Act
    const window = rateWindow(MINUTE_MS);

    // Assess
    expect(window).toEqual({ startSeconds: MINUTE_S, resetAtSeconds: MINUTE_S + 60, resetSeconds: 60 });
  });

  it('keeps the window until 59.999 s, with 1 s left to reset', () => {
    // Act
    const window = rateWindow(MINUTE_MS + 59_999);

    // Assess
    expect(window).toEqual({ startSeconds: MINUTE_S, resetAtSeconds: MINUTE_S + 60, resetSeconds: 1 });
  });

  it('moves to the next window at 60.000 s', () => {
    // Act
    const window = rateWindow(MINUTE_MS + 60_000);

    // Assess
    expect(window.startSeconds).toBe(MINUTE_S + 60);
    expect(window.resetSeconds).toBe(60);
  });

  it('rounds the seconds to reset up, never down to 0', () => {
    // Act / Assess
    expect(rateWindow(MINUTE_MS + 1).resetSeconds).toBe(60);
    expect(rateWindow(MINUTE_MS + 10_123).resetSeconds).toBe(50);
    expect(rateWindow(MINUTE_MS + 30_500).resetSeconds).toBe(30);
    expect(rateWindow(MINUTE_MS + 59_000).resetSeconds).toBe(1);
  });

  it('gives every millisecond of a minute the same window start and a reset in 1..60', () => {
    // Prepare
    const offsets = Array.from({ length: 600 }, (_, i) => i * 100 + (i % 7));

    // Act
    const windows = offsets.map((offset) => rateWindow(MINUTE_MS + offset));

    // Assess
    for (const [i, window] of windows.entries()) {
      expect(window.startSeconds).toBe(MINUTE_S);
      expect(window.resetSeconds).toBe(Math.ceil((60_000 - (offsets[i] as number)) / 1000));
    }
  });
});

describe('rateWindow across the years', () => {
  it('agrees with integer arithmetic on the window and the seconds to reset', () => {
    // Prepare: a deterministic spread of instants from 2001 to 2100, with odd milliseconds.
    const instants = Array.from({ length: 5_000 }, (_, i) => 978_307_200_000 + i * 631_138_519 + (i % 1000));

    // Act / Assess: the oracle works in whole milliseconds, where nothing rounds.
    for (const ms of instants) {
      const window = rateWindow(ms);
      const startMs = ms - (ms % 60_000);
      expect(window.startSeconds).toBe(startMs / 1000);
      expect(window.resetAtSeconds).toBe(startMs / 1000 + 60);
      expect(window.resetSeconds).toBe(Math.ceil((startMs + 60_000 - ms) / 1000));
    }
  });
});

describe('decideRate', () => {
  const window = rateWindow(MINUTE_MS + 10_000);

  it('allows the request that reaches the limit exactly, with none remaining', () => {
    // Act
    const decision = decideRate(120, 120, window);

    // Assess
    expect(decision).toEqual({ allowed: true, limit: 120, remaining: 0, window });
  });

  it('refuses the first request over the limit, remaining never negative', () => {
    // Act
    const decision = decideRate(121, 120, window);

    // Assess
    expect(decision.allowed).toBe(false);
    expect(decision.remaining).toBe(0);
  });

  it('counts the current request among the hits', () => {
    // Act
    const decision = decideRate(1, 120, window);

    // Assess
    expect(decision.remaining).toBe(119);
  });
});

describe('rateLimitHeaders', () => {
  it('writes the spec trio, the IETF structured pair and X-RateLimit-Reset as epoch seconds', () => {
    // Prepare
    const decision = decideRate(21, 120, rateWindow(MINUTE_MS + 10_123));

    // Act
    const headers = rateLimitHeaders(decision);

    // Assess
    expect(headers).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '99',
      'RateLimit-Reset': '50',
      'RateLimit-Policy': '"per-key";q=120;w=60',
      RateLimit: '"per-key";r=99;t=50',
      'X-RateLimit-Reset': String(Date.UTC(2026, 10, 21, 22, 27, 0, 0) / 1000),
    });
  });
});
