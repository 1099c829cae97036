import { createHash, createHmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { DEFAULT_CREDENTIALS_PATH, readCredentials } from '#local/credentials.ts';

/**
 * How `npm run admin` reaches the operator API:
 * - AWS: `OPERATOR_API_URL=<prod ApiUrl>`; requests are SigV4-signed (service `execute-api`) with
 *   the default credential chain, e.g. `AWS_PROFILE=<a profile that assumes OperatorRoleArn>`.
 * - Local stack (default): base URL and operator token from .local/credentials.json
 *   (`LOCAL_CREDENTIALS` names another file).
 * Both signing packages ship with the AWS SDK the project already depends on.
 */
export interface OperatorClient {
  call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<unknown>;
}

/** SigV4's hash, on node:crypto (the SDK's own implementation is not a direct dependency). */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

function bytes(data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export function operatorClient(env: NodeJS.ProcessEnv = process.env): OperatorClient {
  const awsUrl = env.OPERATOR_API_URL;
  if (awsUrl) {
    const region = env.AWS_REGION ?? 'us-east-1';
    const signer = new SignatureV4({
      service: 'execute-api',
      region,
      credentials: defaultProvider(),
      sha256: NodeSha256,
    });
    return {
      call: async (method, path, body, query) => {
        const url = new URL(`${awsUrl.replace(/\/+$/, '')}${path}`);
        for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
        const text = body === undefined ? undefined : JSON.stringify(body);
        const signed = await signer.sign({
          method,
          protocol: url.protocol,
          hostname: url.hostname,
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: {
            host: url.host,
            ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(text !== undefined ? { body: text } : {}),
        });
        return send(url, method, signed.headers as Record<string, string>, text);
      },
    };
  }
  const credentials = readCredentials(env.LOCAL_CREDENTIALS ?? DEFAULT_CREDENTIALS_PATH);
  return {
    call: (method, path, body, query) => {
      const url = new URL(`${credentials.base_url.replace(/\/+$/, '')}${path}`);
      for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
      const text = body === undefined ? undefined : JSON.stringify(body);
      return send(
        url,
        method,
        {
          authorization: `Bearer ${credentials.operator_token}`,
          ...(text !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        text,
      );
    },
  };
}

/** The answer's JSON, or an Error carrying the problem's status, code, detail and field errors. */
async function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined) {
  const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const problem = (json ?? {}) as {
      code?: string;
      detail?: string;
      hint?: string;
      errors?: unknown;
      message?: string;
    };
    const fields = problem.errors ? `\n${JSON.stringify(problem.errors, null, 2)}` : '';
    throw new Error(
      `${method} ${url.pathname} → ${response.status} ${problem.code ?? ''}: ${problem.detail ?? problem.message ?? text}` +
        (problem.hint ? `\n(${problem.hint})` : '') +
        fields,
    );
  }
  return json;
}
