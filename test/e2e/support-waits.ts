/**
 * How long an e2e test waits for an asynchronous effect of the stack (a queue's worker, a webhook
 * delivery, a GPS visit recorded, the sandbox page's next poll) before it fails. Each takes well
 * under a second on an idle machine and a loaded 2-core one runs 2–3× slower: 20 s fails an effect
 * that never comes, never a busy machine, and leaves room inside the e2e test timeout (60 s).
 */
export const ASYNC_EFFECT_TIMEOUT_MS = 20_000;
