-- CreateTable
CREATE TABLE "ended_sessions" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ended_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ended_sessions_expires_at_idx" ON "ended_sessions"("expires_at");
