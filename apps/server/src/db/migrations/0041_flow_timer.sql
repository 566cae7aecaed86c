CREATE TABLE "flow_timer" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"instance_id" bigint NOT NULL,
	"element_id" varchar(255) NOT NULL,
	"execution_id" varchar(255) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" varchar(64),
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "flow_timer_due_idx" ON "flow_timer" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "flow_timer_instance_idx" ON "flow_timer" USING btree ("tenant_id","instance_id");