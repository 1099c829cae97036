import * as z from 'zod/mini';

export const errorRegistrySchema = z
  .object({
    data: z.array(
      z.object({ code: z.string(), status: z.number().check(z.int()), title: z.string(), hint: z.string() }),
    ),
  })
  .check(z.meta({ id: 'ErrorRegistry' }));
