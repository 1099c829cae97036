/**
 * The request header a partner key names the fleet it acts on with. Kept apart from the HTTP chain
 * (http/authorize.ts reads it) because use cases word their problems with it too, and a use case
 * imports nothing from `http/` (docs/architecture.md#the-rules-the-build-enforces).
 */
export const FLEET_HEADER = 'SVC-Fleet';
