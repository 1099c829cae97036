import * as z from 'zod';

export const errorRegistrySchema = z
  .object({
    data: z.array(
      z.object({ code: z.string(), status: z.number().int(), title: z.string(), hint: z.string() }),
    ),
  })
  .meta({ id: 'ErrorRegistry' });
