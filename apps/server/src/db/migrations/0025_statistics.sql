CREATE TABLE "stat_channel_counter" (
	"district" varchar(6) NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	CONSTRAINT "stat_channel_counter_pk" PRIMARY KEY("tenant_id","district")
);
--> statement-breakpoint
ALTER TABLE "stat_channel_counter" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "stat_device_counter" (
	"district" varchar(6) NOT NULL,
	"device_type" varchar(16) NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"online" integer DEFAULT 0 NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	CONSTRAINT "stat_device_counter_pk" PRIMARY KEY("tenant_id","district","device_type")
);
--> statement-breakpoint
ALTER TABLE "stat_device_counter" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "stat_device_daily" (
	"day" date NOT NULL,
	"district" varchar(6) NOT NULL,
	"device_type" varchar(16) NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"online" integer DEFAULT 0 NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	CONSTRAINT "stat_device_daily_pk" PRIMARY KEY("tenant_id","day","district","device_type")
);
--> statement-breakpoint
ALTER TABLE "stat_device_daily" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "stat_device_daily_district_idx" ON "stat_device_daily" USING btree ("tenant_id","district","day");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "stat_channel_counter" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "stat_device_counter" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "stat_device_daily" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));