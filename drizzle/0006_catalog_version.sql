CREATE TABLE "catalog_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_version_one_row" CHECK ("catalog_version"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 1);--> statement-breakpoint
-- Every statement that changes movies or movie_plans bumps the version in its own transaction, so a replica that
-- reads the new version also sees the change (docs/decisions/0065-cached-catalogue.md).
CREATE FUNCTION "bump_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalog_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "movies_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "movies"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();--> statement-breakpoint
CREATE TRIGGER "movie_plans_bump_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "movie_plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalog_version"();
