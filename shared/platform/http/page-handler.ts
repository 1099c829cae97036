import type { Stage } from '../config.ts';
import { currentStage, sandboxBaseUrl } from '../config.ts';
import { ApiError } from '../errors.ts';
import { createFallbackHandler } from './chain.ts';
import type { HttpEvent, HttpResponse } from './types.ts';

/**
 * A page served beside the API (the sandbox page): no key, the response exactly as written (HTML,
 * a script), errors still problem+json with a request id. On any other stage than `servedOn` it
 * answers 404 `resource_not_found` with a hint naming the stage that serves it, and its URL where
 * this stage knows it (the sandbox's, config.ts `sandboxBaseUrl`).
 */
export function createPageHandler(servedOn: Stage, respond: (event: HttpEvent) => Promise<HttpResponse>) {
  return createFallbackHandler(async (event) => {
    if (currentStage() !== servedOn) {
      const url = servedOn === 'sandbox' ? sandboxBaseUrl() : undefined;
      throw new ApiError('resource_not_found', `${event.rawPath} is served only by the ${servedOn} stage.`, {
        hint: url
          ? `open ${url}${event.rawPath} (the ${servedOn} stage)`
          : `open ${event.rawPath} on the ${servedOn} stage’s base URL`,
      });
    }
    return respond(event);
  });
}
