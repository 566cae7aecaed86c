CREATE TABLE "process_leave" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"definition_id" bigint NOT NULL,
	"instance_id" bigint NOT NULL,
	"category" integer NOT NULL,
	"start_time" timestamp NOT NULL,
	"end_time" timestamp NOT NULL,
	"days" numeric(6, 1) NOT NULL,
	"reason" varchar(500) NOT NULL,
	"task_user" bigint NOT NULL,
	"apply_user" bigint NOT NULL,
	"apply_time" timestamp with time zone NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "process_leave" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "process_leave" ADD CONSTRAINT "process_leave_definition_id_flow_definition_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."flow_definition"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_leave" ADD CONSTRAINT "process_leave_instance_id_flow_instance_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."flow_instance"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "process_leave_instance_uq" ON "process_leave" USING btree ("tenant_id","instance_id");--> statement-breakpoint
CREATE INDEX "process_leave_apply_user_idx" ON "process_leave" USING btree ("tenant_id","apply_user","id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "process_leave" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));