-- AlterTable
ALTER TABLE "worker_heartbeats" ADD COLUMN     "docker_version" TEXT,
ADD COLUMN     "drain_requested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "engine_name" TEXT,
ADD COLUMN     "free_disk_bytes" BIGINT,
ADD COLUMN     "held_image_hashes" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "images_held" INTEGER,
ADD COLUMN     "memory_bytes" BIGINT;
