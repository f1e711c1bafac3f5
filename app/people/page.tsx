import type { Metadata } from "next";
import { appContext } from "@/server/app-context";
import { isSiteAdmin } from "@/server/domain/access/policy";
import { listPeople } from "@/server/access/list-people";
import { requireViewer } from "@/server/web/current-identity";
import { InviteForm } from "@/components/people/invite-form";
import { PeopleList } from "@/components/people/people-list";
import { Section } from "@/components/shared/ui";

export const metadata: Metadata = { title: "People" };
export const dynamic = "force-dynamic";

export default async function PeoplePage({ searchParams }: { searchParams: Promise<{ email?: string }> }) {
  const who = await requireViewer("/people");
  if (!isSiteAdmin(who)) {
    return (
      <div className="space-y-2">
        <h1 className="text-xl font-semibold tracking-tight">People</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Only site administrators invite and manage people. Ask one to invite your colleague.
        </p>
      </div>
    );
  }
  const { email } = await searchParams;
  const people = await listPeople(appContext().store);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">People</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Who can sign in. Invite someone by email: they choose their own password through a one-time link.
          Give them access from a pod&apos;s Members tab.
        </p>
      </div>
      <Section title="Invite a person">
        <InviteForm initialEmail={typeof email === "string" ? email.slice(0, 254) : ""} />
      </Section>
      <Section title={`People (${people.users.length})`}>
        <PeopleList people={people} />
      </Section>
    </div>
  );
}
