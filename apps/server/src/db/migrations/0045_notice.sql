CREATE TABLE "notice" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"title" varchar(128) NOT NULL,
	"category" smallint NOT NULL,
	"release_time" timestamp with time zone NOT NULL,
	"content" text DEFAULT '' NOT NULL,
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
ALTER TABLE "notice" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "notice_seen" (
	"user_id" bigint NOT NULL,
	"seen_up_to" timestamp with time zone NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	CONSTRAINT "notice_seen_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "notice_seen" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "notice_release_idx" ON "notice" USING btree ("tenant_id","release_time") WHERE status = 2 and is_deleted = 0;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "notice" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "notice_seen" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));