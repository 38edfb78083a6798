-- What a run's result depended on, recorded per run from now on (older runs keep NULL: "not recorded")
ALTER TABLE "validation_runs" ADD COLUMN     "engine" TEXT,
ADD COLUMN     "image_id" TEXT,
ADD COLUMN     "parser_version" TEXT;

-- The log line that decided each test's status
ALTER TABLE "test_results" ADD COLUMN     "log_line" INTEGER;
