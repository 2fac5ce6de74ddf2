import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../lib/index.js';
import { Controller, Get, Module, moduleFromClass, Returns } from './index.js';

const Account = z.object({ id: z.string(), name: z.string() });
const stored = { id: 'a1', name: 'Acme', apiSecret: 'sk-live-123' };

@Controller('accounts')
class AccountsController {
  @Get('one')
  @Returns(Account)
  one() {
    return stored;
  }

  @Get('raw')
  @Returns(Account, { serialize: false })
  raw() {
    return stored;
  }
}

@Module({ controllers: [AccountsController] })
class AccountsModule {}

describe('@Returns', () => {
  it('serialises by the schema: undeclared fields are stripped', async () => {
    const app = await createApp(moduleFromClass(AccountsModule));
    expect(await (await app.request('/accounts/one')).json()).toEqual({ id: 'a1', name: 'Acme' });
  });

  it('with { serialize: false } sends the result as returned', async () => {
    const app = await createApp(moduleFromClass(AccountsModule));
    expect(await (await app.request('/accounts/raw')).json()).toEqual(stored);
  });
});
