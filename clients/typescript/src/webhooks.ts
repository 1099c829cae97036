/**
 * Webhook signature verification: the project's receiver module (webhooks-receiver/index.ts, the
 * one `npm run webhooks:listen` and the examples use), re-exported rather than repeated.
 */
export {
  assertWebhookSignature,
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  type VerifyWebhookSignatureInput,
  verifyWebhookSignature,
  WebhookSignatureError,
  type WebhookVerificationFailure,
  type WebhookVerificationResult,
} from '../../../webhooks-receiver/index.ts';
