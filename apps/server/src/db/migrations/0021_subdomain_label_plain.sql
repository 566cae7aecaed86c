DROP INDEX "subdomain_label_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "subdomain_label_uq" ON "sub_domain" USING btree ("tenant_id","sub_domain") WHERE is_deleted = 0 and status <> 4;--> statement-breakpoint
ALTER TABLE "sub_domain" ADD CONSTRAINT "subdomain_label_lower" CHECK ("sub_domain"."sub_domain" = lower("sub_domain"."sub_domain"));