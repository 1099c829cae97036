import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Both published documents describe every value they mention: no schema that says nothing (`{}`,
 * or annotations only), no `$ref` or discriminator mapping that points nowhere, and no description
 * sending the reader to a schema ("see X") the document does not have. A client generated from
 * either gets a type for every member.
 */
const DOCUMENTS = {
  'openapi.json': fileURLToPath(new URL('../../openapi.json', import.meta.url)),
  'admin-openapi.json': fileURLToPath(new URL('../../admin-openapi.json', import.meta.url)),
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords that describe a schema without constraining it: a schema of only these accepts anything. */
const ANNOTATIONS = new Set([
  'description',
  'example',
  'examples',
  'title',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

/** Schema keywords whose value is one schema, or a map or list of schemas (JSON Schema 2020-12). */
const SCHEMA_VALUED = [
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];

interface Finding {
  pointer: string;
  problem: string;
}

/**
 * Every place the document expects a schema: components, parameters and headers, request and
 * response bodies (paths and webhooks), and every subschema within those.
 */
function schemaFindings(document: Json): Finding[] {
  const findings: Finding[] = [];
  const checkSchema = (schema: unknown, pointer: string): void => {
    // `false` refuses everything (a strict object's `additionalProperties`). `true`, like `{}`,
    // accepts anything: allowed only as an object's `additionalProperties`, and only where the
    // object's description says who defines those members (JSON-RPC params are MCP's).
    if (schema === false) return;
    if (!isObject(schema)) {
      findings.push({ pointer, problem: `a schema that says nothing: ${JSON.stringify(schema)}` });
      return;
    }
    if (schema.additionalProperties === true && typeof schema.description !== 'string') {
      findings.push({
        pointer: `${pointer}/additionalProperties`,
        problem: 'takes any member, and no description says what they are',
      });
    }
    if (Object.keys(schema).every((key) => ANNOTATIONS.has(key))) {
      findings.push({ pointer, problem: `an empty schema ${JSON.stringify(schema)}` });
    }
    for (const key of SCHEMA_VALUED) {
      if (key in schema && !(key === 'additionalProperties' && schema[key] === true)) {
        checkSchema(schema[key], `${pointer}/${key}`);
      }
    }
    for (const key of SCHEMA_MAPS) {
      const map = schema[key];
      if (!isObject(map)) continue;
      for (const [name, value] of Object.entries(map)) checkSchema(value, `${pointer}/${key}/${name}`);
    }
    for (const key of SCHEMA_LISTS) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      list.forEach((value, index) => {
        checkSchema(value, `${pointer}/${key}/${index}`);
      });
    }
  };
  const checkContent = (holder: unknown, pointer: string) => {
    if (!isObject(holder) || !isObject(holder.content)) return;
    for (const [type, media] of Object.entries(holder.content)) {
      if (isObject(media)) checkSchema(media.schema, `${pointer}/content/${type}/schema`);
    }
  };
  const checkParameters = (parameters: unknown, pointer: string) => {
    if (!Array.isArray(parameters)) return;
    parameters.forEach((parameter, index) => {
      if (isObject(parameter) && !('$ref' in parameter)) {
        checkSchema(parameter.schema, `${pointer}/${index}/schema`);
      }
    });
  };
  const checkHeaders = (headers: unknown, pointer: string) => {
    if (!isObject(headers)) return;
    for (const [name, header] of Object.entries(headers)) {
      if (isObject(header) && !('$ref' in header)) checkSchema(header.schema, `${pointer}/${name}/schema`);
    }
  };
  const checkOperations = (items: unknown, pointer: string) => {
    if (!isObject(items)) return;
    for (const [name, item] of Object.entries(items)) {
      if (!isObject(item)) continue;
      const at = `${pointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      checkParameters(item.parameters, `${at}/parameters`);
      for (const [method, operation] of Object.entries(item)) {
        if (!isObject(operation) || method === 'parameters') continue;
        checkParameters(operation.parameters, `${at}/${method}/parameters`);
        checkContent(operation.requestBody, `${at}/${method}/requestBody`);
        if (!isObject(operation.responses)) continue;
        for (const [status, response] of Object.entries(operation.responses)) {
          checkContent(response, `${at}/${method}/responses/${status}`);
          if (isObject(response))
            checkHeaders(response.headers, `${at}/${method}/responses/${status}/headers`);
        }
      }
    }
  };

  checkOperations(document.paths, '#/paths');
  checkOperations(document.webhooks, '#/webhooks');
  const components = isObject(document.components) ? document.components : {};
  for (const [name, schema] of Object.entries(isObject(components.schemas) ? components.schemas : {})) {
    checkSchema(schema, `#/components/schemas/${name}`);
  }
  for (const [name, response] of Object.entries(isObject(components.responses) ? components.responses : {})) {
    checkContent(response, `#/components/responses/${name}`);
  }
  checkHeaders(components.headers, '#/components/headers');
  checkParameters(
    Object.values(isObject(components.parameters) ? components.parameters : {}),
    '#/components/parameters',
  );
  return findings;
}

/** Follows a local JSON pointer (`#/components/schemas/X`); undefined where it leads nowhere. */
function resolvePointer(document: Json, pointer: string): unknown {
  if (!pointer.startsWith('#/')) return undefined;
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), document);
}

/** Every `$ref`, discriminator mapping and "see X" in a description that names nothing in the document. */
function danglingNames(document: Json): Finding[] {
  const findings: Finding[] = [];
  const schemas =
    isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        walk(item, `${pointer}/${index}`);
      });
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string' && resolvePointer(document, node.$ref) === undefined) {
      findings.push({ pointer, problem: `$ref ${node.$ref} resolves to nothing` });
    }
    if (isObject(node.discriminator) && isObject(node.discriminator.mapping)) {
      for (const [value, target] of Object.entries(node.discriminator.mapping)) {
        if (typeof target !== 'string' || resolvePointer(document, target) === undefined) {
          findings.push({
            pointer,
            problem: `discriminator value ${value} maps to ${String(target)}, which is not there`,
          });
        }
      }
    }
    if (typeof node.description === 'string') {
      for (const [, name] of node.description.matchAll(/\bsee ([A-Z][A-Za-z0-9]*)\b/g)) {
        if (name && !(name in schemas)) {
          findings.push({
            pointer,
            problem: `the description says "see ${name}", a schema the document does not have`,
          });
        }
      }
    }
    for (const [key, value] of Object.entries(node)) {
      // Examples are data, not schema: a member named `$ref` or `description` there is a value.
      if (key === 'example' || key === 'examples') continue;
      walk(value, `${pointer}/${key}`);
    }
  };
  walk(document, '#');
  return findings;
}

const report = (findings: Finding[]) => findings.map(({ pointer, problem }) => `${pointer}: ${problem}`);

describe.each(Object.entries(DOCUMENTS))('%s', (_, file) => {
  const document = JSON.parse(readFileSync(file, 'utf8')) as Json;

  it('describes every value it mentions: no empty schema anywhere a schema is expected', () => {
    expect(report(schemaFindings(document))).toEqual([]);
  });

  it('names nothing it does not have: every $ref, discriminator mapping and "see X" resolves', () => {
    expect(report(danglingNames(document))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const broken: Json = {
    paths: {
      '/v1/things': {
        post: {
          parameters: [{ name: 'q', in: 'query', schema: {} }],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  description: 'Things (see ThingItem)',
                  properties: {
                    items: { type: 'array', items: { description: 'see ThingItem' } },
                    extra: { type: 'object', additionalProperties: {} },
                    closed: { type: 'object', additionalProperties: false },
                    open: { type: 'object', additionalProperties: true },
                    described: {
                      type: 'object',
                      additionalProperties: true,
                      description: 'MCP defines these',
                    },
                    kind: { oneOf: [{ type: 'string' }, {}] },
                    owner: { $ref: '#/components/schemas/Owner' },
                  },
                },
              },
            },
          },
          responses: {
            200: { description: 'ok', content: { 'application/json': { schema: { title: 'x' } } } },
          },
        },
      },
    },
    webhooks: {
      'thing.done': {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Done' } } } },
        },
      },
    },
    components: {
      schemas: {
        Done: {
          oneOf: [{ $ref: '#/components/schemas/Thing' }],
          discriminator: { propertyName: 'type', mapping: { gone: '#/components/schemas/Gone' } },
        },
        Thing: { type: 'object', properties: { data: {} } },
      },
    },
  };

  it('finds every kind of empty schema', () => {
    expect(report(schemaFindings(broken)).map((line) => line.split(':')[0])).toEqual([
      '#/paths/~1v1~1things/post/parameters/0/schema',
      '#/paths/~1v1~1things/post/requestBody/content/application/json/schema/properties/items/items',
      '#/paths/~1v1~1things/post/requestBody/content/application/json/schema/properties/extra/additionalProperties',
      '#/paths/~1v1~1things/post/requestBody/content/application/json/schema/properties/open/additionalProperties',
      '#/paths/~1v1~1things/post/requestBody/content/application/json/schema/properties/kind/oneOf/1',
      '#/paths/~1v1~1things/post/responses/200/content/application/json/schema',
      '#/components/schemas/Thing/properties/data',
    ]);
  });

  it('finds every dangling name', () => {
    expect(report(danglingNames(broken))).toEqual([
      expect.stringContaining('"see ThingItem"'),
      expect.stringContaining('"see ThingItem"'),
      expect.stringContaining('$ref #/components/schemas/Owner resolves to nothing'),
      expect.stringContaining('maps to #/components/schemas/Gone'),
    ]);
  });
});
