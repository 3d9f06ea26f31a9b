ALTER TABLE "conversation_files" DROP CONSTRAINT "conversation_files_sha256_blobs_sha256_fk";
--> statement-breakpoint
ALTER TABLE "share_files" DROP CONSTRAINT "share_files_sha256_blobs_sha256_fk";
--> statement-breakpoint
ALTER TABLE "conversation_files" ALTER COLUMN "size" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "share_files" ALTER COLUMN "size" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "conversation_files" ADD COLUMN "location" text DEFAULT 'account' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_files" ADD COLUMN "blob_sha256" text;--> statement-breakpoint
ALTER TABLE "share_files" ADD COLUMN "location" text DEFAULT 'account' NOT NULL;--> statement-breakpoint
ALTER TABLE "share_files" ADD COLUMN "blob_sha256" text;--> statement-breakpoint
-- Every existing file was uploaded: its blob is its own hash.
UPDATE "conversation_files" SET "blob_sha256" = "sha256";--> statement-breakpoint
UPDATE "share_files" SET "blob_sha256" = "sha256";--> statement-breakpoint
ALTER TABLE "conversation_files" ADD CONSTRAINT "conversation_files_blob_sha256_blobs_sha256_fk" FOREIGN KEY ("blob_sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_files" ADD CONSTRAINT "share_files_blob_sha256_blobs_sha256_fk" FOREIGN KEY ("blob_sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_files" ADD CONSTRAINT "conversation_files_blob_by_location" CHECK (("conversation_files"."location" = 'account' and "conversation_files"."blob_sha256" = "conversation_files"."sha256") or ("conversation_files"."location" = 'device' and "conversation_files"."blob_sha256" is null));--> statement-breakpoint
ALTER TABLE "share_files" ADD CONSTRAINT "share_files_blob_by_location" CHECK (("share_files"."location" = 'account' and "share_files"."blob_sha256" = "share_files"."sha256") or ("share_files"."location" = 'device' and "share_files"."blob_sha256" is null));