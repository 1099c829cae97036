import type { McpToolOperation, RouteHandlerLoader } from '#shared/agents/mcp/http-endpoint.ts';

/** The handler module of each MCP tool of this folder's routes (functions/http/agents/route-handlers.ts). */
export const webhooksToolHandlers = {
  listEventTypes: () => import('./list-event-types.ts'),
  createWebhook: () => import('./create-webhook.ts'),
  listWebhooks: () => import('./list-webhooks.ts'),
  getWebhook: () => import('./get-webhook.ts'),
  updateWebhook: () => import('./update-webhook.ts'),
  deleteWebhook: () => import('./delete-webhook.ts'),
  listWebhookDeliveries: () => import('./list-webhook-deliveries.ts'),
  replayWebhookDelivery: () => import('./replay-webhook-delivery.ts'),
  testWebhook: () => import('./test-webhook.ts'),
} satisfies Partial<Record<McpToolOperation, RouteHandlerLoader>>;
