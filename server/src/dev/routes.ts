import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { AppContext } from '../lib/context';
import { notFound } from '../lib/problem';

const s = initServer();

/** The dev mailbox: only in email dev mode and only with a valid x-platform-key; otherwise 404. */
export const devRoutes = ({ mailer }: AppContext) =>
  s.router(contract.dev, {
    mailbox: async ({ query, req }) => {
      if (!mailer.devMode || !req.auth.platform) throw notFound('Route');
      const emails = mailer.mailbox(query.to).map((e) => ({
        id: e.id,
        to: e.to,
        subject: e.subject,
        text: e.text,
        html: e.html,
        links: e.links,
        sentAt: e.sentAt.toISOString(),
      }));
      return { status: 200, body: { emails } };
    },
  });
