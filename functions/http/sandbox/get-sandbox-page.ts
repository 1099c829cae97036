import { createPageHandler } from '#shared/platform/http/page-handler.ts';
import { SANDBOX_PAGE_HEADERS, SANDBOX_PAGE_HTML } from '../../../web/sandbox/page.ts';

/** The sandbox page (docs/sandbox-page.md): static HTML; its script does the rest. */
export const handler = createPageHandler('sandbox', async () => ({
  statusCode: 200,
  headers: { 'Content-Type': 'text/html; charset=utf-8', ...SANDBOX_PAGE_HEADERS },
  body: SANDBOX_PAGE_HTML,
}));
