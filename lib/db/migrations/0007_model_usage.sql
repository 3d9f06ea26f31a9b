CREATE TABLE "model_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"person_id" uuid,
	"conversation_id" uuid,
	"model_id" text NOT NULL,
	"kind" text NOT NULL,
	"input_tokens" bigint NOT NULL,
	"output_tokens" bigint NOT NULL,
	"cost_usd" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tokens_per_day" bigint;--> statement-breakpoint
ALTER TABLE "model_usage" ADD CONSTRAINT "model_usage_person_id_users_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_usage" ADD CONSTRAINT "model_usage_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_usage_person_created" ON "model_usage" USING btree ("person_id","created_at");--> statement-breakpoint
CREATE INDEX "model_usage_created" ON "model_usage" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "model_usage_conversation" ON "model_usage" USING btree ("conversation_id");