import { ApiError } from '#shared/platform/errors.ts';
import { createPageHandler } from '#shared/platform/http/page-handler.ts';
import { SANDBOX_PAGE_CSS, SANDBOX_PAGE_FAVICON, SANDBOX_PAGE_HEADERS } from '../../../web/sandbox/page.ts';
import { sandboxScript } from '../../../web/sandbox/script.ts';

const ASSETS = {
  'app.js': { contentType: 'text/javascript; charset=utf-8', body: sandboxScript },
  'app.css': { contentType: 'text/css; charset=utf-8', body: async () => SANDBOX_PAGE_CSS },
  'favicon.svg': { contentType: 'image/svg+xml', body: async () => SANDBOX_PAGE_FAVICON },
} as const;

/** The sandbox page's script, stylesheet and icon: the only files it loads. */
export const handler = createPageHandler('sandbox', async (event) => {
  const file = event.pathParameters?.file ?? '';
  const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file as keyof typeof ASSETS] : undefined;
  if (!asset) {
    throw new ApiError('resource_not_found', `The sandbox page has no asset ${file}.`, {
      hint: `the page loads only ${Object.keys(ASSETS).join(', ')}`,
    });
  }
  return {
    statusCode: 200,
    headers: { 'Content-Type': asset.contentType, ...SANDBOX_PAGE_HEADERS },
    body: await asset.body(),
  };
});
