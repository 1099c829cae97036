import type { Stage } from '../config.ts';
import { currentStage } from '../config.ts';
import { ApiError } from '../errors.ts';
import { createFallbackHandler } from './chain.ts';
import type { HttpEvent, HttpResponse } from './types.ts';

/**
 * A page served beside the API (the sandbox page): no key, the response exactly as written (HTML,
 * a script), errors still problem+json with a request id. On any other stage than `servedOn` it
 * answers 404 `resource_not_found` with a hint naming the stage that serves it.
 */
export function createPageHandler(servedOn: Stage, respond: (event: HttpEvent) => Promise<HttpResponse>) {
  return createFallbackHandler(async (event) => {
    if (currentStage() !== servedOn) {
      throw new ApiError('resource_not_found', `${event.rawPath} is served only by the ${servedOn} stage.`, {
        hint: `open ${event.rawPath} on the ${servedOn} base URL (sandbox_base_url in the local credentials file)`,
      });
    }
    return respond(event);
  });
}
