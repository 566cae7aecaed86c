import { describe, expect, it } from 'vitest';
import { client } from '@atrium/contract/resources/system/client';
import { resourceSchema } from './fromDefinition';
import { toForm } from './fieldTypes';

describe('a secret field from its definition (the OAuth client secret)', () => {
  const field = resourceSchema(client).fields.find((f) => f.name === 'clientSecret')!;

  it('is a password-like input, never a column nor shown in a view', () => {
    expect(field).toMatchObject({ kind: 'secret', secret: true, column: false, hideInView: true });
  });

  it('is never loaded into the form from a record (the answer carries the mask)', () => {
    const values = toForm([field], { id: '1', clientSecret: '******' });
    expect(values).not.toHaveProperty('clientSecret');
  });
});
