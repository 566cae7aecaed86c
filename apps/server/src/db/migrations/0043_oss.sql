CREATE TABLE "oss_config" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"oss_code" varchar(64) NOT NULL,
	"category" smallint DEFAULT 1 NOT NULL,
	"endpoint" varchar(255),
	"bucket_name" varchar(63),
	"region" varchar(64),
	"access_key" varchar(128),
	"secret_key_sealed" text,
	"max_size_kb" integer DEFAULT 10240 NOT NULL,
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
ALTER TABLE "oss_config" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "attach" ALTER COLUMN "is_deleted" SET DATA TYPE smallint;--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "mime" varchar(100);--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "oss_id" bigint;--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "oss_code" varchar(64);--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "object_key" varchar(300);--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "create_dept" bigint;--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "update_user" bigint;--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "update_time" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "status" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "attach" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "oss_config_code_uq" ON "oss_config" USING btree ("tenant_id","oss_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "oss_config_active_uq" ON "oss_config" USING btree ("tenant_id") WHERE status = 2 and is_deleted = 0;--> statement-breakpoint
CREATE INDEX "attach_tenant_name_idx" ON "attach" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "oss_config" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));