CREATE TABLE "video_server" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"url" varchar(255) NOT NULL,
	"name" varchar(64),
	"lease_until" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_stream" (
	"tenant_id" varchar(12) NOT NULL,
	"camera_id" varchar(32) NOT NULL,
	"stream_id" varchar(32) NOT NULL,
	"server_id" varchar(32) NOT NULL,
	"charged_to" varchar(32) NOT NULL,
	"viewers" text[] DEFAULT '{}'::text[] NOT NULL,
	"failed" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"touched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_stream_pk" PRIMARY KEY("tenant_id","camera_id")
);
--> statement-breakpoint
ALTER TABLE "video_stream" ADD CONSTRAINT "video_stream_server_id_video_server_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."video_server"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_server_lease_idx" ON "video_server" USING btree ("lease_until");--> statement-breakpoint
CREATE UNIQUE INDEX "video_stream_id_idx" ON "video_stream" USING btree ("stream_id");--> statement-breakpoint
CREATE INDEX "video_stream_server_idx" ON "video_stream" USING btree ("server_id");