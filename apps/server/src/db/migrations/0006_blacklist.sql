CREATE TABLE "black_info" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"type" smallint NOT NULL,
	"value" varchar(255) NOT NULL,
	"reason" varchar(255),
	"expire_time" timestamp with time zone,
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
ALTER TABLE "black_info" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE UNIQUE INDEX "black_info_value_uq" ON "black_info" USING btree ("tenant_id","type","value") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "black_info_lookup_idx" ON "black_info" USING btree ("type","value");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "black_info" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));