// For e2e and bench: the real start-up (migrate, seed, listen), then the test-only wrapper of the captcha store that
// appends each captcha's key and code to a file, so a browser test can type what a person would read off the image.
import fs from 'node:fs';
import { start } from '../src/server.ts';
import { watchCaptchas } from './support/captchas.ts';

const file = process.env.ATRIUM_E2E_CAPTCHA_FILE;
if (!file) throw new Error('ATRIUM_E2E_CAPTCHA_FILE must be set');
if (process.env.NODE_ENV === 'production') throw new Error('the e2e server never runs in production mode');
fs.writeFileSync(file, '');

start()
  .then(({ services }) => watchCaptchas(services, (key, text) => fs.appendFileSync(file, `${key} ${text}\n`)))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
