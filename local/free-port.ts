import { createServer } from 'node:net';

/**
 * A TCP port nothing listens on right now, found by letting the OS pick one (listen on port 0).
 * Never a fixed port: another process (a second stack, a test run) may hold it.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('Could not find a free port'))));
    });
  });
}

/** Fails fast, before anything starts, when a fixed port is taken. */
export function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} is already in use (choose another with PORT / SANDBOX_PORT, or 0 for any free port)`,
            )
          : error,
      ),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()));
  });
}
