CREATE TABLE "project_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sha256" text NOT NULL,
	"hash_salts" text[] DEFAULT '{}'::text[] NOT NULL,
	"location" text DEFAULT 'account' NOT NULL,
	"blob_sha256" text,
	"media_type" text NOT NULL,
	"size" bigint NOT NULL,
	"columns" jsonb,
	"header" boolean,
	"rows" bigint,
	"added_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_files_blob_by_location" CHECK (("project_files"."location" = 'account' and "project_files"."blob_sha256" = "project_files"."sha256") or ("project_files"."location" = 'device' and "project_files"."blob_sha256" is null))
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_blob_sha256_blobs_sha256_fk" FOREIGN KEY ("blob_sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_files_name" ON "project_files" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "project_files_blob" ON "project_files" USING btree ("blob_sha256");