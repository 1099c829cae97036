import { writeFileSync } from 'node:fs';
import { generateClientFiles } from '../clients/typescript/codegen.ts';

/** `npm run client:generate`: regenerates the TypeScript client's types from openapi.json. */
for (const [file, source] of Object.entries(await generateClientFiles())) {
  writeFileSync(file, source);
  console.log(`Wrote ${file}`);
}
