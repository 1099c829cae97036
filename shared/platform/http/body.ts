import { ApiError } from '../errors.ts';
import { findJsonSyntaxProblem } from './json-syntax.ts';
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
  } catch {
    throw invalidJson(text);
  }
}

/**
 * 422 on the body as a whole, in our words: what was expected and where, never the parser's
 * message or a piece of the body (json-syntax.ts).
 */
function invalidJson(text: string): ApiError {
  if (text.startsWith(BYTE_ORDER_MARK)) {
    return new ApiError(
      'validation_failed',
      'The request body starts with a byte-order mark (U+FEFF) before the JSON.',
      {
        hint: 'send the body as UTF-8 without a byte-order mark',
        extensions: { errors: [{ field: 'body', message: 'must not start with a byte-order mark' }] },
      },
    );
  }
  const found = findJsonSyntaxProblem(text);
  const message = found
    ? `is not valid JSON: ${found.problem} at line ${found.line}, column ${found.column}`
    : 'is not valid JSON';
  return new ApiError('validation_failed', `The request body ${message}.`, {
    hint: found
      ? `send one JSON object; fix the body at line ${found.line}, column ${found.column}`
      : 'send one JSON object',
    extensions: { errors: [{ field: 'body', message }] },
  });
}

const BYTE_ORDER_MARK = '\uFEFF';
