import { start } from './server.ts';

start().catch((err) => {
  console.error(err);
  process.exit(1);
});
