CREATE TABLE "api_scope" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"menu_id" bigint NOT NULL,
	"resource_code" varchar(64) NOT NULL,
	"scope_name" varchar(255) NOT NULL,
	"scope_path" varchar(255) NOT NULL,
	"scope_method" varchar(8) DEFAULT '*' NOT NULL,
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
CREATE TABLE "data_scope" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"menu_id" bigint NOT NULL,
	"resource_code" varchar(64) NOT NULL,
	"scope_name" varchar(255) NOT NULL,
	"scope_type" integer NOT NULL,
	"scope_column" varchar(64),
	"scope_value" varchar(2000),
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
CREATE TABLE "role_scope" (
	"role_id" bigint NOT NULL,
	"scope_id" bigint NOT NULL,
	"scope_category" smallint NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	CONSTRAINT "role_scope_role_id_scope_id_pk" PRIMARY KEY("role_id","scope_id")
);
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "user_ext" text;--> statement-breakpoint
CREATE INDEX "api_scope_tenant_idx" ON "api_scope" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "data_scope_tenant_resource_idx" ON "data_scope" USING btree ("tenant_id","resource_code");--> statement-breakpoint
CREATE INDEX "role_scope_tenant_idx" ON "role_scope" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "user_tenant_id_idx" ON "user" USING btree ("tenant_id","id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
ALTER TABLE "data_scope" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "data_scope" USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
--> statement-breakpoint
ALTER TABLE "api_scope" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "api_scope" USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
--> statement-breakpoint
ALTER TABLE "role_scope" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "role_scope" USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
