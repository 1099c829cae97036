import * as z from 'zod/mini';

/**
 * zod-to-openapi reads a few members that only zod classic schemas carry (`meta()`, a string's
 * `minLength`/`maxLength`/`format`, a number's `format`, a record's `keyType`/`valueType`, a
 * nullable's `unwrap()`). Our request and response schemas are zod/mini (a classic schema wires
 * every method into every instance, so a bundle holding one keeps all of zod classic: ~55 KB per
 * function). This gives mini schemas the same read-only members, computed as classic
 * computes them from the shared core (the checks in `_zod.def`, the global registry), so the
 * generator sees what it would see for the classic twin. Only the OpenAPI generation imports this
 * module; no Lambda bundle does.
 */
type CheckDef = { check?: string; minimum?: number; maximum?: number; length?: number; format?: string };
type MiniInternals = {
  _zod: {
    def: {
      checks?: { _zod: { def: CheckDef } }[];
      innerType?: unknown;
      keyType?: unknown;
      valueType?: unknown;
    };
    traits: Set<string>;
  };
};

/**
 * The bounds and format classic reads from a schema's checks (zod core's check aggregation: the
 * tightest length bounds, the last format; a format schema such as `z.email()` or `z.int()` is
 * its own first check). Only the members zod-to-openapi reads.
 */
function checksOf(schema: MiniInternals): { minimum?: number; maximum?: number; format?: string } {
  const own = schema._zod.traits.has('$ZodCheck') ? [schema._zod.def as CheckDef] : [];
  const folded: { minimum?: number; maximum?: number; format?: string } = {};
  for (const def of [...own, ...(schema._zod.def.checks ?? []).map((check) => check._zod.def)]) {
    const minimum =
      def.check === 'min_length' ? def.minimum : def.check === 'length_equals' ? def.length : undefined;
    const maximum =
      def.check === 'max_length' ? def.maximum : def.check === 'length_equals' ? def.length : undefined;
    if (minimum !== undefined && (folded.minimum === undefined || minimum > folded.minimum))
      folded.minimum = minimum;
    if (maximum !== undefined && (folded.maximum === undefined || maximum < folded.maximum))
      folded.maximum = maximum;
    if ((def.check === 'string_format' || def.check === 'number_format') && def.format)
      folded.format = def.format;
  }
  return folded;
}

const readers: Record<string, PropertyDescriptor> = {
  meta: {
    value(this: z.ZodMiniType) {
      return z.globalRegistry.get(this);
    },
  },
  unwrap: {
    value(this: MiniInternals) {
      return this._zod.def.innerType;
    },
  },
  minLength: {
    get(this: MiniInternals) {
      return checksOf(this).minimum ?? null;
    },
  },
  maxLength: {
    get(this: MiniInternals) {
      return checksOf(this).maximum ?? null;
    },
  },
  format: {
    get(this: MiniInternals) {
      return checksOf(this).format ?? null;
    },
  },
  keyType: {
    get(this: MiniInternals) {
      return this._zod.def.keyType;
    },
  },
  valueType: {
    get(this: MiniInternals) {
      return this._zod.def.valueType;
    },
  },
};

let installed = false;

/**
 * Installs the readers on every zod/mini schema class. Non-enumerable on purpose: zod copies a
 * class prototype's enumerable members onto each new instance, which would call a getter on the
 * prototype itself.
 */
export function exposeMiniSchemasToOpenApiGenerator(): void {
  if (installed) return;
  installed = true;
  for (const [name, value] of Object.entries(z)) {
    if (!name.startsWith('ZodMini') || typeof value !== 'function' || !value.prototype) continue;
    for (const [member, descriptor] of Object.entries(readers)) {
      if (!Object.hasOwn(value.prototype, member)) {
        Object.defineProperty(value.prototype, member, {
          ...descriptor,
          configurable: true,
          enumerable: false,
        });
      }
    }
  }
}
