CREATE TABLE "camera_device" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_code" varchar(20) NOT NULL,
	"name" varchar(64) NOT NULL,
	"device_type" varchar(16) NOT NULL,
	"manufacturer" varchar(64),
	"model" varchar(64),
	"region_code" varchar(12) NOT NULL,
	"address" varchar(255),
	"lng" numeric(10, 6),
	"lat" numeric(10, 6),
	"client_id" bigint,
	"nvr_id" bigint,
	"channel_no" integer,
	"ip" varchar(64),
	"port" integer,
	"protocol" varchar(16),
	"stream_url_sealed" text,
	"stream_url" varchar(512),
	"ptz" smallint DEFAULT 0 NOT NULL,
	"onvif_url" varchar(512),
	"onvif_user" varchar(64),
	"onvif_password_sealed" text,
	"config_template_id" bigint,
	"config_values" jsonb,
	"sub_domain_id" bigint,
	"secret_sealed" text,
	"last_seen" timestamp with time zone,
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
ALTER TABLE "camera_device" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "config_template" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"name" varchar(64) NOT NULL,
	"device_type" varchar(16) NOT NULL,
	"manufacturer" varchar(64),
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
ALTER TABLE "config_template" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "config_template_item" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"template_id" bigint NOT NULL,
	"item_key" varchar(64) NOT NULL,
	"item_name" varchar(64) NOT NULL,
	"value_type" varchar(16) NOT NULL,
	"default_value" varchar(255),
	"options" varchar(500),
	"unit" varchar(32),
	"min" numeric,
	"max" numeric,
	"required" smallint DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
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
ALTER TABLE "config_template_item" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "device_dict" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"code" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"name_en" varchar(64),
	"sort" integer DEFAULT 0 NOT NULL,
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
ALTER TABLE "device_dict" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "nvr_channel" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"nvr_device_id" bigint NOT NULL,
	"channel_no" integer NOT NULL,
	"channel_code" varchar(20),
	"name" varchar(64),
	"camera_id" bigint,
	"region_code" varchar(12),
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
ALTER TABLE "nvr_channel" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "camera_device" ADD CONSTRAINT "camera_device_client_id_client_info_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client_info"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_device" ADD CONSTRAINT "camera_device_nvr_id_camera_device_id_fk" FOREIGN KEY ("nvr_id") REFERENCES "public"."camera_device"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_device" ADD CONSTRAINT "camera_device_config_template_id_config_template_id_fk" FOREIGN KEY ("config_template_id") REFERENCES "public"."config_template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camera_device" ADD CONSTRAINT "camera_device_sub_domain_id_sub_domain_id_fk" FOREIGN KEY ("sub_domain_id") REFERENCES "public"."sub_domain"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_template_item" ADD CONSTRAINT "config_template_item_template_id_config_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."config_template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nvr_channel" ADD CONSTRAINT "nvr_channel_nvr_device_id_camera_device_id_fk" FOREIGN KEY ("nvr_device_id") REFERENCES "public"."camera_device"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nvr_channel" ADD CONSTRAINT "nvr_channel_camera_id_camera_device_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."camera_device"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "camera_device_code_uq" ON "camera_device" USING btree ("tenant_id","device_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "camera_device_region_idx" ON "camera_device" USING btree ("tenant_id","region_code" varchar_pattern_ops,"id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "camera_device_client_idx" ON "camera_device" USING btree ("tenant_id","client_id","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "camera_device_nvr_idx" ON "camera_device" USING btree ("tenant_id","nvr_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "camera_device_tenant_idx" ON "camera_device" USING btree ("tenant_id","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "config_template_tenant_idx" ON "config_template" USING btree ("tenant_id","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "config_template_type_idx" ON "config_template" USING btree ("tenant_id","device_type") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "config_template_item_key_uq" ON "config_template_item" USING btree ("tenant_id","template_id","item_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "config_template_item_template_idx" ON "config_template_item" USING btree ("tenant_id","template_id","sort") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "device_dict_code_uq" ON "device_dict" USING btree ("tenant_id","parent_id","code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "device_dict_parent_idx" ON "device_dict" USING btree ("tenant_id","parent_id","sort") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "nvr_channel_no_uq" ON "nvr_channel" USING btree ("tenant_id","nvr_device_id","channel_no") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "nvr_channel_region_idx" ON "nvr_channel" USING btree ("tenant_id","region_code" varchar_pattern_ops,"id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "nvr_channel_camera_idx" ON "nvr_channel" USING btree ("tenant_id","camera_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "camera_device" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "config_template" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "config_template_item" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "device_dict" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "nvr_channel" AS PERMISSIVE FOR ALL TO public USING (tenant_id = current_setting('app.tenant_id', true)) WITH CHECK (tenant_id = current_setting('app.tenant_id', true));