import { clockTime } from '../event-feed.ts';
import { stateOutlines } from '../outlines.ts';
import { keyProblem } from '../problem.ts';
import { mapProjection } from '../projection.ts';
import type { SandboxSnapshot, SimulatedVehicle } from '../snapshot.ts';
import { type SandboxApi, SandboxApiError, sandboxApi } from './api-client.ts';
import { byId, svgElement } from './dom.ts';
import { drawVehicles } from './map-view.ts';
import { renderFeed, truckPanel } from './panel-view.ts';

/**
 * The sandbox page's script (served as /sandbox/assets/app.js): asks for a test key, polls the
 * snapshot, draws it and sends the buttons' calls. The key lives in sessionStorage only: it goes
 * when the tab closes and is never written to localStorage or a cookie.
 */
const KEY_STORAGE = 'ffg.sandbox.test-key';
const POLL_MS = 5_000;

const projection = mapProjection();
const map = byId<SVGSVGElement>('map');
const layers = {
  routes: byId<SVGGElement>('routes-layer'),
  stops: byId<SVGGElement>('stops-layer'),
  trucks: byId<SVGGElement>('trucks-layer'),
};
const keyForm = byId<HTMLFormElement>('key-form');
const keyInput = byId<HTMLInputElement>('key');
const forgetButton = byId<HTMLButtonElement>('forget-key');
const errorBox = byId<HTMLElement>('error');
const statusLine = byId<HTMLElement>('status');
const controls = byId<HTMLElement>('controls');
const feed = byId<HTMLElement>('events');
const trucks = truckPanel(
  byId<HTMLElement>('trucks'),
  (vehicle, scenario) => void applyScenario(vehicle, scenario),
);

let api: SandboxApi | null = null;
let pollTimer: number | undefined;
let busy = false;
let queue: Promise<void> = Promise.resolve();

drawOutlines();
const savedKey = sessionStorage.getItem(KEY_STORAGE);
if (savedKey) connect(savedKey);
else showConnected(false);

keyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const problem = keyProblem(keyInput.value);
  if (problem) return showError(problem, null);
  connect(keyInput.value.trim());
});
forgetButton.addEventListener('click', () => {
  forgetKey();
  keyInput.value = '';
  statusLine.textContent = 'Key forgotten.';
});
for (const button of controls.querySelectorAll<HTMLButtonElement>('button[data-advance-minutes]')) {
  button.addEventListener(
    'click',
    () => void act(async (client) => render(await client.advance(Number(button.dataset.advanceMinutes)))),
  );
}
byId<HTMLButtonElement>('reset').addEventListener(
  'click',
  () =>
    void act(async (client) => {
      await client.reset();
      render(await client.simulation());
    }),
);

function connect(key: string): void {
  sessionStorage.setItem(KEY_STORAGE, key);
  keyInput.value = '';
  api = sandboxApi(key);
  showConnected(true);
  window.clearInterval(pollTimer);
  pollTimer = window.setInterval(() => void refresh(), POLL_MS);
  void refresh();
}

async function refresh(): Promise<void> {
  // A poll never overlaps a button's call: the button's answer is newer.
  if (busy) return;
  await act(async (client) => render(await client.simulation()));
}

async function applyScenario(vehicle: SimulatedVehicle, scenario: string): Promise<void> {
  await act(async (client) => {
    await client.setScenario(vehicle.vehicle_id, scenario);
    render(await client.simulation());
    statusLine.textContent = `${vehicle.name}: scenario ${scenario} applies on the next tick.`;
  });
}

/**
 * Runs one API call with the controls marked busy; a refusal is shown with its detail and hint.
 * Calls queue behind each other, so a click while a poll is in flight is not lost.
 */
function act(call: (client: SandboxApi) => Promise<void>): Promise<void> {
  queue = queue.then(() => run(call));
  return queue;
}

async function run(call: (client: SandboxApi) => Promise<void>): Promise<void> {
  if (!api) return;
  busy = true;
  controls.setAttribute('aria-busy', 'true');
  try {
    await call(api);
    showError(null, null);
  } catch (error) {
    if (error instanceof SandboxApiError) {
      showError(error.problem.text, error.problem.hint);
      // A refused key will be refused again: stop polling until a new one is entered.
      if (error.problem.status === 401 || error.problem.status === 403) forgetKey();
    } else {
      showError(
        `The sandbox API could not be reached (${String(error)}).`,
        'check the connection and try again',
      );
    }
  } finally {
    busy = false;
    controls.removeAttribute('aria-busy');
  }
}

function forgetKey(): void {
  sessionStorage.removeItem(KEY_STORAGE);
  api = null;
  window.clearInterval(pollTimer);
  showConnected(false);
}

function render(snapshot: SandboxSnapshot): void {
  drawVehicles(layers, snapshot.vehicles, projection);
  trucks.render(snapshot.vehicles);
  renderFeed(feed, snapshot);
  map.dataset.simulatedNow = snapshot.clock.simulated_now;
  statusLine.textContent =
    `Simulation ${snapshot.status} · simulated time ${clockTime(snapshot.clock.simulated_now)} · ` +
    `${snapshot.vehicles.length} trucks · fleet ${snapshot.fleet_id}`;
}

function drawOutlines(): void {
  const { land, borders } = stateOutlines();
  byId<SVGGElement>('outline-layer').replaceChildren(
    svgElement('path', { d: land, fill: '#e9eef2', stroke: '#8a99a6', 'stroke-width': 0.8 }),
    svgElement('path', { d: borders, fill: 'none', stroke: '#b4c0ca', 'stroke-width': 0.5 }),
  );
}

function showConnected(connected: boolean): void {
  document.body.dataset.connected = String(connected);
  forgetButton.hidden = !connected;
  for (const button of controls.querySelectorAll('button')) button.disabled = !connected;
}

function showError(text: string | null, hint: string | null): void {
  errorBox.hidden = text === null;
  errorBox.replaceChildren();
  if (text === null) return;
  const message = document.createElement('p');
  message.textContent = text;
  errorBox.append(message);
  if (hint) {
    const advice = document.createElement('p');
    advice.className = 'hint';
    advice.textContent = `Hint: ${hint}`;
    errorBox.append(advice);
  }
}
