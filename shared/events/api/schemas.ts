import * as z from 'zod/mini';
import { pageOf, pageQuery, publicId, timestamp } from '#shared/api/common-schemas.ts';
import { queryInteger } from '#shared/api/query-numbers.ts';
import { EVENT_API_VERSION, EVENT_CATALOG, type EventType, MAX_EVENT_SEQUENCE } from '../domain/events.ts';
import { eventComponentStem, eventDataSchemas } from './event-data-schemas.ts';

const catalogTypes = EVENT_CATALOG.map((entry) => entry.type) as [
  (typeof EVENT_CATALOG)[number]['type'],
  ...(typeof EVENT_CATALOG)[number]['type'][],
];

/** The envelope's members around `type` and `data`, in the order a delivery carries them. */
const envelopeHead = {
  id: publicId('event').check(
    z.meta({
      description: 'The event (`evt_`): the same on a replay or a rare duplicate; de-duplicate on it.',
    }),
  ),
};
const envelopeTail = {
  api_version: z
    .string()
    .check(z.meta({ description: 'Date-form version of the event schema', example: EVENT_API_VERSION })),
  sandbox: z.boolean().check(z.meta({ description: 'True on the sandbox stage' })),
  test: z.optional(z.literal(true)).check(
    z.meta({
      description:
        'Present, and true, only on a test send (POST /v1/webhooks/{id}/test): its `sequence` is 0 and the feed never lists it',
    }),
  ),
  sequence: z
    .number()
    .check(
      z.int(),
      z.minimum(0),
      z.meta({ description: 'Rises monotonically per fleet_id, from 1; 0 on a test send' }),
    ),
  occurred_at: timestamp,
  fleet_id: publicId('fleet'),
};

/** One event type's envelope (docs/api-guide.md#events-and-webhooks): `type` fixed, `data` that type's members. */
function envelopeOf<T extends EventType>(type: T) {
  return z
    .object({
      ...envelopeHead,
      // `const` as well as the generator's one-value `enum`: the member that tells the envelopes apart.
      type: z
        .literal(type)
        .check(z.meta({ const: type, description: 'The event type: this envelope’s discriminator' })),
      ...envelopeTail,
      data: eventDataSchemas[type],
    })
    .check(
      z.meta({
        id: `${eventComponentStem(type)}Event`,
        description: `\`${type}\`: ${EVENT_CATALOG.find((entry) => entry.type === type)?.description}`,
      }),
    );
}

type EventEnvelopeSchema<T extends EventType> = ReturnType<typeof envelopeOf<T>>;

/** Each type's envelope, as its webhook delivers it and the feed answers it. */
export const eventEnvelopes = Object.fromEntries(
  EVENT_CATALOG.map(({ type }) => [type, envelopeOf(type)]),
) as { [T in EventType]: EventEnvelopeSchema<T> };

/** The webhook event envelope (docs/api-guide.md#events-and-webhooks), as every delivery carries it: one of the types' envelopes. */
export const eventEnvelopeSchema = z
  .discriminatedUnion(
    'type',
    Object.values(eventEnvelopes) as [EventEnvelopeSchema<EventType>, ...EventEnvelopeSchema<EventType>[]],
  )
  .check(
    z.meta({
      id: 'EventEnvelope',
      description: 'An event as delivered: `type` says which envelope it is, and so what `data` holds.',
    }),
  );

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
