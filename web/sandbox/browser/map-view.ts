import type { GeoProjection } from 'd3-geo';
import { fuelGauge } from '../fuel-gauge.ts';
import { projectPoint } from '../projection.ts';
import { routePathData } from '../route-path.ts';
import type { SimulatedVehicle } from '../snapshot.ts';
import { svgElement } from './dom.ts';

/** One colour per truck, in snapshot order, shared by its marker, route, stop and card. */
export const TRUCK_COLOURS = ['#1b6ac9', '#c9361b', '#2e8b3a', '#8a3fc9', '#c98a1b'] as const;

export function truckColour(index: number): string {
  return TRUCK_COLOURS[index % TRUCK_COLOURS.length] ?? TRUCK_COLOURS[0];
}

const GAUGE_WIDTH = 26;
const TONE_COLOURS = { ok: '#2e8b3a', low: '#d98e04', critical: '#c9361b', unknown: '#999999' } as const;

/** Redraws the routes, stops and trucks layers (the outlines are drawn once). */
export function drawVehicles(
  layers: { routes: SVGGElement; stops: SVGGElement; trucks: SVGGElement },
  vehicles: readonly SimulatedVehicle[],
  projection: GeoProjection,
): void {
  layers.routes.replaceChildren();
  layers.stops.replaceChildren();
  layers.trucks.replaceChildren();
  vehicles.forEach((vehicle, index) => {
    const colour = truckColour(index);
    if (vehicle.route_polyline) {
      layers.routes.append(
        svgElement('path', {
          class: 'route',
          'data-vehicle-id': vehicle.vehicle_id,
          d: routePathData(vehicle.route_polyline, projection),
          fill: 'none',
          stroke: colour,
          'stroke-width': 2,
          'stroke-opacity': 0.7,
        }),
      );
    }
    const destination =
      vehicle.destination &&
      projectPoint(projection, vehicle.destination.latitude, vehicle.destination.longitude);
    if (vehicle.destination && destination) {
      layers.stops.append(
        svgElement(
          'circle',
          {
            class: 'destination',
            'data-vehicle-id': vehicle.vehicle_id,
            cx: destination.x,
            cy: destination.y,
            r: 4,
            fill: '#ffffff',
            stroke: colour,
            'stroke-width': 2,
          },
          [title(`${vehicle.name} is heading to ${vehicle.destination.name}`)],
        ),
      );
    }
    const stop = vehicle.next_stop;
    const stopPoint = stop && projectPoint(projection, stop.latitude, stop.longitude);
    if (stop && stopPoint) {
      layers.stops.append(
        svgElement(
          'g',
          {
            class: 'stop',
            'data-vehicle-id': vehicle.vehicle_id,
            'data-station-id': stop.station_id,
            transform: `translate(${stopPoint.x} ${stopPoint.y})`,
          },
          [
            svgElement('rect', {
              x: -5,
              y: -5,
              width: 10,
              height: 10,
              transform: 'rotate(45)',
              fill: colour,
              stroke: '#ffffff',
              'stroke-width': 1.5,
            }),
            title(`Recommended stop for ${vehicle.name}: ${describeStop(stop)}`),
          ],
        ),
      );
    }
    const truck = truckMarker(vehicle, colour, projection);
    if (truck) layers.trucks.append(truck);
  });
}

/** The truck: a dot at its position, an arrow pointing along its heading and a fuel gauge beside it. */
function truckMarker(
  vehicle: SimulatedVehicle,
  colour: string,
  projection: GeoProjection,
): SVGGElement | null {
  const position = vehicle.position;
  const point = position && projectPoint(projection, position.latitude, position.longitude);
  if (!position || !point) return null;
  const gauge = fuelGauge(vehicle.fuel);
  return svgElement(
    'g',
    {
      class: 'truck',
      'data-vehicle-id': vehicle.vehicle_id,
      'data-x': point.x,
      'data-y': point.y,
      transform: `translate(${point.x} ${point.y})`,
    },
    [
      svgElement('path', {
        class: 'truck-heading',
        d: 'M0,-17L5,-8L-5,-8Z',
        transform: `rotate(${Math.round(position.heading)})`,
        fill: colour,
      }),
      svgElement('circle', {
        class: 'truck-dot',
        r: 7,
        fill: colour,
        stroke: '#ffffff',
        'stroke-width': 2,
      }),
      svgElement('rect', {
        class: 'gauge-frame',
        x: 10,
        y: -3,
        width: GAUGE_WIDTH,
        height: 6,
        fill: '#ffffff',
        stroke: '#333333',
        'stroke-width': 0.75,
      }),
      svgElement('rect', {
        class: 'gauge-level',
        'data-tone': gauge.tone,
        x: 10,
        y: -3,
        width: Math.round(GAUGE_WIDTH * gauge.level * 10) / 10,
        height: 6,
        fill: TONE_COLOURS[gauge.tone],
      }),
      title(
        `${vehicle.name}: ${vehicle.state}, heading ${Math.round(position.heading)}°, ` +
          `${Math.round(position.speed_mph)} mph, fuel ${gauge.label}`,
      ),
    ],
  );
}

/** `Pilot Wichita (80 gal)`; the gallons are left out when guidance has not sized the fill yet. */
export function describeStop(stop: { name: string; gallons: number | null }): string {
  return stop.gallons === null ? stop.name : `${stop.name} (${Math.round(stop.gallons)} gal)`;
}

function title(text: string): SVGTitleElement {
  const element = svgElement('title');
  element.textContent = text;
  return element;
}
