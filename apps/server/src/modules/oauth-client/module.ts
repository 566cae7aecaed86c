import { randomBytes } from 'node:crypto';
import { client as clientDef } from '@atrium/contract/resources/system/client';
import { oauthClient } from '../../db/schema/index.ts';
import { badRequest } from '../../platform/errors.ts';
import { sha256Hex } from '../../platform/password.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { clientTexts as texts } from './messages.ts';

/** An update that leaves one of these out resets it, as the body's defaults always did. */
const defaults = { scope: 'all', accessTokenValidity: 3000, refreshTokenValidity: 604800 };
const unsent = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(defaults).filter(([k]) => input[k] === undefined || input[k] === null));

/**
 * OAuth clients (the menu code `client`; the business's clients are another module): platform-wide, the platform
 * administrator's alone. The secret is a `secret` field (docs/resources.md "Secrets"): stored here as a digest,
 * generated when an insert sends none; the insert's answer carries it once, later answers the definition's mask.
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
        // A secret not sent (absent, empty, the mask) is not in the input (platform/crud.ts `received`).
        const given = typeof input.clientSecret === 'string' ? input.clientSecret : undefined;
        if (existing) return { ...unsent(input), ...(given ? { clientSecretHash: sha256Hex(given) } : {}) };
        const secret = given ?? randomBytes(24).toString('base64url');
        if (!given) state.generated = secret;
        return { clientSecretHash: sha256Hex(secret) };
      },
      // The generated secret is revealed like a sent one: in the insert's answer, once.
      async afterSave({ state }) {
        return state.generated ? { clientSecret: state.generated } : {};
      },
      async beforeRemove({ auth, rows }) {
        if (rows.some((r) => r.clientId === auth.clientId)) throw badRequest(texts.ownClient);
      },
    }),
  );
});
