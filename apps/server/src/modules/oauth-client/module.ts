import { randomBytes } from 'node:crypto';
import { client as clientDef } from '@atrium/contract/resources/system/client';
import { oauthClient } from '../../db/schema/index.ts';
import { badRequest } from '../../platform/errors.ts';
import { sha256Hex } from '../../platform/password.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { clientTexts as texts } from './messages.ts';

/** What every answer shows in place of the secret, which is stored as a digest only. */
const MASK = '******';

/** An update that leaves one of these out resets it, as the body's defaults always did. */
const defaults = { scope: 'all', accessTokenValidity: 3000, refreshTokenValidity: 604800 };
const unsent = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(defaults).filter(([k]) => input[k] === undefined || input[k] === null));

/**
 * OAuth clients (the menu code `client`; the business's clients are another module): platform-wide, the platform
 * administrator's alone. The secret is shown once, in the answer to the insert; later answers carry the mask.
 */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(clientDef, oauthClient, {
      async beforeSave({ input, existing, state }) {
        const uri = input.webServerRedirectUri;
        // The definition's pattern is the screen's check; the URL parser has the last word, as before.
        if (typeof uri === 'string' && uri && !URL.canParse(uri)) {
          const text = clientDef.fields.webServerRedirectUri.pattern.message;
          throw badRequest(text, [{ field: 'webServerRedirectUri', message: text }]);
        }
        const given = typeof input.clientSecret === 'string' && input.clientSecret ? input.clientSecret : undefined;
        if (existing) return { ...unsent(input), ...(given ? { clientSecretHash: sha256Hex(given) } : {}) };
        const secret = given ?? randomBytes(24).toString('base64url');
        state.secret = secret;
        return { clientSecretHash: sha256Hex(secret) };
      },
      async afterSave({ state }) {
        return { clientSecret: (state.secret as string | undefined) ?? MASK };
      },
      async decorate(_tx, _auth, rows) {
        return rows.map((r) => ({ ...r, clientSecret: MASK }));
      },
      async beforeRemove(_tx, _ids, auth, rows) {
        if (rows.some((r) => r.clientId === auth.clientId)) throw badRequest(texts.ownClient);
      },
    }),
  );
});
