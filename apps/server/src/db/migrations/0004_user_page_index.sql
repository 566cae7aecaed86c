DROP INDEX "user_tenant_id_idx";--> statement-breakpoint
CREATE INDEX "user_tenant_id_idx" ON "user" USING btree ("tenant_id","id") WHERE is_deleted = 0;