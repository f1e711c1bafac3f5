import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import Link from "next/link";
import { GeistSans } from "geist/font/sans";
import { GeistMono } from "geist/font/mono";
import { Providers } from "./providers";
import { UserMenu } from "@/components/shared/user-menu";
import { InboxBadge } from "@/components/inbox/inbox-badge";
import { KeyboardHelp } from "@/components/shared/keyboard-help";
import { PasswordBanner } from "@/components/people/password-banner";
import { isSiteAdmin } from "@/server/domain/access/policy";
import { currentIdentity } from "@/server/web/current-identity";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "podwatch", template: "%s · podwatch" },
  description: "The control room for AI agent work pods",
  manifest: "/manifest.webmanifest",
  icons: {
    icon: [{ url: "/icons/icon-192.png", sizes: "192x192", type: "image/png" }],
    apple: "/icons/apple-touch-icon.png",
  },
  appleWebApp: { capable: true, title: "podwatch", statusBarStyle: "default" },
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#09090b" },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page, the not-found page too, is rendered per request and never prerendered: its scripts
  // must carry the nonce of the response's CSP (server/http/security-headers.ts).
  await connection();
  const who = await currentIdentity();
  const label =
    who.kind === "user" ? who.email : who.kind === "share" ? "Watching through a share link" : null;
  return (
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <body className="min-h-screen font-sans">
        <Providers>
          <header className="sticky top-0 z-10 border-b border-zinc-200 bg-white/80 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/80">
            <nav
              className="mx-auto flex h-12 max-w-6xl items-center gap-2 px-3 sm:gap-6 sm:px-4"
              aria-label="Main"
            >
              <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
                <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-full bg-emerald-500" />
                {/* On a phone the links need the room: the dot stands for the name, which screen readers still hear. */}
                <span className="sr-only sm:not-sr-only">podwatch</span>
              </Link>
              {who.kind !== "anonymous" && (
                <Link
                  href="/"
                  className="text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
                >
                  Now
                </Link>
              )}
              <Link
                href="/pods"
                className="text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
              >
                Pods
              </Link>
              {who.kind === "user" && (
                <Link
                  href="/agents"
                  className="text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
                >
                  Agents
                </Link>
              )}
              {who.kind !== "anonymous" && <InboxBadge />}
              {who.kind === "user" && isSiteAdmin(who) && (
                <Link
                  href="/people"
                  className="text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
                >
                  People
                </Link>
              )}
              {label &&
                (who.kind === "user" ? (
                  <UserMenu label={label} />
                ) : (
                  <span className="ml-auto text-sm text-zinc-500">{label}</span>
                ))}
            </nav>
          </header>
          <PasswordBanner show={who.kind === "user" && who.mustChangePassword === true} />
          <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
          <KeyboardHelp />
        </Providers>
      </body>
    </html>
  );
}
