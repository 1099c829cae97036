import { feedItems } from '../event-feed.ts';
import { fuelGauge } from '../fuel-gauge.ts';
import { type SandboxSnapshot, SCENARIOS, type SimulatedVehicle } from '../snapshot.ts';
import { htmlElement, svgElement } from './dom.ts';
import { describeStop, truckColour } from './map-view.ts';

export type ScenarioHandler = (vehicle: SimulatedVehicle, scenario: string) => void;

interface TruckCard {
  card: HTMLElement;
  facts: HTMLElement;
  meter: HTMLMeterElement;
  fuelLabel: HTMLElement;
  scenarioButtons: HTMLButtonElement[];
}

/**
 * The truck cards: built once per truck and updated in place on every poll, so a button is never
 * swapped out under a pointer or keyboard focus.
 */
export function truckPanel(container: HTMLElement, onScenario: ScenarioHandler) {
  const cards = new Map<string, TruckCard>();
  let current = new Map<string, SimulatedVehicle>();

  function build(vehicle: SimulatedVehicle, index: number): TruckCard {
    const headingId = `truck-${vehicle.vehicle_id}`;
    const fuelId = `fuel-${vehicle.vehicle_id}`;
    const meter = htmlElement('meter', {
      id: fuelId,
      min: '0',
      max: '100',
      low: '25',
      high: '50',
      optimum: '100',
    });
    const fuelLabel = htmlElement('span', { class: 'fuel-label' });
    const facts = htmlElement('dl', { class: 'facts' });
    const scenarioButtons = SCENARIOS.map((scenario) => {
      const button = htmlElement(
        'button',
        {
          type: 'button',
          class: 'scenario',
          'data-scenario': scenario,
          'aria-pressed': 'false',
          'aria-label': `Scenario ${scenario} for ${vehicle.name}`,
        },
        [scenario],
      );
      button.addEventListener('click', () => {
        const latest = current.get(vehicle.vehicle_id);
        if (latest) onScenario(latest, scenario);
      });
      return button;
    });
    const card = htmlElement(
      'article',
      { class: 'truck-card', 'data-vehicle-id': vehicle.vehicle_id, 'aria-labelledby': headingId },
      [
        htmlElement('h3', { id: headingId }, [
          svgElement('svg', { class: 'swatch', width: 12, height: 12, 'aria-hidden': 'true' }, [
            svgElement('circle', { cx: 6, cy: 6, r: 6, fill: truckColour(index) }),
          ]),
          vehicle.name,
        ]),
        htmlElement('div', { class: 'fuel' }, [
          htmlElement('label', { for: fuelId }, ['Fuel']),
          meter,
          fuelLabel,
        ]),
        facts,
        htmlElement(
          'div',
          { class: 'scenarios', role: 'group', 'aria-label': `Scenario for ${vehicle.name}` },
          scenarioButtons,
        ),
      ],
    );
    return { card, facts, meter, fuelLabel, scenarioButtons };
  }

  return {
    render(vehicles: readonly SimulatedVehicle[]): void {
      current = new Map(vehicles.map((vehicle) => [vehicle.vehicle_id, vehicle]));
      const ids = vehicles.map((vehicle) => vehicle.vehicle_id).join(',');
      if ([...cards.keys()].join(',') !== ids) {
        cards.clear();
        vehicles.forEach((vehicle, index) => {
          cards.set(vehicle.vehicle_id, build(vehicle, index));
        });
        container.replaceChildren(...[...cards.values()].map((entry) => entry.card));
      }
      vehicles.forEach((vehicle, index) => {
        const entry = cards.get(vehicle.vehicle_id);
        if (entry) update(entry, vehicle, index);
      });
    },
  };
}

function update(entry: TruckCard, vehicle: SimulatedVehicle, index: number): void {
  const gauge = fuelGauge(vehicle.fuel);
  entry.meter.value = gauge.level * 100;
  entry.fuelLabel.textContent = gauge.label;
  entry.card.dataset.scenario = vehicle.scenario;
  entry.card.dataset.colour = truckColour(index);
  for (const button of entry.scenarioButtons) {
    button.setAttribute('aria-pressed', String(button.dataset.scenario === vehicle.scenario));
  }
  const position = vehicle.position;
  const facts: [string, string][] = [
    [
      'Profile',
      `${vehicle.profile.title} (${vehicle.profile.tank_size_gallons} gal, ${vehicle.profile.mpg} mpg)`,
    ],
    ['State', vehicle.state],
    [
      'Scenario',
      vehicle.pending_scenario
        ? `${vehicle.scenario} (${vehicle.pending_scenario} on the next tick)`
        : vehicle.scenario,
    ],
    [
      'Moving',
      position
        ? `${Math.round(position.speed_mph)} mph, heading ${Math.round(position.heading)}°`
        : 'no position yet',
    ],
    ['Destination', vehicle.destination?.name ?? 'none'],
    ['Next stop', vehicle.next_stop ? describeStop(vehicle.next_stop) : 'none'],
    ['Guidance', vehicle.guidance_phase ?? 'none'],
  ];
  entry.facts.replaceChildren(
    ...facts.flatMap(([term, value]) => [htmlElement('dt', {}, [term]), htmlElement('dd', {}, [value])]),
  );
}

/** The live feed of the fleet's recent events, newest first. */
export function renderFeed(list: HTMLElement, snapshot: SandboxSnapshot): void {
  const items = feedItems(snapshot.recent_events, snapshot.vehicles);
  if (items.length === 0) {
    list.replaceChildren(htmlElement('li', { class: 'empty' }, ['No events yet.']));
    return;
  }
  list.replaceChildren(
    ...items.map((item) =>
      htmlElement('li', { 'data-event-id': item.id }, [
        htmlElement('time', { datetime: item.timestamp }, [item.time]),
        ' ',
        htmlElement('code', {}, [item.type]),
        ' ',
        htmlElement('span', { class: 'subject' }, [item.subject]),
      ]),
    ),
  );
}
