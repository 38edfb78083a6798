-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY['read']::TEXT[];

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "content_type" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_keys_user_id_key_key" ON "idempotency_keys"("user_id", "key");

-- AddForeignKey
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Tokens made before scopes did everything their owner's role allowed: keep it so
UPDATE "api_tokens" t SET "scopes" = CASE u."role"
    WHEN 'ADMIN' THEN ARRAY['read','curate','run','admin']::TEXT[]
    WHEN 'CURATOR' THEN ARRAY['read','curate','run']::TEXT[]
    ELSE ARRAY['read']::TEXT[] END
  FROM "users" u WHERE u."id" = t."user_id";
