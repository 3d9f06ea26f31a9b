/**
 * A mail server for tests (smtp-server on loopback, no TLS, no login): every mail it accepts is
 * kept, its recipients and its text with quoted-printable soft line breaks and `=3D` undone (the
 * two a link meets), so a test reads the links a person would be sent.
 */
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string; text: string };
export type SmtpSink = { url: string; received: ReceivedMail[]; close(): Promise<void> };

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
