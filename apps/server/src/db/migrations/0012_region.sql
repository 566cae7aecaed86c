CREATE TABLE "region" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(12) NOT NULL,
	"parent_code" varchar(12) DEFAULT '00' NOT NULL,
	"ancestors" varchar(64) DEFAULT '00' NOT NULL,
	"name" varchar(100) NOT NULL,
	"level" smallint NOT NULL,
	"province_code" varchar(12),
	"province_name" varchar(100),
	"city_code" varchar(12),
	"city_name" varchar(100),
	"district_code" varchar(12),
	"district_name" varchar(100),
	"town_code" varchar(12),
	"town_name" varchar(100),
	"village_code" varchar(12),
	"village_name" varchar(100),
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
CREATE UNIQUE INDEX "region_code_uq" ON "region" USING btree ("code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "region_parent_idx" ON "region" USING btree ("parent_code","sort","code");