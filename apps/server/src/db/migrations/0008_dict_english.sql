ALTER TABLE "dict" ADD COLUMN "dict_value_en" varchar(255);--> statement-breakpoint
ALTER TABLE "dict_biz" ADD COLUMN "dict_value_en" varchar(255);