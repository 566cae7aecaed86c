CREATE TABLE "approval" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"refer_type" varchar(20) NOT NULL,
	"refer_id" bigint NOT NULL,
	"title" varchar(200) NOT NULL,
	"applicant_name" varchar(50),
	"applicant_phone" varchar(20),
	"region_code" varchar(12),
	"submit_time" timestamp with time zone NOT NULL,
	"approver_id" bigint,
	"approver_name" varchar(50),
	"approve_time" timestamp with time zone,
	"opinion" varchar(500),
	"remark" varchar(500),
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
ALTER TABLE "approval" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "client_code" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"phone" varchar(11) NOT NULL,
	"type" smallint NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"agent_hash" varchar(64) NOT NULL,
	"ip" varchar(45) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	"ticket_hash" varchar(64),
	"ticket_expires_at" timestamp with time zone,
	"ticket_used_at" timestamp with time zone,
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
ALTER TABLE "client_code" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "client_info" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"client_name" varchar(100) NOT NULL,
	"client_type" smallint NOT NULL,
	"credit_code" varchar(18) NOT NULL,
	"contact_name" varchar(30) NOT NULL,
	"contact_id_card" varchar(18),
	"operator_tel" varchar(11) NOT NULL,
	"email" varchar(100),
	"region_code" varchar(12) NOT NULL,
	"address" varchar(200),
	"lng" numeric(10, 6),
	"lat" numeric(10, 6),
	"licence_attach_id" varchar(500),
	"app_client_account" varchar(45),
	"source" smallint DEFAULT 2 NOT NULL,
	"remark" varchar(500),
	"pending_password" text,
	"account_user_id" bigint,
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
ALTER TABLE "client_info" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "client_track" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"client_id" bigint NOT NULL,
	"track_type" smallint NOT NULL,
	"content" varchar(2000) NOT NULL,
	"track_time" timestamp with time zone NOT NULL,
	"next_track_time" timestamp with time zone,
	"outbox_id" bigint,
	"tracker_name" varchar(50),
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
ALTER TABLE "client_track" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"channel" varchar(8) NOT NULL,
	"recipient" varchar(255) NOT NULL,
	"subject" varchar(255),
	"content" text,
	"html" text,
	"attach_ids" varchar(2000),
	"template_code" varchar(64),
	"params" text,
	"config_id" bigint,
	"ref_type" varchar(32),
	"ref_id" bigint,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_attempt_time" timestamp with time zone,
	"last_error" varchar(1000),
	"sent_time" timestamp with time zone,
	"provider" varchar(32),
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
ALTER TABLE "outbox" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "outbox_job" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" varchar(64),
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_config" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"sms_code" varchar(64) NOT NULL,
	"category" smallint DEFAULT 1 NOT NULL,
	"template_id" varchar(64),
	"content" varchar(500),
	"sign_name" varchar(64),
	"access_key" varchar(128),
	"secret_key_sealed" text,
	"app_id" varchar(64),
	"region" varchar(64),
	"endpoint" varchar(500),
	"remark" varchar(255),
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
ALTER TABLE "sms_config" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "smtp_config" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"name" varchar(64) NOT NULL,
	"host" varchar(255) NOT NULL,
	"port" integer DEFAULT 465 NOT NULL,
	"tls_mode" smallint DEFAULT 3 NOT NULL,
	"username" varchar(255),
	"password_sealed" text,
	"from_address" varchar(255) NOT NULL,
	"from_name" varchar(64),
	"remark" varchar(255),
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
ALTER TABLE "smtp_config" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "sys_config_region" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"region_code" varchar(12) NOT NULL,
	"sys_type" varchar(64) NOT NULL,
	"config" jsonb NOT NULL,
	"remark" varchar(255),
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
ALTER TABLE "sys_config_region" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "client_track" ADD CONSTRAINT "client_track_client_id_client_info_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client_info"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_pending_uq" ON "approval" USING btree ("tenant_id","refer_type","refer_id") WHERE status = 0 and is_deleted = 0;--> statement-breakpoint
CREATE INDEX "approval_refer_idx" ON "approval" USING btree ("tenant_id","refer_type","refer_id","id");--> statement-breakpoint
CREATE INDEX "approval_status_idx" ON "approval" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "approval_region_idx" ON "approval" USING btree ("tenant_id","region_code" varchar_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "client_code_phone_idx" ON "client_code" USING btree ("tenant_id","phone","id");--> statement-breakpoint
CREATE INDEX "client_code_ip_idx" ON "client_code" USING btree ("tenant_id","ip","id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_code_ticket_uq" ON "client_code" USING btree ("ticket_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "client_info_tel_uq" ON "client_info" USING btree ("tenant_id","operator_tel") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "client_info_account_uq" ON "client_info" USING btree ("tenant_id","app_client_account") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "client_info_region_idx" ON "client_info" USING btree ("tenant_id","region_code" varchar_pattern_ops,"id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "client_info_tenant_idx" ON "client_info" USING btree ("tenant_id","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "client_info_status_idx" ON "client_info" USING btree ("tenant_id","status","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "client_track_client_idx" ON "client_track" USING btree ("tenant_id","client_id","id");--> statement-breakpoint
CREATE INDEX "outbox_list_idx" ON "outbox" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "outbox_ref_idx" ON "outbox" USING btree ("tenant_id","ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "outbox_job_due_idx" ON "outbox_job" USING btree ("due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_config_code_uq" ON "sms_config" USING btree ("tenant_id","sms_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_config_active_uq" ON "sms_config" USING btree ("tenant_id") WHERE status = 2 and is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "smtp_config_name_uq" ON "smtp_config" USING btree ("tenant_id","name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "smtp_config_active_uq" ON "smtp_config" USING btree ("tenant_id") WHERE status = 2 and is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "sys_config_region_uq" ON "sys_config_region" USING btree ("tenant_id","region_code","sys_type") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "sys_config_region_region_idx" ON "sys_config_region" USING btree ("region_code");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "approval" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "client_code" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "client_info" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "client_track" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "outbox" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sms_config" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "smtp_config" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sys_config_region" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));