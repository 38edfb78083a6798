-- AlterEnum
ALTER TYPE "ImportFormat" ADD VALUE 'R2E_GYM_TRAJECTORY';

-- AlterEnum
ALTER TYPE "TrajectoryFormat" ADD VALUE 'R2E_GYM';
