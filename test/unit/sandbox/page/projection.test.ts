import { geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'us-atlas/states-albers-10m.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { MAP_HEIGHT, MAP_WIDTH, mapProjection, projectPoint } from '../../../../web/sandbox/projection.ts';

const topology = atlas as unknown as Topology<{ states: GeometryCollection<{ name: string }> }>;
const states = feature(topology, topology.objects.states).features;

/** The pre-projected outline's box of a state, in viewport pixels. */
function boxOf(name: string): [[number, number], [number, number]] {
  const state = states.find((candidate) => candidate.properties?.name === name);
  if (!state) throw new Error(`no ${name} in us-atlas`);
  return geoPath().bounds(state);
}

function inside(
  point: { x: number; y: number } | null,
  [[x0, y0], [x1, y1]]: [[number, number], [number, number]],
) {
  return point !== null && point.x > x0 && point.x < x1 && point.y > y0 && point.y < y1;
}

describe('the map projection', () => {
  const projection = mapProjection();

  it.each([
    ['Denver', 39.7392, -104.9903, 'Colorado'],
    ['Dallas', 32.7767, -96.797, 'Texas'],
    ['Chicago', 41.8781, -87.6298, 'Illinois'],
    ['Anchorage', 61.2181, -149.9003, 'Alaska'],
  ])('puts %s inside the pre-projected outline of its state', (_city, latitude, longitude, state) => {
    // Act
    const point = projectPoint(projection, latitude, longitude);

    // Assess: the outlines were projected by us-atlas; a different scale or origin misses the box.
    expect(inside(point, boxOf(state))).toBe(true);
  });

  it('keeps the lower 48 inside the viewport', () => {
    // Act
    const corners = [
      projectPoint(projection, 48.99, -124.7),
      projectPoint(projection, 25.1, -80.4),
      projectPoint(projection, 47.4, -68.3),
    ];

    // Assess
    for (const corner of corners)
      expect(
        inside(corner, [
          [0, 0],
          [MAP_WIDTH, MAP_HEIGHT],
        ]),
      ).toBe(true);
  });

  it('has no place for a point outside the US insets', () => {
    // Act / Assess: London and the middle of the Pacific.
    expect(projectPoint(projection, 51.5, -0.12)).toBeNull();
    expect(projectPoint(projection, 10, -150)).toBeNull();
  });

  it('rounds to a tenth of a pixel', () => {
    // Act
    const point = projectPoint(projection, 35.4676, -97.5164);

    // Assess
    expect(point).not.toBeNull();
    expect(Number.isInteger((point?.x ?? 0) * 10)).toBe(true);
    expect(Number.isInteger((point?.y ?? 0) * 10)).toBe(true);
  });
});
