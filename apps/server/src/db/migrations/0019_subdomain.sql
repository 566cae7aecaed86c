CREATE TABLE "sub_domain" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"client_id" bigint NOT NULL,
	"app_client_account" varchar(45),
	"sub_domain" varchar(32) NOT NULL,
	"full_domain" varchar(255) NOT NULL,
	"region_code" varchar(12),
	"bind_count" integer DEFAULT 0 NOT NULL,
	"bind_limit" integer DEFAULT 10 NOT NULL,
	"start_time" timestamp with time zone,
	"stop_time" timestamp with time zone,
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
ALTER TABLE "sub_domain" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "sub_domain_host" (
	"full_domain" varchar(255) PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"sub_domain_id" bigint NOT NULL,
	"running" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sub_domain" ADD CONSTRAINT "sub_domain_client_id_client_info_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client_info"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subdomain_label_uq" ON "sub_domain" USING btree ("tenant_id",lower("sub_domain")) WHERE is_deleted = 0 and status <> 4;--> statement-breakpoint
CREATE INDEX "subdomain_client_idx" ON "sub_domain" USING btree ("tenant_id","client_id","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "subdomain_region_idx" ON "sub_domain" USING btree ("tenant_id","region_code" varchar_pattern_ops,"id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "subdomain_tenant_idx" ON "sub_domain" USING btree ("tenant_id","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "sub_domain_host_record_uq" ON "sub_domain_host" USING btree ("tenant_id","sub_domain_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sub_domain" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));