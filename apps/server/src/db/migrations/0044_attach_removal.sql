CREATE TABLE "attach_removal" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"attach_id" bigint NOT NULL,
	"oss_id" bigint,
	"object_key" varchar(500) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" varchar(64),
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "attach_removal_due_idx" ON "attach_removal" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "attach_removal_attach_idx" ON "attach_removal" USING btree ("attach_id");