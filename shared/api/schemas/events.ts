import * as z from 'zod/mini';
import { EVENT_CATALOG, MAX_EVENT_SEQUENCE } from '../../domain/events.ts';
import { pageOf, pageQuery, publicId, timestamp } from './common.ts';
import { queryInteger } from './query-numbers.ts';

const catalogTypes = EVENT_CATALOG.map((entry) => entry.type) as [
  (typeof EVENT_CATALOG)[number]['type'],
  ...(typeof EVENT_CATALOG)[number]['type'][],
];

/** The webhook event envelope of spec section 2, as every delivery carries it. */
export const eventEnvelopeSchema = z
  .object({
    id: publicId('event'),
    type: z.enum(catalogTypes),
    api_version: z
      .string()
      .check(z.meta({ description: 'Date-form version of the event schema', example: '2026-07-01' })),
    sandbox: z.boolean(),
    sequence: z.number().check(z.int(), z.meta({ description: 'Rises monotonically per fleet_id' })),
    occurred_at: timestamp,
    fleet_id: publicId('fleet'),
    data: z
      .record(z.string(), z.unknown())
      .check(
        z.meta({ description: 'Event-specific; GET /v1/webhooks/event-types lists each type’s members' }),
      ),
  })
  .check(z.meta({ id: 'EventEnvelope' }));

export const listEventsQuery = z.object({
  after_sequence: z
    .optional(queryInteger(0, MAX_EVENT_SEQUENCE))
    .check(z.meta({ description: 'Only events with a higher `sequence`: the last one you processed.' })),
  type: z.optional(z.enum(catalogTypes)).check(z.meta({ description: 'Only events of this type.' })),
  ...pageQuery,
});

export const eventIdParams = z.object({ id: publicId('event') });
export const eventPage = pageOf(eventEnvelopeSchema, 'EventPage');

export type ListEventsQuery = z.infer<typeof listEventsQuery>;
