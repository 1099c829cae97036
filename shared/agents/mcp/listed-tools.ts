import { routes } from '#shared/api/route-table.ts';
import { mcpTools } from '../api/mcp-tools.ts';
import { generateTools, type ListedTool } from './tools.ts';

/**
 * Every tool as tools/list shows it, without its route. Run from source (tests, the local stack)
 * they are generated from the route table, as they always were. Generating them converts every
 * tool's input schemas to JSON Schema, which needs the whole route table, every schema and zod's
 * JSON Schema code at a cold start; so the Lambda bundle replaces this module with one reading
 * `mcp-tools.json` beside it, which the build writes from this very function
 * (scripts/bundle-functions.ts, `lazyDataFiles`). A call loads its route on first use.
 */
export function readListedTools(): ListedTool[] {
  return generateTools(routes, mcpTools).map(({ route: _, ...listed }) => listed);
}
