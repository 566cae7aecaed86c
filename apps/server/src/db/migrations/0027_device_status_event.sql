CREATE TABLE "device_status_event" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_id" bigint NOT NULL,
	"device_code" varchar(20) NOT NULL,
	"region_code" varchar(12) NOT NULL,
	"device_type" varchar(16) NOT NULL,
	"from_status" integer NOT NULL,
	"to_status" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"tenant_id" varchar(12) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_status_event" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE INDEX "device_status_event_at_idx" ON "device_status_event" USING btree ("tenant_id","at");--> statement-breakpoint
CREATE INDEX "device_status_event_device_idx" ON "device_status_event" USING btree ("tenant_id","device_id","at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "device_status_event" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));