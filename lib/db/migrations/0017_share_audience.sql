ALTER TABLE "group_members" ADD COLUMN "source" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "audience" text DEFAULT 'anyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_source" CHECK ("group_members"."source" in ('admin', 'oidc'));--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_audience" CHECK ("shares"."audience" in ('anyone', 'signed_in'));