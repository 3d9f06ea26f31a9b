CREATE TABLE "share_blobs" (
	"share_id" text NOT NULL,
	"sha256" text NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "share_blobs_share_id_sha256_pk" PRIMARY KEY("share_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "share_files" (
	"share_id" text NOT NULL,
	"name" text NOT NULL,
	"sha256" text NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "share_files_share_id_name_pk" PRIMARY KEY("share_id","name")
);
--> statement-breakpoint
ALTER TABLE "conversation_blobs" ADD COLUMN "media_type" text;--> statement-breakpoint
ALTER TABLE "conversation_blobs" ADD COLUMN "size" integer;--> statement-breakpoint
-- Each reference takes the media type its owner gave it: a file's own, else the blob's.
UPDATE "conversation_blobs" cb SET "media_type" = b."media_type", "size" = b."size" FROM "blobs" b WHERE b."sha256" = cb."sha256";--> statement-breakpoint
UPDATE "conversation_blobs" cb SET "media_type" = f."media_type" FROM "conversation_files" f WHERE f."conversation_id" = cb."conversation_id" AND f."sha256" = cb."sha256";--> statement-breakpoint
ALTER TABLE "conversation_blobs" ALTER COLUMN "media_type" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_blobs" ALTER COLUMN "size" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "conversations" c SET "stored_bytes" = coalesce((SELECT sum(cb."size") FROM "conversation_blobs" cb WHERE cb."conversation_id" = c."id"), 0);--> statement-breakpoint
UPDATE "users" u SET "stored_bytes" = coalesce((SELECT sum(c."stored_bytes") FROM "conversations" c WHERE c."owner_id" = u."id"), 0);--> statement-breakpoint
ALTER TABLE "share_blobs" ADD CONSTRAINT "share_blobs_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_blobs" ADD CONSTRAINT "share_blobs_sha256_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_files" ADD CONSTRAINT "share_files_share_id_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_files" ADD CONSTRAINT "share_files_sha256_blobs_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Existing shares keep only what their snapshot references, and the files that existed when they were last updated.
INSERT INTO "share_blobs" SELECT s."id", cb."sha256", cb."media_type", cb."size" FROM "shares" s JOIN "conversation_blobs" cb ON cb."conversation_id" = s."conversation_id" WHERE position('blob:' || cb."sha256" in s."snapshot"::text) > 0 ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "share_files" SELECT s."id", f."name", f."sha256", f."media_type", f."size" FROM "shares" s JOIN "conversation_files" f ON f."conversation_id" = s."conversation_id" WHERE f."created_at" <= s."updated_at" ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "blobs" DROP COLUMN "media_type";