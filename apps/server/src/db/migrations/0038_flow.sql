CREATE TABLE "flow_definition" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"deployment_id" bigint,
	"def_key" varchar(64) NOT NULL,
	"name" varchar(100) NOT NULL,
	"def_version" integer NOT NULL,
	"category" varchar(64),
	"process_id" varchar(255) NOT NULL,
	"xml" text NOT NULL,
	"suspended" smallint DEFAULT 0 NOT NULL,
	"user_tasks" jsonb NOT NULL,
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
ALTER TABLE "flow_definition" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "flow_deployment" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"name" varchar(100) NOT NULL,
	"category" varchar(64),
	"deploy_time" timestamp with time zone NOT NULL,
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
ALTER TABLE "flow_deployment" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "flow_history" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"instance_id" bigint NOT NULL,
	"element_id" varchar(255) NOT NULL,
	"element_type" varchar(64) NOT NULL,
	"name" varchar(255),
	"task_id" bigint,
	"assignee_id" bigint,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"outcome" varchar(10),
	"comment" varchar(500),
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
ALTER TABLE "flow_history" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "flow_instance" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"definition_id" bigint NOT NULL,
	"business_key" varchar(64),
	"starter_id" bigint NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"current" jsonb NOT NULL,
	"variables" jsonb NOT NULL,
	"state" jsonb,
	"delete_reason" varchar(500),
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
ALTER TABLE "flow_instance" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "flow_model" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"model_key" varchar(64) NOT NULL,
	"name" varchar(100) NOT NULL,
	"category" varchar(64),
	"description" varchar(500),
	"xml" text,
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
ALTER TABLE "flow_model" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "flow_task" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"instance_id" bigint NOT NULL,
	"definition_id" bigint NOT NULL,
	"element_id" varchar(255) NOT NULL,
	"execution_id" varchar(255) NOT NULL,
	"name" varchar(255),
	"assignee_id" bigint,
	"candidate_roles" text[] NOT NULL,
	"form_key" varchar(255),
	"claim_time" timestamp with time zone,
	"complete_time" timestamp with time zone,
	"completed_by" bigint,
	"outcome" varchar(10),
	"comment" varchar(500),
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
ALTER TABLE "flow_task" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "flow_definition" ADD CONSTRAINT "flow_definition_deployment_id_flow_deployment_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."flow_deployment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_history" ADD CONSTRAINT "flow_history_instance_id_flow_instance_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."flow_instance"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_instance" ADD CONSTRAINT "flow_instance_definition_id_flow_definition_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."flow_definition"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task" ADD CONSTRAINT "flow_task_instance_id_flow_instance_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."flow_instance"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task" ADD CONSTRAINT "flow_task_definition_id_flow_definition_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."flow_definition"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flow_definition_key_version_uq" ON "flow_definition" USING btree ("tenant_id","def_key","def_version");--> statement-breakpoint
CREATE INDEX "flow_definition_list_idx" ON "flow_definition" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "flow_deployment_list_idx" ON "flow_deployment" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "flow_history_instance_idx" ON "flow_history" USING btree ("tenant_id","instance_id","start_time","id");--> statement-breakpoint
CREATE INDEX "flow_instance_starter_idx" ON "flow_instance" USING btree ("tenant_id","starter_id","id");--> statement-breakpoint
CREATE INDEX "flow_instance_status_idx" ON "flow_instance" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "flow_instance_definition_idx" ON "flow_instance" USING btree ("tenant_id","definition_id");--> statement-breakpoint
CREATE UNIQUE INDEX "flow_model_key_uq" ON "flow_model" USING btree ("tenant_id","model_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "flow_model_list_idx" ON "flow_model" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "flow_task_todo_idx" ON "flow_task" USING btree ("tenant_id","assignee_id","status","id");--> statement-breakpoint
CREATE INDEX "flow_task_claim_idx" ON "flow_task" USING gin ("candidate_roles") WHERE status = 1 and assignee_id is null;--> statement-breakpoint
CREATE INDEX "flow_task_claimable_idx" ON "flow_task" USING btree ("tenant_id","id") WHERE status = 1 and assignee_id is null;--> statement-breakpoint
CREATE INDEX "flow_task_done_idx" ON "flow_task" USING btree ("tenant_id","completed_by","complete_time");--> statement-breakpoint
CREATE INDEX "flow_task_instance_idx" ON "flow_task" USING btree ("tenant_id","instance_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "flow_definition" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "flow_deployment" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "flow_history" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "flow_instance" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "flow_model" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "flow_task" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));