import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenMembers, type PublishedMember, publishedMembers } from '#shared/api/openapi-members.ts';

const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');

/** The members v1 published (scripts/freeze-published-members.ts), frozen so no git is needed. */
const FROZEN: PublishedMember[] = JSON.parse(read('../fixtures/v1-published-members.json'));
const CURRENT = publishedMembers(JSON.parse(read('../../openapi.json')));

describe('v1 never loses a member (adding is fine; removing or renaming ships as a new version)', () => {
  it('every member v1 published is still there, still required, never newly null, its values still allowed', () => {
    expect(brokenMembers(FROZEN, CURRENT)).toEqual([]);
  });

  it('the frozen list covers the route and the trip fuel plan comparison', () => {
    const members = new Set(FROZEN.map((m) => `${m.where}: ${m.member}`));
    for (const member of [
      'POST /v1/routes 201: baseline.stop_count',
      'GET /v1/routes/{id} 200: savings.fuel_value_usd_per_gallon',
      'GET /v1/trips/{id} 200: fuel_plan.baseline.feasible',
      'GET /v1/fuelings 200: data[].benchmark_price_usd_per_gallon',
      'GET /v1/reports/savings 200: totals.benchmark_spend_usd',
    ]) {
      expect(members).toContain(member);
    }
  });
});

describe('brokenMembers', () => {
  const member = (overrides: Partial<PublishedMember>): PublishedMember => ({
    where: 'GET /v1/x 200',
    member: 'a',
    required: true,
    nullable: false,
    ...overrides,
  });

  it('names a removed member, one no longer required, one newly nullable and a lost enum value', () => {
    const frozen = [
      member({ member: 'gone' }),
      member({ member: 'kept' }),
      member({ member: 'loose' }),
      member({ member: 'null' }),
      member({ member: 'kind', values: ['new', 'old'] }),
    ];
    const current = [
      member({ member: 'kept' }),
      member({ member: 'loose', required: false }),
      member({ member: 'null', nullable: true }),
      member({ member: 'kind', values: ['new'] }),
      member({ member: 'added' }),
    ];
    expect(brokenMembers(frozen, current)).toEqual([
      'GET /v1/x 200: gone removed',
      'GET /v1/x 200: loose no longer required',
      'GET /v1/x 200: null became nullable',
      'GET /v1/x 200: kind no longer allows old',
    ]);
  });

  it('walks references, arrays, nullable unions and enums of a document', () => {
    const document = {
      paths: {
        '/v1/x': {
          get: {
            responses: {
              '200': {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
                      required: ['items'],
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Item: {
            type: ['object', 'null'],
            properties: { kind: { type: 'string', enum: ['b', 'a'] }, note: { type: 'string' } },
            required: ['kind'],
          },
        },
      },
    };
    expect(publishedMembers(document)).toEqual([
      member({ member: 'items' }),
      member({ member: 'items[]', nullable: true }),
      member({ member: 'items[].kind', values: ['a', 'b'] }),
      member({ member: 'items[].note', required: false }),
    ]);
  });
});
