ALTER TABLE "user" ADD COLUMN "region_code" varchar(12);--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "client_info_id" bigint;