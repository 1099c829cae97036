import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from '@redocly/ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

/**
 * Events checked against the committed openapi.json, as a receiver generating its types from it
 * would read them: each envelope against its type's webhook (`webhooks[type]`, the request body a
 * delivery POSTs), any envelope against `EventEnvelope` (what GET /v1/events answers).
 *
 * Read strictly: an object schema that does not say what else it takes is closed, so a member the
 * document does not declare fails (the document leaves them open, for members added later; the
 * service itself must not send one it has not published).
 */
const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));
const DOCUMENT_ID = 'https://api.fleet-fuel.invalid/openapi.json';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy in which every schema with `properties` and no `additionalProperties` refuses other members. */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!isObject(node)) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closeObjects(value)]));
  if (isObject(node.properties) && !('additionalProperties' in node)) copy.additionalProperties = false;
  return copy;
}

let ajv: Ajv2020 | undefined;

function validator(pointer: string): ValidateFunction {
  if (!ajv) {
    // The document is OpenAPI, not a JSON Schema: its own keywords (`discriminator`, `example`) are
    // left to it, and only the schemas a pointer names are compiled.
    ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
    // A CommonJS module whose default export is also its `default` member: NodeNext types the import as the module.
    ajvFormats.default(ajv);
    const document = closeObjects(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'))) as Json;
    ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  }
  const validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
  if (!validate) throw new Error(`openapi.json has no schema at ${pointer}`);
  return validate;
}

const pointerPart = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

function problems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error: ErrorObject) =>
      `${error.instancePath || '(envelope)'} ${error.message}${
        error.keyword === 'additionalProperties' ? `: ${String(error.params.additionalProperty)}` : ''
      }`,
  );
}

/** The webhook types openapi.json publishes, in its order. */
export function publishedWebhookTypes(): string[] {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  return Object.keys(isObject(document.webhooks) ? document.webhooks : {});
}

/**
 * What is wrong with an envelope as its type's webhook publishes it: nothing (an empty list), or
 * one line per failure (`/data/gallons must be number`).
 */
export function webhookEnvelopeProblems(envelope: unknown): string[] {
  const type = isObject(envelope) ? envelope.type : undefined;
  if (typeof type !== 'string') return ['the envelope has no type'];
  if (!publishedWebhookTypes().includes(type)) return [`openapi.json publishes no webhook for ${type}`];
  return problems(
    validator(
      `/webhooks/${pointerPart(type)}/post/requestBody/content/${pointerPart('application/json')}/schema`,
    ),
    envelope,
  );
}

/** What is wrong with an envelope as `EventEnvelope` (the event feed's items) publishes it. */
export function eventEnvelopeProblems(envelope: unknown): string[] {
  return problems(validator('/components/schemas/EventEnvelope'), envelope);
}
