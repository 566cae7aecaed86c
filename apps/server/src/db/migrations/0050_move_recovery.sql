ALTER TABLE "cache_epoch" ALTER COLUMN "scope" SET DATA TYPE varchar(32);--> statement-breakpoint
ALTER TABLE "tenant" ADD COLUMN "move_other_id" bigint;--> statement-breakpoint
-- hand-written:
-- Reference data kept in step on the data sources (docs/tenants.md "Reference data on a data source"): any write to a
-- table a moved tenant's queries read beside its own rows moves that table's epoch, `ref:<table>` in cache_epoch, in
-- the writing transaction, whatever code made it (the API, a seed, an operator's SQL). Its row trigger
-- (0037_live_events.sql) tells every server `e:ref:<table>:<epoch>` at the commit; the servers copy the table to the
-- data sources whose copy is older. One row per table: concurrent writers of one table take turns on it.
CREATE FUNCTION atrium_reference_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cache_epoch (scope, epoch) VALUES ('ref:' || TG_TABLE_NAME, 1)
    ON CONFLICT (scope) DO UPDATE SET epoch = cache_epoch.epoch + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER atrium_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON dict FOR EACH STATEMENT EXECUTE FUNCTION atrium_reference_changed();
--> statement-breakpoint
CREATE TRIGGER atrium_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON param FOR EACH STATEMENT EXECUTE FUNCTION atrium_reference_changed();
--> statement-breakpoint
CREATE TRIGGER atrium_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON region FOR EACH STATEMENT EXECUTE FUNCTION atrium_reference_changed();
--> statement-breakpoint
CREATE TRIGGER atrium_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON oauth_client FOR EACH STATEMENT EXECUTE FUNCTION atrium_reference_changed();
--> statement-breakpoint
CREATE TRIGGER atrium_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON menu FOR EACH STATEMENT EXECUTE FUNCTION atrium_reference_changed();
--> statement-breakpoint
CREATE TRIGGER atrium_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tenant FOR EACH STATEMENT EXECUTE FUNCTION atrium_reference_changed();
