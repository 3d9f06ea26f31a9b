CREATE TABLE "model_inputs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"answer_id" text NOT NULL,
	"model_sees" text NOT NULL,
	"content" jsonb NOT NULL,
	"text_bytes" integer NOT NULL,
	"image_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "model_sees" text;--> statement-breakpoint
ALTER TABLE "model_inputs" ADD CONSTRAINT "model_inputs_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_inputs_conversation" ON "model_inputs" USING btree ("conversation_id","answer_id");