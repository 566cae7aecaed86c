CREATE TABLE "cache_epoch" (
	"scope" varchar(12) PRIMARY KEY NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL
);
