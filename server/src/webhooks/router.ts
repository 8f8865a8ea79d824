import type { AppContext } from '../app-context';
import { endpointsService } from './endpoints-service';
import { webhookRoutes } from './routes';
import { webhookSettings } from './settings';

/** The webhooks part of the contract, registered in server/src/http/routes.ts. */
export const routesFor = (ctx: AppContext) => webhookRoutes(endpointsService(webhookSettings(ctx.config)));
