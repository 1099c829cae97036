import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAP_WIDTH, mapProjection, projectPoint } from '../../web/sandbox/projection.ts';
import type { SandboxSnapshot } from '../../web/sandbox/snapshot.ts';
import { launchChromium } from '../support/chromium.ts';
import { loadCredentials } from '../support/credentials.ts';
import { api } from '../support/http-client.ts';
import { holdSandboxTwin } from '../support/sandbox-twin-lock.ts';
import { ASYNC_EFFECT_TIMEOUT_MS } from './support-waits.ts';

/**
 * The sandbox page in a real browser (headless Chromium driven by playwright-core, chosen by
 * support/chromium.ts) against the stage under test: the trucks are drawn where the snapshot says,
 * advancing the test clock moves them, and a scenario button changes the snapshot.
 * `npm run screenshot:sandbox` runs this file with SANDBOX_SCREENSHOT=1 and refreshes
 * docs/images/sandbox-page.png.
 */
const SCREENSHOT = fileURLToPath(new URL('../../docs/images/sandbox-page.png', import.meta.url));

const credentials = loadCredentials();
const sandbox = api(credentials.sandbox_base_url);
const prod = api(credentials.base_url);
const key = credentials.keys.company_test;
const projection = mapProjection();

let browser: Awaited<ReturnType<typeof launchChromium>>;
let releaseTwin: (() => void) | undefined;
let page: Page;
/** Set once afterAll starts closing the browser. */
let closing = false;
const consoleErrors: string[] = [];
const foreignRequests: string[] = [];
/** The snapshots the page received, by `clock.simulated_now`. */
const received = new Map<string, SandboxSnapshot>();

async function snapshot(): Promise<SandboxSnapshot> {
  const response = await sandbox.get<SandboxSnapshot>('/v1/sandbox/simulation', { key });
  expect(response.status, response.text).toBe(200);
  return response.json;
}

interface Picture {
  simulatedNow: string;
  /** Screen pixels per map unit, and where the map's top-left corner is on the screen. */
  scale: number;
  origin: { x: number; y: number };
  trucks: DrawnTruck[];
}

interface DrawnTruck {
  vehicleId: string;
  /** The centre of the truck's dot on the screen, in CSS pixels. */
  screen: { x: number; y: number };
}

/** What the page has drawn, with the simulated time of the snapshot it drew (null mid-redraw). */
async function drawn(): Promise<Picture | null> {
  const map = page.locator('#map');
  const simulatedNow = (await map.getAttribute('data-simulated-now')) ?? '';
  const box = await map.boundingBox();
  if (!box) throw new Error('the map is not displayed');
  const trucks: DrawnTruck[] = [];
  for (const truck of await page.locator('#trucks-layer .truck').all()) {
    const dot = await truck.locator('.truck-dot').boundingBox();
    if (!dot) return null;
    trucks.push({
      vehicleId: (await truck.getAttribute('data-vehicle-id')) ?? '',
      screen: { x: dot.x + dot.width / 2, y: dot.y + dot.height / 2 },
    });
  }
  // A poll that redrew while the markers were read makes a mixed picture: read again.
  if ((await map.getAttribute('data-simulated-now')) !== simulatedNow) return null;
  return { simulatedNow, scale: box.width / MAP_WIDTH, origin: { x: box.x, y: box.y }, trucks };
}

/**
 * The page's drawing and the snapshot it drew: every snapshot the page received (its polls and the
 * advance answers) is kept by simulated time, so the comparison holds however fast the simulator
 * ticks. `notBefore`: wait for a drawing of that simulated time or later.
 */
async function drawnWithSnapshot(notBefore?: string) {
  const deadline = Date.now() + ASYNC_EFFECT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const picture = await drawn();
    const current = picture && received.get(picture.simulatedNow);
    if (picture && current && (!notBefore || Date.parse(picture.simulatedNow) >= Date.parse(notBefore))) {
      return { picture, current };
    }
    // The page polls every 5 s and draws what it receives at once.
    await page.waitForTimeout(250);
  }
  throw new Error('The page never drew a snapshot it received');
}

function expectTrucksWhereSnapshotSays(picture: Picture, current: SandboxSnapshot) {
  const placed = current.vehicles.filter((vehicle) => vehicle.position);
  expect(placed.length).toBeGreaterThan(0);
  expect(picture.trucks.map((truck) => truck.vehicleId).sort()).toEqual(
    placed.map((vehicle) => vehicle.vehicle_id).sort(),
  );
  for (const vehicle of placed) {
    const position = vehicle.position as NonNullable<typeof vehicle.position>;
    const expected = projectPoint(projection, position.latitude, position.longitude);
    expect(expected, `${vehicle.name} is on the map`).not.toBeNull();
    const truck = picture.trucks.find((candidate) => candidate.vehicleId === vehicle.vehicle_id);
    const screen = truck?.screen ?? { x: Number.NaN, y: Number.NaN };
    // Within a pixel of where the projection puts the snapshot's latitude/longitude.
    expect(Math.abs(screen.x - (picture.origin.x + (expected?.x ?? 0) * picture.scale))).toBeLessThan(1);
    expect(Math.abs(screen.y - (picture.origin.y + (expected?.y ?? 0) * picture.scale))).toBeLessThan(1);
  }
}

beforeAll(async () => {
  releaseTwin = await holdSandboxTwin();
  browser = await launchChromium();
  page = await browser.context.newPage();
  const origin = new URL(credentials.sandbox_base_url).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('response', async (answer) => {
    const path = new URL(answer.url()).pathname;
    if (answer.ok() && (path === '/v1/sandbox/simulation' || path === '/v1/sandbox/advance')) {
      const body = (await answer.json().catch((error: unknown) => {
        // The page's poll answered as afterAll closed the browser: its body is gone, and unneeded.
        if (closing) return null;
        throw error;
      })) as SandboxSnapshot | null;
      if (body) received.set(body.clock.simulated_now, body);
    }
  });
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== origin) foreignRequests.push(request.url());
  });
  // A twin's trucks have no position before their first breadcrumb: one simulated minute gives them one.
  const advanced = await sandbox.post('/v1/sandbox/advance', { key, body: { minutes: 1 } });
  expect(advanced.status, advanced.text).toBe(200);
  const response = await page.goto(`${credentials.sandbox_base_url}/sandbox`);
  expect(response?.status()).toBe(200);
  await page.getByLabel('Test key').fill(key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page
    .locator('#trucks-layer .truck')
    .first()
    .waitFor()
    .catch(async (error: unknown) => {
      const says = await page.locator('#status, #error').allTextContents();
      throw new Error(`No truck was drawn; the page says ${JSON.stringify(says)} (${String(error)})`);
    });
});

// The twin is shared with the other sandbox tests: leave it as a reset leaves it, whatever failed.
afterAll(async () => {
  try {
    closing = true;
    await browser?.close();
    await sandbox.post('/v1/sandbox/reset', { key });
  } finally {
    releaseTwin?.();
  }
});

describe('the sandbox page in Chromium', () => {
  it('draws the US offline and every truck where the snapshot puts it', async () => {
    // Act
    const { picture, current } = await drawnWithSnapshot();

    // Assess
    expect(await page.locator('#outline-layer path').count()).toBe(2);
    expectTrucksWhereSnapshotSays(picture, current);
    expect(await page.locator('.truck-card').count()).toBe(current.vehicles.length);
    expect(foreignRequests).toEqual([]);
  });

  it('keeps the key in sessionStorage only', async () => {
    // Act
    // A string runs in the page (the tests' TypeScript has no DOM types).
    const storage = await page.evaluate(
      '({ session: Object.values(sessionStorage), local: localStorage.length, cookie: document.cookie })',
    );

    // Assess
    expect(storage).toEqual({ session: [key], local: 0, cookie: '' });
  });

  it('moves the trucks when the test clock is advanced an hour', async () => {
    // Arrange
    const before = await drawnWithSnapshot();

    // Act
    const [advanced] = await Promise.all([
      page.waitForResponse((answer) => new URL(answer.url()).pathname === '/v1/sandbox/advance'),
      page.getByRole('button', { name: 'Advance 1 hour' }).click(),
    ]);
    const advancedTo = ((await advanced.json()) as SandboxSnapshot).clock.simulated_now;
    // The drawing of the advance's answer (or of a tick after it).
    const after = await drawnWithSnapshot(advancedTo);

    // Assess
    const minutes = (Date.parse(advancedTo) - Date.parse(before.current.clock.simulated_now)) / 60_000;
    expect(advanced.status()).toBe(200);
    expect(minutes).toBeGreaterThanOrEqual(60);
    expectTrucksWhereSnapshotSays(after.picture, after.current);
    const moved = after.picture.trucks.filter((truck) => {
      const earlier = before.picture.trucks.find((candidate) => candidate.vehicleId === truck.vehicleId);
      return earlier && Math.hypot(truck.screen.x - earlier.screen.x, truck.screen.y - earlier.screen.y) > 2;
    });
    expect(moved.length).toBeGreaterThan(0);
  });

  it('changes a truck’s scenario with its scenario button', async () => {
    // Arrange
    const current = await snapshot();
    const vehicle = current.vehicles.find((candidate) => candidate.scenario !== 'low_fuel');
    if (!vehicle) throw new Error('every truck already runs low_fuel');
    const card = page.locator(`.truck-card[data-vehicle-id="${vehicle.vehicle_id}"]`);

    // Act
    await card.getByRole('button', { name: `Scenario low_fuel for ${vehicle.name}` }).click();
    // Scenarios apply on the next tick; advancing runs it now.
    await page.getByRole('button', { name: 'Advance 15 minutes' }).click();

    // Assess
    await expect
      .poll(
        async () => (await snapshot()).vehicles.find((v) => v.vehicle_id === vehicle.vehicle_id)?.scenario,
        { timeout: ASYNC_EFFECT_TIMEOUT_MS },
      )
      .toBe('low_fuel');
    await expect
      .poll(() => card.locator('button[data-scenario="low_fuel"]').getAttribute('aria-pressed'), {
        timeout: ASYNC_EFFECT_TIMEOUT_MS,
      })
      .toBe('true');
  });

  it('puts every truck back to normal with Reset sandbox', async () => {
    // Act
    const [reset] = await Promise.all([
      page.waitForResponse((answer) => new URL(answer.url()).pathname === '/v1/sandbox/reset'),
      page.getByRole('button', { name: 'Reset sandbox' }).click(),
    ]);

    // Assess
    expect(reset.status()).toBe(200);
    expect((await snapshot()).vehicles.map((vehicle) => vehicle.scenario)).toEqual([
      'normal',
      'normal',
      'normal',
    ]);
    await expect
      .poll(() => page.locator('.scenario[data-scenario="normal"][aria-pressed="true"]').count(), {
        timeout: ASYNC_EFFECT_TIMEOUT_MS,
      })
      .toBe(3);
  });

  it('shows the API’s problem detail and hint when a call is refused', async () => {
    // Arrange: a second tab whose key the API does not know.
    const other = await browser.context.newPage();
    await other.goto(`${credentials.sandbox_base_url}/sandbox`);

    // Act
    await other.getByLabel('Test key').fill('svc_test_unknownkeyunknownkeyunknown');
    await other.getByRole('button', { name: 'Connect' }).click();

    // Assess
    const alert = other.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: ASYNC_EFFECT_TIMEOUT_MS }).toMatch(/Hint: /);
    expect(await other.evaluate('sessionStorage.length')).toBe(0);
    await other.close();
  });

  it('ran without a script error or a Content-Security-Policy refusal', async () => {
    // The refused-key test ran in its own tab; this one saw only answered requests.
    expect(consoleErrors).toEqual([]);
  });

  it('renders a screenshot of the whole page (written to docs/ with SANDBOX_SCREENSHOT=1)', async () => {
    await drawnWithSnapshot();
    const image = await page.screenshot({ fullPage: true });
    // A PNG, and a page that is more than an empty frame.
    expect(image.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(image.length).toBeGreaterThan(20_000);
    if (process.env.SANDBOX_SCREENSHOT === '1') {
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      writeFileSync(SCREENSHOT, image);
    }
  });
});

describe('the sandbox page on the production stage', () => {
  it('is 404 with a hint to the sandbox base URL', async () => {
    // Act
    const response = await prod.get('/sandbox');

    // Assess
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({
      code: 'resource_not_found',
      hint: `open ${credentials.sandbox_base_url}/sandbox (the sandbox stage)`,
    });
  });
});
