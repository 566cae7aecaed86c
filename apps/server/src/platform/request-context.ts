import type { AuthContext } from './tokens.ts';
import type { Lang } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    lang: Lang;
  }
  interface FastifyContextConfig {
    /** 'none': public; 'user' (default): a valid access token is required. */
    auth?: 'none' | 'user';
    /** A menu/button code the caller's roles must hold (a list: any one of them). */
    permission?: string | string[];
    /** Only the platform administrator (role administrator in tenant 000000) may call it. */
    platform?: boolean;
    /**
     * A read (the CRUD factory's list and detail): the request may be admitted on the session's last live state, the
     * check riding with its first read (platform/guard.ts, docs/server.md "Live state and cache epochs").
     */
    liveInRead?: boolean;
    /** Open to a user who must change their password first (a declared route's `whileMustChange`). */
    whileMustChange?: boolean;
    /** Field labels of the route's input, so a validation message names a field by its label. */
    labels?: Record<string, { zh: string; en: string }>;
  }
}

export {};
