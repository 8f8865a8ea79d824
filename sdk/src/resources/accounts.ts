import type { RequestCore } from '../core';
import type { AccountsResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Accounts: sign up, sign in, the signed-in account, email verification and password reset. */
export const accounts = (core: RequestCore): AccountsResource =>
  resource<AccountsResource>(core, routes.accounts);
