-- A birthday is a calendar day (kind 'date', docs/resources.md "Kinds and columns"). The server wrote a day as
-- midnight in Asia/Shanghai (+08:00), so each stored instant becomes its day in that zone, whatever the session's zone.
ALTER TABLE "user" ALTER COLUMN "birthday" SET DATA TYPE date USING ("birthday" AT TIME ZONE 'Asia/Shanghai')::date;
