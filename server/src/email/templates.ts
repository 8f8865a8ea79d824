import { escapeHtml } from '../lib/html';
import type { OutgoingEmail } from './mailer';


/** One call-to-action email: a plain-text part and an HTML part, both carrying the link. */
function actionEmail(to: string, subject: string, intro: string, action: string, link: string, outro: string): OutgoingEmail {
  const text = `${intro}\n\n${action}: ${link}\n\n${outro}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>
<p style="color:#666">${escapeHtml(outro)}<br>${escapeHtml(link)}</p>
</body></html>`;
  return { to, subject, text, html, links: [link] };
}

export const verifyEmail = (to: string, name: string, link: string) =>
  actionEmail(
    to,
    'Confirm your email for Gathercast',
    `Hi ${name}, please confirm that ${to} is your email address.`,
    'Confirm email',
    link,
    'The link works for 48 hours. If you did not sign up, ignore this email.',
  );

export const resetEmail = (to: string, link: string) =>
  actionEmail(
    to,
    'Reset your Gathercast password',
    'Someone asked to reset the password of the Gathercast account for this address.',
    'Choose a new password',
    link,
    'The link works once, for 1 hour, and signs out every other session. If it was not you, ignore this email.',
  );

export const inviteEmail = (to: string, inviter: string, target: string, role: string, link: string) =>
  actionEmail(
    to,
    `You are invited to ${target} on Gathercast`,
    `${inviter} invited you to ${target} as ${role}.`,
    'Accept the invite',
    link,
    'The invite expires in 14 days.',
  );

export const tableNotesEmail = (to: string, name: string | null, eventTitle: string, tableLabel: string, link: string) =>
  actionEmail(
    to,
    `Your table notes: ${eventTitle} (${tableLabel})`,
    `${name ? `Hi ${name}, here` : 'Here'} are the notes of your table (${tableLabel}) at ${eventTitle}: summary, themes, ideas, questions and who said what.`,
    'Read your table notes',
    link,
    'The link is personal and works for 90 days.',
  );
