/**
 * Loads a real price feed into a stage's table and makes it the current catalog:
 *
 *   TABLE_NAME=<stage table> [DYNAMODB_ENDPOINT=…] npm run stations:import -- <file.csv|file.json>
 *
 * Columns: see shared/domain/stations/catalog-import.ts (and docs/operations.md). Rejected rows are listed
 * by line and skipped; the rest are imported. Every function picks the new version up on its next
 * request (the catalog pointer is read at most once a minute per container).
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { csvRows, jsonRows, parseCatalogRows } from '../shared/domain/stations/catalog-import.ts';
import { formatTimestamp } from '../shared/platform/time.ts';
import { createDocumentClient } from '../shared/store/dynamo-client.ts';
import { createStationCatalogStore } from '../shared/store/station-catalog.ts';

const file = process.argv[2];
const tableName = process.env.TABLE_NAME;
if (!file || !tableName) {
  console.error('Usage: TABLE_NAME=<table> npm run stations:import -- <file.csv|file.json>');
  process.exit(1);
}

const text = readFileSync(file, 'utf8');
const rows = extname(file).toLowerCase() === '.json' ? jsonRows(text) : csvRows(text);
const { stations, rejected } = parseCatalogRows(rows);
for (const row of rejected) console.error(`line ${row.line}: rejected: ${row.reason}`);
if (stations.length === 0) {
  console.error(`No valid stations in ${file}; the current catalog is unchanged.`);
  process.exit(1);
}

const client = createDocumentClient({
  region: process.env.AWS_REGION ?? 'us-east-1',
  endpoint: process.env.DYNAMODB_ENDPOINT,
});
const store = createStationCatalogStore(client, tableName);
const nowMs = Date.now();
const version = `import-${formatTimestamp(nowMs).replace(/[-:.]/g, '').slice(0, 15)}`;
let lastReported = 0;
await store.publish(
  {
    version,
    count: stations.length,
    importedAt: formatTimestamp(nowMs),
    source: basename(file),
    newestPriceUpdatedAt: formatTimestamp(Math.max(...stations.map((station) => station.priceUpdatedAtMs))),
  },
  stations,
  (written) => {
    // Progress every 1,000 stations (or at the end) so long imports show they are moving.
    if (written - lastReported >= 1000 || written === stations.length) {
      lastReported = written;
      process.stdout.write(`\r${written}/${stations.length} stations written`);
    }
  },
);
console.log(
  `\nCatalog ${version} is current: ${stations.length} stations, ${rejected.length} rejected rows.`,
);
