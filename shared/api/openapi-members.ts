/**
 * The members a published OpenAPI document promises its clients: every JSON response body of every
 * path and every webhook payload, walked to its leaves. The versioning rule (adding is fine, removing
 * or renaming breaks) is checked by comparing these lists between a frozen copy and the current one.
 */

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
};

interface OpenApiLike {
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema>; responses?: Record<string, unknown> };
}

/** One member of a published body: where it is and what a client may rely on. */
export interface PublishedMember {
  /** `POST /v1/routes 201`, `webhook guidance.updated`. */
  where: string;
  /** Dotted path from the body's root, `[]` for an array's items: `plan.stops[].cost_usd`. */
  member: string;
  /** Present on every body (required at each level from the root). */
  required: boolean;
  /** May be null. */
  nullable: boolean;
  /** The values a string enum (or const) allows, sorted; absent when any value is allowed. */
  values?: string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every member of every JSON response and webhook payload, sorted by where and member. */
export function publishedMembers(document: OpenApiLike): PublishedMember[] {
  const members = new Map<string, PublishedMember>();
  const resolve = (schema: JsonSchema): JsonSchema => {
    const name = schema.$ref?.replace('#/components/schemas/', '');
    return name ? resolve(document.components?.schemas?.[name] ?? {}) : schema;
  };

  const add = (found: PublishedMember) => {
    const key = `${found.where}\u0000${found.member}`;
    const seen = members.get(key);
    // A member two branches of a union both have: required only if each branch requires it.
    members.set(
      key,
      seen
        ? {
            ...seen,
            required: seen.required && found.required,
            nullable: seen.nullable || found.nullable,
            values: mergeValues(seen.values, found.values),
          }
        : found,
    );
  };

  const walk = (where: string, prefix: string, raw: JsonSchema, required: boolean, nullable: boolean) => {
    const schema = resolve(raw);
    const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(resolve);
    const nullBranch = branches.some((b) => b.type === 'null');
    const isNullable = nullable || nullBranch || (Array.isArray(schema.type) && schema.type.includes('null'));
    if (prefix) add({ where, member: prefix, required, nullable: isNullable, ...valuesOf(schema, branches) });
    for (const branch of branches) {
      if (branch.type !== 'null') walk(where, prefix, branch, required, isNullable);
    }
    for (const part of schema.allOf ?? []) walk(where, prefix, part, required, isNullable);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const member = prefix ? `${prefix}.${name}` : name;
      walk(where, member, property, required && (schema.required ?? []).includes(name), false);
    }
    if (schema.items) walk(where, `${prefix}[]`, schema.items, required, false);
  };

  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = operations[method] as { responses?: Record<string, unknown> } | undefined;
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const body = jsonBody(response);
        if (body) walk(`${method.toUpperCase()} ${path} ${status}`, '', body, true, false);
      }
    }
  }
  for (const [event, operations] of Object.entries(document.webhooks ?? {})) {
    const request = (operations.post as { requestBody?: unknown } | undefined)?.requestBody;
    const body = jsonBody(request);
    if (body) walk(`webhook ${event}`, '', body, true, false);
  }
  return [...members.values()].sort(
    (a, b) => a.where.localeCompare(b.where) || a.member.localeCompare(b.member),
  );
}

/** The JSON body schema of a response or request body (not problem+json, whose members are the spec's). */
function jsonBody(container: unknown): JsonSchema | undefined {
  const content = (container as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content;
  return content?.['application/json']?.schema;
}

function valuesOf(schema: JsonSchema, branches: JsonSchema[]): { values?: string[] } {
  const all = [schema, ...branches].flatMap((s) => [
    ...(s.enum ?? []),
    ...(s.const === undefined ? [] : [s.const]),
  ]);
  const open = branches.some((b) => b.type !== 'null' && b.enum === undefined && b.const === undefined);
  if (all.length === 0 || open) return {};
  return { values: [...new Set(all.map(String))].sort() };
}

function mergeValues(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (!a || !b) return undefined;
  return [...new Set([...a, ...b])].sort();
}

/**
 * What the current document breaks of a frozen one: a member gone, no longer required, newly
 * nullable, or a value of its enum no longer allowed. Each line names where, the member and how.
 */
export function brokenMembers(
  frozen: readonly PublishedMember[],
  current: readonly PublishedMember[],
): string[] {
  const now = new Map(current.map((m) => [`${m.where}\u0000${m.member}`, m]));
  const broken: string[] = [];
  for (const old of frozen) {
    const found = now.get(`${old.where}\u0000${old.member}`);
    const at = `${old.where}: ${old.member}`;
    if (!found) broken.push(`${at} removed`);
    else {
      if (old.required && !found.required) broken.push(`${at} no longer required`);
      if (!old.nullable && found.nullable) broken.push(`${at} became nullable`);
      const lost = old.values?.filter((value) => found.values !== undefined && !found.values.includes(value));
      if (lost?.length) broken.push(`${at} no longer allows ${lost.join(', ')}`);
    }
  }
  return broken;
}
