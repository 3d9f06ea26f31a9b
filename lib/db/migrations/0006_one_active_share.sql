-- A conversation has one active share link. Links made twice at once before this migration: the
-- newest stays active, the others are revoked (they stop working, as Revoke would have done).
UPDATE "shares" AS s SET "revoked_at" = now()
WHERE s."revoked_at" IS NULL
  AND EXISTS (
    SELECT 1 FROM "shares" AS t
    WHERE t."conversation_id" = s."conversation_id" AND t."revoked_at" IS NULL
      AND (t."updated_at", t."id") > (s."updated_at", s."id")
  );--> statement-breakpoint
CREATE UNIQUE INDEX "shares_one_active" ON "shares" USING btree ("conversation_id") WHERE "shares"."revoked_at" is null;
