// Mails an invite or reset link when PODWATCH_SMTP_URL is set. The link is in
// the mail's body only: never logged, never kept (only its hash is stored).
import type { Config } from "../config";
import type { InviteKind } from "../wire/access";

export async function sendInviteMail(
  smtp: NonNullable<Config["smtp"]>,
  mail: { to: string; url: string; kind: InviteKind; expiresAt: string },
): Promise<void> {
  const { createTransport } = await import("nodemailer"); // loaded by the first mail, not by every server at start
  const transport = createTransport(smtp.url);
  const until = new Date(mail.expiresAt).toUTCString();
  const [subject, line] =
    mail.kind === "invite"
      ? [
          "You are invited to podwatch",
          "You are invited to podwatch, the control room for AI agent work pods. Open this link to choose your password:",
        ]
      : [
          "Choose a new podwatch password",
          "A podwatch administrator reset your password. Open this link to choose a new one:",
        ];
  try {
    await transport.sendMail({
      from: smtp.from,
      to: mail.to,
      subject,
      text: `${line}\n\n${mail.url}\n\nThe link works once, until ${until}.\n`,
    });
  } finally {
    transport.close();
  }
}
