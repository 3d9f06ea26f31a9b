CREATE TABLE "run_progress" (
	"conversation_id" uuid NOT NULL,
	"tool_call_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"outputs" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_progress_conversation_id_tool_call_id_pk" PRIMARY KEY("conversation_id","tool_call_id")
);
--> statement-breakpoint
ALTER TABLE "run_progress" ADD CONSTRAINT "run_progress_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;