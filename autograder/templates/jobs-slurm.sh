#!/bin/bash
# Grade a class on a Slurm cluster: @SHARDS@ shard(s) as one job array, then the merge, which builds the
# gradebook, the exports, every feedback page and the summary from their results. Written by
# `grade jobs slurm`.
#
#   bash @FILE@     submits both: the array, and the merge to start once every shard has ended well
#   sbatch @FILE@   submits the array alone; merge later (from this folder) with:
#                   @MERGE_SHOWN@
#
# Submit it from the folder that holds @SUBMISSIONS@, on a file system every node shares: each task
# works there, and each shard writes its results into @OUT@ as it grades them. A shard that failed
# or was cut short: `sbatch --array=K @FILE@` grades what it left (nothing twice), then merge.
#
# What each node needs:
#   - this course's kit installed, with `grade` on the PATH (activate its environment below) and the
#     course's secret: .course-secret beside the kit, or BPE_KIT_COURSE_SECRET, the same for every
#     task (a merge refuses results graded under another secret);
#   - bubblewrap (apt-get install bubblewrap) and user namespaces, or to run as root: `grade doctor`
#     on a node says which cage student code gets there, and the fix where it gets none.
#SBATCH --job-name=@NAME@
#SBATCH --array=0-@LAST@
#SBATCH --cpus-per-task=@JOBS@
#SBATCH --output=@NAME@-%A-%a.log
set -euo pipefail

# What puts `grade` on the PATH on a node, for example:
# source "$HOME/bpe-kit/.venv/bin/activate"

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  # Run with bash, not as a task: submit the array, then the merge, which waits for every shard.
  array=$(sbatch --parsable "$0")
  array=${array%%;*}  # "id;cluster" on a cluster of clusters
  merge=$(sbatch --parsable --job-name=@NAME@-merge --output=@NAME@-merge-%j.log \
    --dependency=afterok:"$array" --wrap=@MERGE_WRAPPED@)
  echo "submitted the shards as job array $array, and the merge as job $merge (it starts when they end well)"
  exit 0
fi

exec @SHARD_COMMAND@
