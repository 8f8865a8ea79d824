import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { AppContext } from '../lib/context';
import { notFound } from '../lib/problem';

const s = initServer();

/** The dev mailbox: only in email dev mode and only with a valid x-platform-key; otherwise 404. */
export const devRoutes = ({ emails: queue, pool }: AppContext) =>
  s.router(contract.dev, {
    mailbox: async ({ query, req }) => {
      if (!queue.devMode || !req.auth.platform) throw notFound('Route');
      // Emails are sent by the job worker just after their change commits: show what was queued before this call.
      await queue.settled(pool);
      const emails = queue.mailbox(query.to).map((e) => ({
        id: e.id,
        to: e.to,
        subject: e.subject,
        text: e.text,
        html: e.html,
        links: e.links,
        attachments: e.attachments ?? [],
        sentAt: e.sentAt.toISOString(),
      }));
      return { status: 200, body: { emails } };
    },
  });
