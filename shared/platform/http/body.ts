import { ApiError } from '../errors.ts';
import { header, rawBody } from './request-meta.ts';
import type { RouteDefinition } from './route-definition.ts';
import type { HttpEvent } from './types.ts';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Spec section 4: a POST or PATCH that takes a body must send JSON with
 * `Content-Type: application/json`, else 415. Routes without a body (actions such as
 * deactivate, acknowledge) accept an empty body; if one is sent anyway it must still be JSON.
 * Malformed JSON is a 422 on the body as a whole: the media type was right, the content was not.
 */
export function parseJsonBody(route: Pick<RouteDefinition, 'method' | 'request'>, event: HttpEvent): unknown {
  const text = rawBody(event);
  const hasBody = text !== undefined && text.trim() !== '';
  const takesBody = route.request.body !== undefined;
  const required = takesBody && route.request.bodyRequired !== false;

  if (!hasBody) {
    if (required) throw new ApiError('unsupported_media_type', `${route.method} needs a JSON body.`);
    return undefined;
  }
  const maxBytes = route.request.maxBodyBytes;
  if (maxBytes !== undefined && Buffer.byteLength(text) > maxBytes) {
    throw new ApiError(
      'batch_too_large',
      `The body is ${Buffer.byteLength(text)} bytes; at most ${maxBytes} are accepted.`,
    );
  }
  const contentType = header(event, 'content-type');
  if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) {
    throw new ApiError(
      'unsupported_media_type',
      contentType ? `Content-Type ${contentType} is not JSON.` : 'The request body has no Content-Type.',
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.', {
      extensions: { errors: [{ field: 'body', message: (error as Error).message }] },
    });
  }
}
